package io.opscv.kernel;

import io.opscv.runtime.DataType;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.function.Function;

/**
 * The 2-D forward and backward along rows, for views whose rows of pixels are runs of consecutive elements:
 * NCHW (W stride 1; a plane is a map (n, c), a pixel one element) or NHWC (C stride 1, W stride C; a plane is
 * a batch n, a pixel its C channels). Each out row of a plane is {@code y = h0·t[x0] + h1·t[x1]} of two
 * intermediate rows, each a self row interpolated along W ({@code t = w0·x[x0] + w1·x[x1]},
 * {@link KernelProvider#interpolateRow}: whole vectors of a row's elements, the taps picked by permutes
 * or loaded as runs; pixels of a vector of channels or more pixel by pixel,
 * {@link KernelProvider#interpolatePixels}); a band's out rows go in order and keep the last two intermediate
 * rows, so a self row is read and interpolated once per band. The H pass is a plain loop over the row's elements,
 * which the JIT vectorizes (Java forbids fusing its multiply and add). Where H is upsampled by at most {@link
 * #FUSED_H_UPSAMPLING} and the provider runs both passes in one loop ({@link KernelProvider#combinePixels}: FLOAT
 * and BF16 pixels of a vector of channels or more), each out row reads its four taps straight from self instead,
 * and no intermediate row is written, read back and copied out. Rows in lanes (the tiles) stream 16 rows at once
 * and transpose every element of the W pass twice; here a thread streams one self row and one out row. The order
 * is the reference's: W first, the left product first on both axes; an identity axis is a copy. The backward goes
 * along rows too ({@link #backward}).
 */
final class Bilinear2dRows {
    /**
     * Elements of out a band covers at least: handing out a task costs about 1 µs, and a band decodes the
     * one or two self rows before its first out row's again.
     */
    private static final long TASK_ELEMENTS = 1 << 18;
    /** Tasks per thread to aim for. */
    private static final int TASKS_PER_THREAD = 4;
    /**
     * The most H upsampling (out rows a self row) at which the forward runs both passes in one loop: each self row
     * then serves one or two out rows, where further upsampled the loop would repeat its W pass for each.
     */
    static final double FUSED_H_UPSAMPLING = 1.25;
    /** GradOut rows whose W sums the backward takes at once ({@link KernelProvider#sumRows}). */
    private static final int BATCH = 4;

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

    /**
     * C when both tensors are NHWC pixel rows of whole vectors of channels, else 0. Their W pass goes pixel by
     * pixel ({@link #pixelRuns}) and each row is plain vector loads, so they take this form at any size,
     * where maps in lanes would stage every pixel through the lanes.
     */
    static int wideChannels(StridedTensor a, StridedTensor b, KernelProvider provider) {
        int pix = pixel(a, b);
        return pix > 1 && pix % provider.lanes() == 0 ? pix : 0;
    }

    /**
     * Whether the W pass of pixels of {@code pix} elements goes pixel by pixel ({@link
     * KernelProvider#interpolatePixels}, {@link KernelProvider#sumPixels}): pixels of a vector of channels or
     * more, whose taps are runs, where per-element tables (about 24 bytes an element) would outweigh the row.
     */
    static boolean pixelRuns(int pix, KernelProvider provider) {
        return pix > 1 && pix >= provider.lanes();
    }

    /** The most terms per input of a W sum along rows. */
    static final int MAX_SLOTS = 16;
    /**
     * The shortest out rows (elements) the backward takes along rows: rows of 56 elements (NCHW 112 × 112 ←
     * 56 × 56) ran 1.3 × slower than the tiles, of 90 1.6 × faster.
     */
    static final int MIN_BACKWARD_ROW = 64;
    /**
     * Runs the backward along rows of {@code pix}-element pixels ({@link #pixel}) and returns true, where out rows
     * are at least {@link #MIN_BACKWARD_ROW} elements long and W is an identity, goes pixel by pixel
     * ({@link #pixelRuns}) or has sums that fit (no input takes more than {@link #MAX_SLOTS} terms, no vector
     * of them needs gathers); else returns false.
     */
    static boolean tryBackward(StridedTensor gradOut, StridedTensor out, LinearTable h, LinearTable w, int pix,
                               KernelProvider provider, WorkerPool pool) {
        boolean runs = pixelRuns(pix, provider);
        if ((long) w.lin() * pix < MIN_BACKWARD_ROW || !w.identity() && !runs && RowSums.slots(w) > MAX_SLOTS) {
            return false;
        }
        RowSums sums = w.identity() || runs ? null : w.derived(List.of("row sums", pix), () -> RowSums.of(w, pix));
        if (sums != null && !sums.windows(provider.lanes()).fit()) {
            return false;
        }
        backward(gradOut, out, h, w, pix, sums, provider, pool);
        return true;
    }

