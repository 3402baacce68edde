package io.opscv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.op.UpsampleBilinear2d;
import io.opscv.op.UpsampleBilinear2dBackwardV2;
import io.opscv.runtime.AclnnException;
import io.opscv.runtime.AclnnStatus;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** The 2-D facade: the ACL mirror's bits in NCHW and NHWC, every dtype, arrays and segments; its errors. */
class Upsample2dTest {
    /** (n, c, h, w, outH, outW, alignCorners, scalesH, scalesW). */
    private static final Object[][] SHAPES = {
            {1L, 1L, 2L, 2L, 4L, 4L, false, 0.0, 0.0},
            {2L, 3L, 5L, 7L, 11L, 13L, true, 0.0, 0.0},
            {1L, 4L, 16L, 12L, 8L, 6L, false, 0.5, 0.5},
    };

    private static Upsample2d op(Object[] s, boolean nhwc) {
        Upsample2d op = Upsample2d.bilinear((long) s[0], (long) s[1], (long) s[2], (long) s[3], (long) s[4], (long) s[5])
                .alignCorners((boolean) s[6]).scales((double) s[7], (double) s[8]);
        return nhwc ? op.channelsLast() : op;
    }

    private static long[] shape(Object[] s, long h, long w, boolean nhwc) {
        return nhwc ? new long[] {(long) s[0], h, w, (long) s[1]} : new long[] {(long) s[0], (long) s[1], h, w};
    }

    private static byte[] mirrorForward(Object[] s, boolean nhwc, DataType dtype, byte[] x) {
        Format format = nhwc ? Format.NHWC : Format.NCHW;
        return Mirror.run(shape(s, (long) s[2], (long) s[3], nhwc), shape(s, (long) s[4], (long) s[5], nhwc), dtype, format, x,
                (t, y) -> UpsampleBilinear2d.getWorkspaceSize(t, IntArray.of((long) s[4], (long) s[5]), (boolean) s[6],
                        (double) s[7], (double) s[8], y), UpsampleBilinear2d::run);
    }

    private static byte[] mirrorBackward(Object[] s, boolean nhwc, DataType dtype, byte[] g) {
        Format format = nhwc ? Format.NHWC : Format.NCHW;
        long[] in = shape(s, (long) s[2], (long) s[3], nhwc);
        return Mirror.run(shape(s, (long) s[4], (long) s[5], nhwc), in, dtype, format, g,
                (t, y) -> UpsampleBilinear2dBackwardV2.getWorkspaceSize(t, IntArray.of((long) s[4], (long) s[5]),
                        IntArray.of(in), (boolean) s[6], (double) s[7], (double) s[8], y), UpsampleBilinear2dBackwardV2::run);
    }

    @Test
    void arraysAndSegmentsGiveTheMirrorsBitsInBothLayouts() {
        for (Object[] s : SHAPES) {
            long rows = (long) s[0] * (long) s[1];
            for (boolean nhwc : new boolean[] {false, true}) {
                Upsample2d op = op(s, nhwc);
                byte[] x = Mirror.values(rows * (long) s[2] * (long) s[3], DataType.FLOAT, 61);
                byte[] g = Mirror.values(rows * (long) s[4] * (long) s[5], DataType.FLOAT, 62);
                Mirror.assertSameBits(mirrorForward(s, nhwc, DataType.FLOAT, x), Mirror.bytes(op.forward(Mirror.floats(x))),
                        DataType.FLOAT, op.toString());
                Mirror.assertSameBits(mirrorBackward(s, nhwc, DataType.FLOAT, g), Mirror.bytes(op.backward(Mirror.floats(g))),
                        DataType.FLOAT, op.toString());
                for (DataType dtype : new DataType[] {DataType.FLOAT16, DataType.BF16}) {
                    byte[] x16 = Mirror.values(rows * (long) s[2] * (long) s[3], dtype, 63);
                    byte[] g16 = Mirror.values(rows * (long) s[4] * (long) s[5], dtype, 64);
                    Mirror.assertSameBits(mirrorForward(s, nhwc, dtype, x16), Mirror.bytes(op.forward(Mirror.shorts(x16), dtype)),
                            dtype, op + " " + dtype);
                    byte[] expected = mirrorBackward(s, nhwc, dtype, g16);
                    try (Arena arena = Arena.ofConfined()) {
                        MemorySegment in = arena.allocate(g16.length).copyFrom(MemorySegment.ofArray(g16));
                        MemorySegment out = arena.allocate(expected.length);
                        op.backward(in, out, dtype);
                        Mirror.assertSameBits(expected, out.toArray(ValueLayout.JAVA_BYTE), dtype, op + " " + dtype + " confined");
                    }
                    MemorySegment in = Arena.ofAuto().allocate(g16.length).copyFrom(MemorySegment.ofArray(g16));
                    MemorySegment out = Arena.ofAuto().allocate(expected.length);
                    op.backward(in, out, dtype);
                    Mirror.assertSameBits(expected, out.toArray(ValueLayout.JAVA_BYTE), dtype, op + " " + dtype + " auto");
                }
            }
        }
    }

    @Test
    void channelsLastIsTheNchwResultTransposed() {
        Object[] s = SHAPES[1];
        int n = 2, c = 3, h = 5, w = 7;
        float[] nchw = Mirror.floats(Mirror.values(n * c * h * w, DataType.FLOAT, 71));
        float[] nhwc = new float[nchw.length];
        for (int b = 0; b < n; b++) {
            for (int ch = 0; ch < c; ch++) {
                for (int y = 0; y < h; y++) {
                    for (int x = 0; x < w; x++) {
                        nhwc[((b * h + y) * w + x) * c + ch] = nchw[((b * c + ch) * h + y) * w + x];
                    }
                }
            }
        }
        float[] a = op(s, false).forward(nchw);
        float[] b = op(s, true).forward(nhwc);
        int oh = 11, ow = 13;
        for (int bb = 0; bb < n; bb++) {
            for (int ch = 0; ch < c; ch++) {
                for (int y = 0; y < oh; y++) {
                    for (int x = 0; x < ow; x++) {
                        assertEquals(Float.floatToIntBits(a[((bb * c + ch) * oh + y) * ow + x]),
                                Float.floatToIntBits(b[((bb * oh + y) * ow + x) * c + ch]));
                    }
                }
            }
        }
    }

    @Test
    void errorsNameTheShapeOrCarryTheStatus() {
        Upsample2d op = Upsample2d.bilinear(1, 2, 3, 4, 6, 8).channelsLast();
        IllegalArgumentException length = assertThrows(IllegalArgumentException.class, () -> op.backward(new float[95]));
        assertEquals("gradOut has 95 elements, but (N, H, W, C) = (1, 6, 8, 2) needs 96.", length.getMessage());
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> Upsample2d.bilinear(1, 2, 3, -4, 6, 8));
        assertEquals("w must be >= 0, but got -4.", negative.getMessage());
        AclnnException scales = assertThrows(AclnnException.class,
                () -> Upsample2d.bilinear(1, 2, 3, 4, 6, 8).scales(3.0, 2.0).backward(new float[96]));
        assertEquals(AclnnStatus.ERR_PARAM_INVALID, scales.status());
        assertTrue(op.toString().contains(".channelsLast()"), op.toString());
    }
}
