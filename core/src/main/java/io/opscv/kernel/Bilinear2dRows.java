package io.opscv.kernel;

import io.opscv.runtime.DataType;
import java.lang.foreign.MemorySegment;

/**
 * The 2-D forward along rows, for views whose rows of pixels are runs of consecutive elements: NCHW
 * (W stride 1; a plane is a map (n, c), a pixel one element) or NHWC (C stride 1, W stride C; a plane is
 * a batch n, a pixel its C channels). Each out row of a plane is {@code y = h0·t[x0] + h1·t[x1]} of two
 * intermediate rows, each a self row interpolated along W ({@code t = w0·x[x0] + w1·x[x1]},
 * {@link KernelProvider#interpolateRow}: whole vectors of a row's elements, the taps picked by permutes
 * or loaded as runs); a band's out rows go in order and keep the last two intermediate rows, so a self
 * row is decoded and interpolated once per band. The H pass is a plain loop over the row's elements,
 * which the JIT vectorizes (Java forbids fusing its multiply and add). Rows in lanes (the tiles)
 * stream 16 rows at once and transpose every element of the W pass twice; here a thread streams one
 * self row and one out row. The order is the reference's: W first, the left product first on both axes;
 * an identity axis is a copy.
 */
final class Bilinear2dRows {
    /**
     * Elements of out a band covers at least: handing out a task costs about 1 µs, and a band decodes the
     * one or two self rows before its first out row's again.
     */
    private static final long TASK_ELEMENTS = 1 << 18;
    /** Tasks per thread to aim for. */
    private static final int TASKS_PER_THREAD = 4;

    private Bilinear2dRows() {}

    /**
     * Elements per pixel when both tensors' rows are runs of consecutive elements of the same kind (1 for
     * NCHW rows, C for NHWC ones), else 0. Any W ratio: where a vector's taps lie beyond the provider's
     * permute windows the W pass is the scalar loop, and still (three channels downsampled by 3.7) 4 ×
     * faster than the tiles, since only the self rows the out rows reach are read.
     */
    static int pixel(StridedTensor self, StridedTensor out) {
        int pix = kind(self);
        return pix == 0 || kind(out) != pix ? 0 : pix;
    }

    /** 1 for rows of W stride 1, C for channels-last pixels (C stride 1, W stride C), else 0. */
    private static int kind(StridedTensor t) {
        long[] sh = t.shape();
        long[] st = t.strides();
        if (st[3] == 1 || sh[3] == 1) {
            return 1;
        }
        return st[1] == 1 && st[3] == sh[1] && sh[1] <= Integer.MAX_VALUE / 2 ? (int) sh[1] : 0;
    }

    static void forward(StridedTensor self, StridedTensor out, LinearTable h, LinearTable w, int pix,
                        KernelProvider provider, WorkerPool pool) {
        long[] os = out.shape();
        long planes = pix == 1 ? os[0] * os[1] : os[0];
        int hout = h.lout();
        int rowOut = Math.multiplyExact(w.lout(), pix);
        int rowIn = Math.multiplyExact(w.lin(), pix);
        RowTaps taps = w.identity() ? null : RowTaps.of(w, pix);
        long byWork = Math.max(1, TASK_ELEMENTS / Math.max(1, rowOut));
        long bySpread = Math.max(1, planes * hout / ((long) pool.parallelism() * TASKS_PER_THREAD));
        int band = (int) Math.min(hout, Math.max(1, Math.min(byWork, bySpread)));
        int bands = (hout + band - 1) / band;
        long units = planes * bands;
        long perTask = (units + Integer.MAX_VALUE - 1) / Integer.MAX_VALUE;
        Scratch[] scratch = new Scratch[pool.parallelism()];
        WorkerPool.Task task = (k, slot) -> {
            Scratch s = scratch[slot];
            if (s == null) {
                s = new Scratch(rowIn, rowOut, provider.lanes());
                scratch[slot] = s;
            }
            for (long u = k * perTask, end = Math.min(units, u + perTask); u < end; u++) {
                long plane = u / bands;
                int h0 = (int) (u % bands) * band;
                band(self, out, h, taps, pix, plane, h0, Math.min(hout, h0 + band), provider, s);
            }
        };
        int tasks = Math.toIntExact((units + perTask - 1) / perTask);
        if (units * band * rowOut < TASK_ELEMENTS || pool.parallelism() == 1) {
            for (int k = 0; k < tasks; k++) {
                task.run(k, 0);
            }
            return;
        }
        pool.forEach(tasks, task);
    }

    /** One thread's rows: a decoded self row (with four vectors of slack), two intermediate rows, an out row. */
    private static final class Scratch {
        final float[] x;
        float[] t0;
        float[] t1;
        final float[] y;

        Scratch(int rowIn, int rowOut, int lanes) {
            x = new float[rowIn + 4 * lanes];
            t0 = new float[rowOut];
            t1 = new float[rowOut];
            y = new float[rowOut];
        }
    }

    private static void band(StridedTensor self, StridedTensor out, LinearTable h, RowTaps taps, int pix, long plane,
                             int h0, int h1, KernelProvider provider, Scratch s) {
        int last = h.lin() - 1;
        int rowOut = s.y.length;
        int have0 = -1;
        int have1 = -1;
        for (int r = h0; r < h1; r++) {
            int r0 = h.identity() ? r : h.x0(r);
            int r1 = h.identity() ? r : Math.min(r0 + 1, last);
            if (have1 == r0) {
                float[] t = s.t0;
                s.t0 = s.t1;
                s.t1 = t;
                have0 = have1;
                have1 = -1;
            }
            if (have0 != r0) {
                intermediate(self, taps, pix, plane, r0, provider, s, s.t0);
                have0 = r0;
            }
            if (r1 != r0 && have1 != r1) {
                intermediate(self, taps, pix, plane, r1, provider, s, s.t1);
                have1 = r1;
            }
            float[] y = s.t0;
            if (!h.identity()) {
                combine(h.w0(r), s.t0, h.w1(r), r1 == r0 ? s.t0 : s.t1, s.y, rowOut);
                y = s.y;
            }
            provider.encodeRun(y, 0, rowOut, out.segment(), out.dataType(), rowStart(out, pix, plane, r));
        }
    }

    /** Self row {@code row} of the plane interpolated along W into {@code t} (as it is along an identity W). */
    private static void intermediate(StridedTensor self, RowTaps taps, int pix, long plane, int row,
                                     KernelProvider provider, Scratch s, float[] t) {
        MemorySegment seg = self.segment();
        DataType type = self.dataType();
        long start = rowStart(self, pix, plane, row);
        if (taps == null) {
            provider.decodeRun(seg, type, start, t.length, t, 0);
            return;
        }
        provider.decodeRun(seg, type, start, s.x.length - 4 * provider.lanes(), s.x, 0);
        provider.interpolateRow(taps, 0, taps.length(), s.x, 0, t, 0);
    }

    /** {@code y = a·u + b·v}, the left product first. */
    private static void combine(float a, float[] u, float b, float[] v, float[] y, int count) {
        for (int k = 0; k < count; k++) {
            y[k] = a * u[k] + b * v[k];
        }
    }

    /** Element index of element 0 of row {@code row} of the plane (a map (n, c) for NCHW rows, a batch n for NHWC). */
    private static long rowStart(StridedTensor t, int pix, long plane, int row) {
        long[] st = t.strides();
        long n = pix == 1 ? plane / t.shape()[1] : plane;
        long c = pix == 1 ? plane % t.shape()[1] : 0;
        return t.offset() + n * st[0] + c * st[1] + row * st[2];
    }
}