    /** Elements of the longer row, at least, of a 1-D call taken along pixel rows ({@link #runOneRowHigh}). */
    static final int MIN_1D_ROW = 4096;
    /** Vectors a pixel holds, at least, in a 1-D forward taken along pixel rows. */
    static final int MIN_1D_FORWARD_VECTORS = 2;
    /** The same for the 1-D backward, whose sums of pixels of two vectors ran up to 2 × slower than in lanes. */
    static final int MIN_1D_BACKWARD_VECTORS = 4;

    /**
     * Runs a 1-D call ({@code src} to {@code dst} along L, by the forward's table {@code t}) whose tensors are both
     * channels-last rows of wide pixels (C stride 1, L stride C, C at least {@link #MIN_1D_FORWARD_VECTORS} or
     * {@link #MIN_1D_BACKWARD_VECTORS} vectors, the longer row at least {@link #MIN_1D_ROW} elements) as this
     * form's maps one row high, H an identity, and returns true; else (or where {@link #tryBackward} declines)
     * false, nothing written. Such rows in lanes would stage a vector per position both ways; here each pixel's
     * taps are two runs. The arithmetic is the 1-D reference's: the H identity is a copy.
     */
    static boolean runOneRowHigh(StridedTensor src, StridedTensor dst, LinearTable t, boolean backward,
                                 KernelProvider provider, WorkerPool pool) {
        long channels = src.shape()[1];
        int lanes = provider.lanes();
        int vectors = backward ? MIN_1D_BACKWARD_VECTORS : MIN_1D_FORWARD_VECTORS;
        if (lanes == 1 || src.shape()[0] == 0 || t.lin() == 0 || t.lout() == 0 || channels < (long) vectors * lanes
                || channels > Integer.MAX_VALUE / 2 || !pixelRow(src) || !pixelRow(dst)
                || Math.max(t.lin(), t.lout()) * channels < MIN_1D_ROW) {
            return false;
        }
        StridedTensor s = oneRowHigh(src);
        StridedTensor d = oneRowHigh(dst);
        LinearTable h = LinearTable.of(1, 1, false, -1);
        if (backward) {
            return tryBackward(s, d, h, t, (int) channels, provider, pool);
        }
        forward(s, d, h, t, (int) channels, provider, pool);
        return true;
    }

    /** Whether a 1-D tensor's rows are channels-last pixels: C stride 1, L stride C. */
    private static boolean pixelRow(StridedTensor t) {
        return t.strides()[1] == 1 && t.strides()[2] == t.shape()[1];
    }

    /** A 1-D tensor (N, C, L) as maps (N, C, 1, L). */
    private static StridedTensor oneRowHigh(StridedTensor t) {
        long[] sh = t.shape();
        long[] st = t.strides();
        return new StridedTensor(t.segment(), t.offset(), new long[] {sh[0], sh[1], 1, sh[2]},
                new long[] {st[0], st[1], st[0], st[2]}, t.dataType());
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
        int lanes = provider.lanes();
        RowTaps taps = w.identity() || pixelRuns(pix, provider) ? null
                : w.derived(List.of("row taps", pix, lanes), () -> RowTaps.of(w, pix, lanes));
        forEachBand(planes, hout, rowOut, pool, b -> new Scratch(rowIn, rowOut, lanes, b),
                (plane, r0, r1, s) -> band(self, out, h, w, taps, pix, plane, r0, r1, provider, s));
    }

    /** One band: out rows {@code [r0, r1)} of a plane, on a thread's scratch. */
    private interface Band<S> {
        void run(long plane, int r0, int r1, S scratch);
    }

