package io.opscv.kernel;

import java.util.List;

/**
 * The 2-D operators on tiny maps whose tensors are dense (NCHW planes, or NHWC batches, end to end): a
 * chunk of whole maps is decoded in one run, passed along W and then along H as single rows of
 * per-element taps or sums ({@link RowPass}), and written in one run. A vector of outputs spans the ends
 * of several short rows, so maps of a few pixels fill whole vectors with neither a transpose (maps in
 * lanes) nor a call per out row (rows along W). The arithmetic is the reference's, W first, an identity
 * axis copied: the forward {@code t = w0·x[x0] + w1·x[x1]} over the self rows the out rows read, then
 * {@code y = h0·t[y0] + h1·t[y1]} ({@link KernelProvider#interpolateRow}); the backward the W sums of every
 * gradOut row, then the H sums of out from them, each from +0 in the canonical order
 * ({@link KernelProvider#sumRow}).
 */
final class FlatMaps {
    /**
     * The most out pixels of a map (32 × 32): with each vector's taps loaded once for every period of a chunk,
     * flat maps are faster than maps in lanes up to there, and no faster past it, where a chunk holds a map or
     * less and no period repeats.
     */
    static final int MAX_PIXELS = 1024;
    /** The most terms an input of the backward's takes on either axis. */
    static final int MAX_SLOTS = 16;
    /**
     * The backward's largest out and gradOut maps (pixels), of 16-bit dtypes: (183605, 3, 8 × 8 ← 5 × 5) FP16
     * NHWC, (763, 1024, 6 × 6 ← 3 × 3) FP16 and (1378, 2048, 2 × 2 ← 4 × 4) BF16 ran 1.15-1.2 × faster than maps
     * in lanes; gradOut maps of 8 × 8 ((23671, 32, 4 × 4 ← 8 × 8) BF16, (48431, 16, 4 × 4 ← 8 × 8) FP16) 1.65-2 ×
     * slower, and FLOAT maps, which maps in lanes stage without conversions, 1.25 × slower ((820, 256, 8 × 8 ←
     * 4 × 4)).
     */
    static final int MAX_BACKWARD_OUT = 64;
    static final int MAX_BACKWARD_GRAD = 36;
    /** Out elements per chunk, about, where maps are smaller: a chunk's buffers stay in L1 and L2. */
    static final int CHUNK_OUTPUTS = 4096;
    /** The largest maps, out elements and self elements of a chunk: its buffers stay in L2. */
    private static final long MAX_MAP_OUT = 1 << 14;
    private static final long MAX_SOURCE = 1 << 16;

    private final int pix;
    /** Elements of a source map (self, or gradOut) and of a destination map (out). */
    private final int mapIn;
    private final int mapOut;
    private final int maps;
    /** Rows of a map's intermediate, and their length. */
    private final int used;
    private final int rowOut;
    /** The W pass (null along an identity W) and the H pass (null along an identity H), for a chunk. */
    private final RowPass across;
    private final RowPass down;

    private FlatMaps(int pix, int mapIn, int mapOut, int maps, int used, int rowOut, RowPass across, RowPass down) {
        this.pix = pix;
        this.mapIn = mapIn;
        this.mapOut = mapOut;
        this.maps = maps;
        this.used = used;
        this.rowOut = rowOut;
        this.across = across;
        this.down = down;
    }

    /** No more maps to a chunk than the call has, so that a small call builds small taps. */
    private static int maps(int mapOut, long total) {
        return (int) Math.max(1, Math.min(CHUNK_OUTPUTS / mapOut, total));
    }

