package io.opscv.testing;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** Moves test data between the NCHW and NHWC orders. */
public final class Layout2d {
    private Layout2d() {}

    /** The raw elements ({@code elementBytes} each) of an (n, c, h, w) array, reordered as (n, h, w, c). */
    public static MemorySegment nchwToNhwc(MemorySegment raw, int elementBytes, long n, long c, long h, long w) {
        MemorySegment out = Arena.ofAuto().allocate(Math.max(raw.byteSize(), 1), 8).asSlice(0, raw.byteSize());
        for (long i = 0; i < n; i++) {
            for (long k = 0; k < c; k++) {
                for (long y = 0; y < h; y++) {
                    for (long x = 0; x < w; x++) {
                        long from = ((i * c + k) * h + y) * w + x;
                        long to = ((i * h + y) * w + x) * c + k;
                        MemorySegment.copy(raw, from * elementBytes, out, to * elementBytes, elementBytes);
                    }
                }
            }
        }
        return out;
    }

    /** Values of an (n, h, w, c) array, reordered as (n, c, h, w). */
    public static double[] nhwcToNchw(double[] values, int n, int c, int h, int w) {
        double[] out = new double[values.length];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < c; k++) {
                for (int y = 0; y < h; y++) {
                    for (int x = 0; x < w; x++) {
                        out[((i * c + k) * h + y) * w + x] = values[((i * h + y) * w + x) * c + k];
                    }
                }
            }
        }
        return out;
    }

    /** Values of an (n, c, h, w) array, reordered as (n, h, w, c). */
    public static float[] nchwToNhwc(float[] values, int n, int c, int h, int w) {
        float[] out = new float[values.length];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < c; k++) {
                for (int y = 0; y < h; y++) {
                    for (int x = 0; x < w; x++) {
                        out[((i * h + y) * w + x) * c + k] = values[((i * c + k) * h + y) * w + x];
                    }
                }
            }
        }
        return out;
    }
}