    /**
     * Cuts each plane's {@code rows} out rows of {@code rowLength} elements into bands of at least
     * {@link #TASK_ELEMENTS} elements (fewer where that spreads the planes over the threads) and runs them
     * over {@code pool}, each thread with a scratch of its own. Every out row belongs to one band.
     */
    private static <S> void forEachBand(long planes, int rows, int rowLength, WorkerPool pool,
                                        Function<Buffers, S> scratch, Band<S> body) {
        long byWork = Math.max(1, TASK_ELEMENTS / Math.max(1, rowLength));
        long bySpread = Math.max(1, planes * rows / ((long) pool.parallelism() * TASKS_PER_THREAD));
        int band = (int) Math.min(rows, Math.max(1, Math.min(byWork, bySpread)));
        int bands = (rows + band - 1) / band;
        long units = planes * bands;
        long perTask = (units + Integer.MAX_VALUE - 1) / Integer.MAX_VALUE;
        int tasks = Math.toIntExact((units + perTask - 1) / perTask);
        boolean inline = units * band * rowLength < TASK_ELEMENTS || pool.parallelism() == 1;
        pool.forEach(tasks, inline, scratch, (k, s) -> {
            for (long u = k * perTask, end = Math.min(units, u + perTask); u < end; u++) {
                int r0 = (int) (u % bands) * band;
                body.run(u / bands, r0, Math.min(rows, r0 + band), s);
            }
        });
    }

    /** One thread's rows: a decoded self row (with four vectors of slack), two intermediate rows, an out row. */
    private static final class Scratch {
        /** Elements of a self row and of an out row (the arrays may be longer). */
        final int rowIn;
        final int rowOut;
        final float[] x;
        float[] t0;
        float[] t1;
        final float[] y;

        Scratch(int rowIn, int rowOut, int lanes, Buffers b) {
            this.rowIn = rowIn;
            this.rowOut = rowOut;
            x = b.floats(rowIn + 4 * lanes);
            t0 = b.floats(rowOut);
            t1 = b.floats(rowOut);
            y = b.floats(rowOut);
        }
    }

    private static void band(StridedTensor self, StridedTensor out, LinearTable h, LinearTable w, RowTaps taps,
                             int pix, long plane, int h0, int h1, KernelProvider provider, Scratch s) {
        int rowOut = s.rowOut;
        long selfBase = planeStart(self, pix, plane);
        long outBase = planeStart(out, pix, plane);
        if (taps == null && !w.identity() && !h.identity() && h.lout() <= FUSED_H_UPSAMPLING * h.lin()
                && self.dataType() == out.dataType() && combined(self, out, h, w, pix, selfBase, outBase, h0,
                provider)) {
            for (int r = h0 + 1; r < h1; r++) {
                combined(self, out, h, w, pix, selfBase, outBase, r, provider);
            }
            return;
        }
        int have0 = -1;
        int have1 = -1;
        for (int r = h0; r < h1; r++) {
            int r0 = h.identity() ? r : h.x0(r);
            int r1 = h.identity() ? r : h.x1(r);
            if (have1 == r0) {
                float[] t = s.t0;
                s.t0 = s.t1;
                s.t1 = t;
                have0 = have1;
                have1 = -1;
            }
            if (have0 != r0) {
                intermediate(self, w, taps, pix, selfBase, r0, provider, s, s.t0);
                have0 = r0;
            }
            if (r1 != r0 && have1 != r1) {
                intermediate(self, w, taps, pix, selfBase, r1, provider, s, s.t1);
                have1 = r1;
            }
            long at = rowStart(out, outBase, r);
            if (h.identity()) {
                provider.encodeRun(s.t0, 0, rowOut, out.segment(), out.dataType(), at);
            } else {
                provider.combineRun(h.w0(r), s.t0, h.w1(r), r1 == r0 ? s.t0 : s.t1, s.y, rowOut, out.segment(),
                        out.dataType(), at);
            }
        }
    }

    /** Out row {@code r} of the plane in one loop of both passes, where the provider takes it. */
    private static boolean combined(StridedTensor self, StridedTensor out, LinearTable h, LinearTable w, int pix,
                                    long selfBase, long outBase, int r, KernelProvider provider) {
        return provider.combinePixels(w, pix, h.w0(r), rowStart(self, selfBase, h.x0(r)), h.w1(r),
                rowStart(self, selfBase, h.x1(r)), self.segment(), self.dataType(), out.segment(),
                rowStart(out, outBase, r));
    }

    /**
     * Self row {@code row} of the plane at self element {@code base} interpolated along W into {@code t} (as it is
     * along an identity W), by {@code taps} or, where they are null, pixel by pixel.
     */
    private static void intermediate(StridedTensor self, LinearTable w, RowTaps taps, int pix, long base, int row,
                                     KernelProvider provider, Scratch s, float[] t) {
        MemorySegment seg = self.segment();
        DataType type = self.dataType();
        long start = rowStart(self, base, row);
        if (w.identity()) {
            provider.decodeRun(seg, type, start, s.rowOut, t, 0);
            return;
        }
        if (taps == null) {
            provider.interpolatePixels(w, pix, seg, type, start, s.x, t);
        } else {
            provider.decodeRun(seg, type, start, s.rowIn, s.x, 0);
            provider.interpolateRow(taps, 0, taps.length(), s.x, 0, t, 0);
        }
    }