    /** The forward's passes. */
    private static FlatMaps forward(LinearTable h, LinearTable w, int pix, long total) {
        int hin = h.lin();
        int win = w.lin();
        int rowIn = win * pix;
        int rowOut = w.lout() * pix;
        int mapIn = hin * rowIn;
        int mapOut = h.lout() * rowOut;
        int maps = maps(mapOut, total);
        // The self rows the out rows read, each interpolated along W once per map.
        boolean[] read = new boolean[hin];
        for (int y = 0; y < h.lout(); y++) {
            read[h.identity() ? y : h.x0(y)] = true;
            read[h.identity() ? y : h.x1(y)] = true;
        }
        int[] slot = new int[hin];
        int[] rows = new int[hin];
        int count = 0;
        for (int r = 0; r < hin; r++) {
            if (read[r]) {
                slot[r] = count;
                rows[count++] = r;
            }
        }
        RowPass across = w.identity() ? null : RowPass.of(across(w, rows, count, pix, maps, mapIn));
        RowPass down = h.identity() ? null : RowPass.of(down(h, w.identity() ? null : slot, count, rowIn, rowOut, maps,
                mapIn));
        return new FlatMaps(pix, mapIn, mapOut, maps, count, rowOut, across, down);
    }

    /** The W pass: row u of map m of the intermediate from self row rows[u] of map m. */
    private static RowTaps across(LinearTable w, int[] rows, int used, int pix, int maps, int mapIn) {
        int rowIn = w.lin() * pix;
        int rowOut = w.lout() * pix;
        int mapLength = Math.multiplyExact(used, rowOut);
        int period = RowTaps.periodUnits(mapLength, 1, maps);
        int n = Math.multiplyExact(period, mapLength);
        int[] left = new int[n];
        int[] right = new int[n];
        float[] w0 = new float[n];
        float[] w1 = new float[n];
        for (int m = 0, e = 0; m < period; m++) {
            for (int u = 0; u < used; u++) {
                int row = m * mapIn + rows[u] * rowIn;
                for (int x = 0; x < w.lout(); x++) {
                    for (int c = 0; c < pix; c++, e++) {
                        left[e] = row + w.x0(x) * pix + c;
                        right[e] = row + w.x1(x) * pix + c;
                        w0[e] = w.w0[x];
                        w1[e] = w.w1[x];
                    }
                }
            }
        }
        return RowTaps.periodic(left, right, w0, w1, Math.multiplyExact(maps, mapLength), period * mapIn);
    }

    /** The H pass: out row y of map m from the intermediate's rows (or self's, along an identity W). */
    private static RowTaps down(LinearTable h, int[] slot, int used, int rowIn, int rowOut, int maps, int mapIn) {
        int mapLength = Math.multiplyExact(h.lout(), rowOut);
        int period = RowTaps.periodUnits(mapLength, 1, maps);
        int n = Math.multiplyExact(period, mapLength);
        int[] left = new int[n];
        int[] right = new int[n];
        float[] w0 = new float[n];
        float[] w1 = new float[n];
        for (int m = 0, e = 0; m < period; m++) {
            for (int y = 0; y < h.lout(); y++) {
                int top = slot == null ? m * mapIn + h.x0(y) * rowIn : (m * used + slot[h.x0(y)]) * rowOut;
                int bottom = slot == null ? m * mapIn + h.x1(y) * rowIn : (m * used + slot[h.x1(y)]) * rowOut;
                for (int k = 0; k < rowOut; k++, e++) {
                    left[e] = top + k;
                    right[e] = bottom + k;
                    w0[e] = h.w0[y];
                    w1[e] = h.w1[y];
                }
            }
        }
        int moved = slot == null ? mapIn : used * rowOut;
        return RowTaps.periodic(left, right, w0, w1, Math.multiplyExact(maps, mapLength), period * moved);
    }

    /**
     * The backward's passes: the W sums of every gradOut row of a map (element (m, j, i, c) of the intermediate
     * input i of W, its terms from gradOut row j of map m), then the H sums of out (element (m, r, k) input r
     * of H, its terms from the intermediate's rows of map m, or gradOut's along an identity W).
     */
    private static FlatMaps backward(LinearTable h, LinearTable w, int pix, long total) {
        int rowIn = w.lout() * pix;
        int rowOut = w.lin() * pix;
        int hout = h.lout();
        int mapIn = hout * rowIn;
        int mapOut = h.lin() * rowOut;
        int maps = maps(mapOut, total);
        // Whole groups of both passes' periods where a chunk holds them (RowSums.PERIODS_AT_ONCE).
        int pw = w.identity() ? 1 : RowTaps.periodUnits(hout * rowOut, 1, Integer.MAX_VALUE);
        int ph = h.identity() ? 1 : RowTaps.periodUnits(mapOut, 1, Integer.MAX_VALUE);
        int fours = RowSums.PERIODS_AT_ONCE * pw / RowTaps.gcd(pw, ph) * ph;
        maps = maps >= fours ? maps / fours * fours : maps;
        RowPass across = null;
        if (!w.identity()) {
            int period = RowTaps.periodUnits(hout * rowOut, 1, maps);
            int n = Math.multiplyExact(period * hout, rowOut);
            int[] input = new int[n];
            int[] offset = new int[n];
            for (int e = 0; e < n; e++) {
                int row = e / rowOut;
                input[e] = e % rowOut / pix;
                offset[e] = row * rowIn + e % pix;
            }
            across = RowPass.of(RowSums.of(w, input, offset, pix, Math.multiplyExact(maps * hout, rowOut),
                    period * mapIn));
        }
        RowPass down = null;
        if (!h.identity()) {
            int period = RowTaps.periodUnits(mapOut, 1, maps);
            int n = Math.multiplyExact(period, mapOut);
            int[] input = new int[n];
            int[] offset = new int[n];
            for (int e = 0; e < n; e++) {
                int m = e / mapOut;
                input[e] = e % mapOut / rowOut;
                offset[e] = m * hout * rowOut + e % rowOut;
            }
            down = RowPass.of(RowSums.of(h, input, offset, rowOut, Math.multiplyExact(maps, mapOut),
                    period * hout * rowOut));
        }
        return new FlatMaps(pix, mapIn, mapOut, maps, hout, rowOut, across, down);
    }

    /**
     * The form for this call, or null: self and out dense maps of one kind ({@link #dense}), not a copy (both
     * axes identities), out maps of at most {@link #MAX_PIXELS} pixels (NHWC pixels of whole vectors of
     * channels go along rows, {@link Bilinear2dRows}: 8 × 8 -> 4 × 4 maps of 512 channels were 1.17 × slower
     * here), maps small enough for a chunk, and every vector's taps within the provider's permute windows
     * on both passes.
     */
    static FlatMaps of(StridedTensor self, StridedTensor out, LinearTable h, LinearTable w, KernelProvider provider) {
        return of(self, out, h, w, false, provider);
    }

    /**
     * As {@link #of(StridedTensor, StridedTensor, LinearTable, LinearTable, KernelProvider)} for the backward
     * (gradOut to out, the tables' outputs gradOut's): 16-bit maps, out maps of at most {@link #MAX_BACKWARD_OUT}
     * pixels and gradOut maps of at most {@link #MAX_BACKWARD_GRAD}, each input of either axis taking at most
     * {@link #MAX_SLOTS} terms.
     */
    static FlatMaps backward(StridedTensor gradOut, StridedTensor out, LinearTable h, LinearTable w,
                             KernelProvider provider) {
        if (gradOut.dataType().byteSize() != 2 || (long) h.lout() * w.lout() > MAX_BACKWARD_GRAD
                || RowSums.slots(h) > MAX_SLOTS || RowSums.slots(w) > MAX_SLOTS) {
            return null;
        }
        return of(gradOut, out, h, w, true, provider);
    }