    /**
     * Element index of element 0 of row 0 of the plane (a map (n, c) for NCHW rows, a batch n for NHWC): once a
     * band, since its divisions cost as much as a short row's arithmetic.
     */
    private static long planeStart(StridedTensor t, int pix, long plane) {
        long[] st = t.strides();
        long n = pix == 1 ? plane / t.shape()[1] : plane;
        long c = pix == 1 ? plane % t.shape()[1] : 0;
        return t.offset() + n * st[0] + c * st[1];
    }

    /** Element index of element 0 of row {@code row} of the plane whose row 0 starts at element {@code base}. */
    private static long rowStart(StridedTensor t, long base, int row) {
        return base + row * t.strides()[2];
    }

    /**
     * The backward along rows of pixels: a band of out rows of a plane takes the gradOut rows that reach it in
     * ascending order, sums each along W into a row of Win pixels from +0 in the 1-D canonical order (by
     * {@code sums}, {@link KernelProvider#sumRow}; where it is null and W is not an identity, pixel by pixel,
     * {@link KernelProvider#sumPixels}), and adds
     * that row, times its H weights, into the (at most two) out rows it reaches, left tap first; an out row is
     * written once no later gradOut row reaches it. Every out element's terms come in the reference's order,
     * from +0.
     */
    static void backward(StridedTensor gradOut, StridedTensor out, LinearTable h, LinearTable w, int pix, RowSums sums,
                         KernelProvider provider, WorkerPool pool) {
        long planes = pix == 1 ? out.shape()[0] * out.shape()[1] : out.shape()[0];
        int hin = h.lin();
        int rowIn = Math.multiplyExact(w.lin(), pix);
        int rowOut = Math.multiplyExact(w.lout(), pix);
        int lanes = provider.lanes();
        forEachBand(planes, hin, rowIn, pool, b -> new BackwardScratch(rowOut, rowIn, lanes, b),
                (plane, i0, i1, s) -> backwardBand(gradOut, out, h, w, pix, sums, plane, i0, i1, provider, s));
    }

    /**
     * One thread's rows for the backward: {@link #BATCH} gradOut rows (each with four vectors of slack), their W
     * sums, the two open out rows.
     */
    private static final class BackwardScratch {
        final float[] g;
        /** Elements of an out row and of a gradOut row (the arrays may be longer). */
        final int rowIn;
        final int rowOut;
        final int gPitch;
        final float[][] t;
        float[] low;
        float[] high;
        /** What the open rows hold ({@link #FRESH}, {@link #SUMMING}, {@link #WRITTEN}). */
        int lowState;
        int highState;
        /** +0 throughout (the sum before a row's only term), and the providers' scratch row. */
        final float[] zeros;
        final float[] y;

        BackwardScratch(int rowOut, int rowIn, int lanes, Buffers b) {
            this.rowOut = rowOut;
            this.rowIn = rowIn;
            gPitch = rowOut + 4 * lanes;
            g = b.floats(BATCH * gPitch);
            t = new float[BATCH][];
            for (int k = 0; k < BATCH; k++) {
                t[k] = b.floats(rowIn + lanes);
            }
            low = b.floats(rowIn);
            high = b.floats(rowIn);
            zeros = b.floats(rowIn);
            java.util.Arrays.fill(zeros, 0, rowIn, 0f);
            y = b.floats(rowIn);
        }
    }

    /** An open out row with no term yet: its array holds anything, its sum is +0. */
    private static final int FRESH = 0;
    /** An open out row summing in its array. */
    private static final int SUMMING = 1;
    /** An out row already written to out with its only term. */
    private static final int WRITTEN = 2;