    private static FlatMaps of(StridedTensor source, StridedTensor out, LinearTable h, LinearTable w, boolean backward,
                               KernelProvider provider) {
        int pix = dense(source);
        long outPixels = backward ? (long) h.lin() * w.lin() : (long) h.lout() * w.lout();
        if (pix == 0 || dense(out) != pix || h.identity() && w.identity()
                || outPixels > (backward ? MAX_BACKWARD_OUT : MAX_PIXELS) || pix > 1 && pix % provider.lanes() == 0) {
            return null;
        }
        long mapIn = (backward ? (long) h.lout() * w.lout() : (long) h.lin() * w.lin()) * pix;
        long mapOut = outPixels * pix;
        if (mapOut > MAX_MAP_OUT || Math.max(1, CHUNK_OUTPUTS / mapOut) * mapIn > MAX_SOURCE) {
            return null;
        }
        long total = pix == 1 ? out.shape()[0] * out.shape()[1] : out.shape()[0];
        LinearTable hf = h.full();
        LinearTable wf = w.full();
        // The passes' taps or sums depend on the maps a chunk holds, not on the call's count beyond that.
        List<?> key = List.of(backward ? "flat maps backward" : "flat maps", hf, pix, maps((int) mapOut, total));
        FlatMaps f = wf.derived(key, () -> backward ? backward(hf, wf, pix, total) : forward(hf, wf, pix, total));
        int lanes = provider.lanes();
        boolean fits = (f.across == null || f.across.fits(lanes)) && (f.down == null || f.down.fits(lanes));
        return fits ? f : null;
    }

    /**
     * 1 for NCHW maps end to end (W, H, C, N strides 1, W, H·W, C·H·W), C for NHWC batches end to end (C, W,
     * H, N strides 1, C, W·C, H·W·C), 0 otherwise. Extents of 1 may have any stride.
     */
    private static int dense(StridedTensor t) {
        long[] sh = t.shape();
        long[] st = t.strides();
        long n = sh[0];
        long c = sh[1];
        long hh = sh[2];
        long ww = sh[3];
        boolean nchw = (ww == 1 || st[3] == 1) && (hh == 1 || st[2] == ww) && (c == 1 || st[1] == hh * ww)
                && (n == 1 || st[0] == c * hh * ww);
        if (nchw) {
            return 1;
        }
        boolean nhwc = c > 1 && st[1] == 1 && (ww == 1 || st[3] == c) && (hh == 1 || st[2] == ww * c)
                && (n == 1 || st[0] == hh * ww * c) && c <= MAX_MAP_OUT;
        return nhwc ? (int) c : 0;
    }

    /** Runs the call from {@code self} (the forward's) or gradOut (the backward's) into {@code out}. */
    void run(StridedTensor self, StridedTensor out, KernelProvider provider, WorkerPool pool) {
        long total = pix == 1 ? out.shape()[0] * out.shape()[1] : out.shape()[0];
        int lanes = provider.lanes();
        pool.forEachChunk((total + maps - 1) / maps, (long) maps * (mapIn + mapOut), b -> new Scratch(this, lanes, b),
                (c, s) -> chunk(self, out, provider, c * maps, (int) Math.min(maps, total - c * maps), s));
    }

    /** One thread's buffers (with four vectors of slack for the windows): self, the intermediate, out. */
    private static final class Scratch {
        final float[] x;
        final float[] t;
        final float[] y;

        Scratch(FlatMaps f, int lanes, Buffers b) {
            x = b.floats(f.maps * f.mapIn + 4 * lanes);
            t = f.across == null ? null : b.floats(f.maps * f.used * f.rowOut + 4 * lanes);
            y = f.down == null ? null : b.floats(f.maps * f.mapOut + lanes);
        }
    }

    private void chunk(StridedTensor self, StridedTensor out, KernelProvider provider, long m0, int count,
                       Scratch s) {
        provider.decodeRun(self.segment(), self.dataType(), self.offset() + m0 * mapIn, count * mapIn, s.x, 0);
        float[] rows = s.x;
        if (across != null) {
            across.run(provider, count * used * rowOut, s.x, s.t);
            rows = s.t;
        }
        float[] result = rows;
        if (down != null) {
            down.run(provider, count * mapOut, rows, s.y);
            result = s.y;
        }
        provider.encodeRun(result, 0, count * mapOut, out.segment(), out.dataType(), out.offset() + m0 * mapOut);
    }
}