    private static void backwardBand(StridedTensor gradOut, StridedTensor out, LinearTable h, LinearTable w, int pix,
                                     RowSums sums, long plane, int i0, int i1, KernelProvider provider,
                                     BackwardScratch s) {
        int rowIn = s.rowIn;
        long gradBase = planeStart(gradOut, pix, plane);
        long outBase = planeStart(out, pix, plane);
        // Out rows [open, open + 2) are held in low and high; rows below open are written.
        int open = i0;
        s.lowState = FRESH;
        s.highState = FRESH;
        int jFrom = h.identity() ? i0 : h.gatherFrom(i0);
        int jTo = h.identity() ? i1 : h.gatherTo(i1);
        // Pixel sums read their gradOut row themselves.
        boolean pixels = sums == null && !w.identity();
        for (int j0 = jFrom, batch; j0 < jTo; j0 += batch) {
            // The batch's W sums first (sharing the tables' loads), then each row into the out rows in order.
            batch = sums == null ? 1 : Math.min(BATCH, jTo - j0);
            for (int k = 0; k < batch && !pixels; k++) {
                provider.decodeRun(gradOut.segment(), gradOut.dataType(), rowStart(gradOut, gradBase, j0 + k),
                        s.rowOut, s.g, k * s.gPitch);
            }
            if (sums != null) {
                provider.sumRows(sums, 0, rowIn, s.g, 0, s.gPitch, s.t, 0, batch);
            }
            for (int k = 0; k < batch; k++) {
                int j = j0 + k;
                int r0 = h.identity() ? j : h.x0(j);
                int r1 = h.identity() ? j : h.x1(j);
                while (open < Math.min(r0, i1)) {
                    // No later gradOut row reaches out row open.
                    close(out, outBase, open++, provider, s);
                }
                // Without sums the batch is one row (k = 0), at the start of g.
                float[] t = s.g;
                if (sums != null) {
                    t = s.t[k];
                } else if (pixels) {
                    provider.sumPixels(w, pix, gradOut.segment(), gradOut.dataType(), rowStart(gradOut, gradBase, j),
                            s.g, s.t[0]);
                    t = s.t[0];
                }
                if (h.identity()) {
                    // Out row j (the low open row) is its W sums: rounded straight from them.
                    provider.encodeRun(t, 0, rowIn, out.segment(), out.dataType(), rowStart(out, outBase, j));
                    s.lowState = WRITTEN;
                    continue;
                }
                // Is this the out row's last term (from the last gradOut row that reaches it, the right tap
                // where both taps are the row)?
                if (r0 >= i0 && r0 < i1) {
                    term(out, outBase, r0, r0 == open, h.w0(j), t, r0 != r1 && j == h.gatherTo(r0 + 1) - 1,
                            provider, s);
                }
                if (r1 >= i0 && r1 < i1) {
                    term(out, outBase, r1, r1 == open, h.w1(j), t, j == h.gatherTo(r1 + 1) - 1, provider, s);
                }
            }
        }
        while (open < i1) {
            close(out, outBase, open++, provider, s);
        }
    }

    /**
     * Adds {@code a·t} to open out row {@code row} (the low open row or the high one), from +0 for its first term.
     * A row of one term (downsampling along H) goes to out at once, rounded: it is neither filled, summed in
     * its array nor copied from there. (Rows of several terms stay: there the direct stores of their last
     * term were no faster.)
     */
    private static void term(StridedTensor out, long outBase, int row, boolean low, float a, float[] t,
                             boolean last, KernelProvider provider, BackwardScratch s) {
        float[] y = low ? s.low : s.high;
        int state = low ? s.lowState : s.highState;
        int count = s.rowIn;
        if (last && state == FRESH) {
            // a·t + 1·0 is 0 + a·t bit for bit: the product by 1 is exact and the sum commutes.
            provider.combineRun(a, t, 1f, s.zeros, s.y, count, out.segment(), out.dataType(),
                    rowStart(out, outBase, row));
            state = WRITTEN;
        } else {
            addScaled(y, a, t, count, state == FRESH);
            state = SUMMING;
        }
        if (low) {
            s.lowState = state;
        } else {
            s.highState = state;
        }
    }

    /** Writes out row {@code row} (the low open row, rounded once) unless written already, and opens the next. */
    private static void close(StridedTensor out, long outBase, int row, KernelProvider provider,
                              BackwardScratch s) {
        if (s.lowState != WRITTEN) {
            // A row no gradOut row reaches is +0.
            provider.encodeRun(s.lowState == FRESH ? s.zeros : s.low, 0, s.rowIn, out.segment(), out.dataType(),
                    rowStart(out, outBase, row));
        }
        float[] done = s.low;
        s.low = s.high;
        s.lowState = s.highState;
        s.high = done;
        s.highState = FRESH;
    }

    /** {@code y += a·x} over a row; {@code y = 0 + a·x} for a row's first term. */
    private static void addScaled(float[] y, float a, float[] x, int count, boolean first) {
        if (first) {
            for (int k = 0; k < count; k++) {
                y[k] = 0f + a * x[k];
            }
            return;
        }
        for (int k = 0; k < count; k++) {
            y[k] += a * x[k];
        }
    }
}
