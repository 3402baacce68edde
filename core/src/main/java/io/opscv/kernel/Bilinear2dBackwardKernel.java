package io.opscv.kernel;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * Backward of bilinear interpolation (SPEC §10, PyTorch's {@code upsample_bilinear2d_backward}):
 * gradOut (N, C, Hout, Wout) → out (N, C, Hin, Win), both given as NCHW-ordered views with any
 * strides (NHWC tensors come in as their permuted views), float sums, one rounding to the output
 * dtype. It is the cpu platform's fused kernel and the {@code UpsampleBilinear2dGrad} l0 step.
 *
 * <p>Separable. The forms, in the order {@link #run} tries them: NHWC tensors whose pixels are whole vectors
 * of channels go along their rows at any size ({@link Bilinear2dRows#backward}, W summed pixel by pixel,
 * {@link KernelProvider#sumPixels}); tiny dense 16-bit maps end to end as rows of sums ({@link FlatMaps});
 * small maps in lanes ({@link Bilinear2dMapLanes}); larger maps whose rows are runs of pixels along their
 * rows where their W sums fit (pixel by pixel, or a row of per-element terms, {@link RowSums}); the rest as
 * two 1-D backwards on rows in lanes
 * ({@link Bilinear2dTiles}): the W pass sums each
 * gradOut row (n, c, h) along W into a float intermediate, the H pass sums the intermediate's columns
 * (n, c, w), which lie side by side, along H into out. Both are the gather form of
 * {@link KernelProvider#sumLanes}, so the canonical order is the 1-D one on each axis: the W sums of a
 * gradOut row in ascending gradOut column, left tap before right, then the H terms in ascending gradOut
 * row, left tap before right, each sum from +0, no rounding until out. An axis whose sizes are equal is
 * copied (SPEC §1). Tasks are tiles of out, each summed by one thread: the result does not depend on the
 * thread count or the provider.
 *
 * <p>Why two float passes stay within the golden criterion: with t_W and t_H terms per element
 * along each axis, the W sums carry at most (t_W + 1)·2^-24 relative to their absolute sums and the
 * H pass adds (t_H + 1)·2^-24, so the error is at most (t_W + t_H + 2)·2^-24·B, and
 * t_W + t_H ≤ t_W·t_H whenever both are ≥ 2 (a single-term axis adds one rounding only), which the
 * criterion's (terms + 2)·2^-24·B with terms = t_H·t_W covers. The same adding order on every
 * platform makes the plans' results bit-identical.
 */
public final class Bilinear2dBackwardKernel {
    private static final int BLOCK = Bilinear2dTiles.BLOCK;

    private Bilinear2dBackwardKernel() {}

    public static void run(StridedTensor gradOut, StridedTensor out, LinearTable h, LinearTable w) {
        run(gradOut, out, h, w, KernelProviders.get(), WorkerPool.shared());
    }

    public static void run(StridedTensor gradOut, StridedTensor out, LinearTable h, LinearTable w, KernelProvider provider) {
        run(gradOut, out, h, w, provider, WorkerPool.shared());
    }

    /** Runs with {@code provider}, spreading the tiles over {@code pool}. */
    public static void run(StridedTensor gradOut, StridedTensor out, LinearTable h, LinearTable w,
                           KernelProvider provider, WorkerPool pool) {
        run(gradOut, out, h, w, provider, pool, true);
    }

    /** As {@link #run(StridedTensor, StridedTensor, LinearTable, LinearTable, KernelProvider, WorkerPool)}; tiles only unless {@code mapsInLanes}. */
    static void run(StridedTensor gradOut, StridedTensor out, LinearTable h, LinearTable w, KernelProvider provider,
                    WorkerPool pool, boolean mapsInLanes) {
        long[] gs = gradOut.shape();
        long[] os = out.shape();
        if (gs[2] != h.lout() || gs[3] != w.lout() || os[2] != h.lin() || os[3] != w.lin() || gs[0] != os[0]
                || gs[1] != os[1]) {
            throw new IllegalArgumentException("bilinear backward between " + gradOut + " and " + out);
        }
        if (gs[0] * gs[1] == 0) {
            return;
        }
        LinearTable ht = h.full();
        LinearTable wt = w.full();
        int pix = mapsInLanes ? Bilinear2dRows.wideChannels(gradOut, out, provider) : 0;
        if (pix > 0 && Bilinear2dRows.tryBackward(gradOut, out, ht, wt, pix, provider, pool)) {
            return;
        }
        FlatMaps flat = mapsInLanes ? FlatMaps.backward(gradOut, out, ht, wt, provider) : null;
        if (flat != null) {
            flat.run(gradOut, out, provider, pool);
            return;
        }
        int rowPix = mapsInLanes ? Bilinear2dRows.pixel(gradOut, out) : 0;
        StridedTensor gradPixels = Bilinear2dMapLanes.pixels(gradOut, Bilinear2dMapLanes.BACKWARD_MAP_POSITIONS);
        StridedTensor outPixels = Bilinear2dMapLanes.pixels(out, Bilinear2dMapLanes.BACKWARD_MAP_POSITIONS);
        if (mapsInLanes && Bilinear2dMapLanes.servesBackward(gradPixels, outPixels, provider.lanes())) {
            Bilinear2dMapLanes.backward(gradPixels, outPixels, (int) gs[2], (int) gs[3], ht, wt, provider, pool);
            return;
        }
        if (rowPix > 0 && Bilinear2dRows.tryBackward(gradOut, out, ht, wt, rowPix, provider, pool)) {
            return;
        }
        Bilinear2dTiles tiles = new Bilinear2dTiles(gradOut, out, (i0, i1) -> span(ht, i0, i1), null,
                provider.lanes(), pool.parallelism());
        int tasks = Math.toIntExact(tiles.tasks);
        pool.forEach(tasks, tiles.small, b -> new Scratch(tiles, provider, b),
                (task, s) -> runTile(task, tiles, ht, wt, provider, s));
    }

    /** The gradOut rows out rows [i0, i1) gather from; themselves along an identity axis. */
    private static int[] span(LinearTable t, int i0, int i1) {
        return t.identity() ? new int[] {i0, i1} : new int[] {t.gatherFrom(i0), t.gatherTo(i1)};
    }

    /** One thread's buffers, reused across its tiles. */
    private static final class Scratch {
        final float[] staged;
        final float[] sums;
        final float[] bandSums;
        final LaneStage gradRows;
        final LaneStage outColumns;
        final LaneStage intermediateRows;
        final LaneStage intermediateColumns;

        Scratch(Bilinear2dTiles tiles, KernelProvider provider, Buffers b) {
            int lanes = provider.lanes();
            staged = b.floats((BLOCK + lanes) * lanes);
            sums = b.floats((BLOCK + lanes) * lanes);
            // One row's sums for every column group of a tile, for bands whose span takes several chunks.
            bandSums = b.floats((int) ((long) tiles.columns * tiles.unitRows + lanes) + lanes);
            // Off-heap like the tensors: FLOAT vector moves on a byte[] segment are not intrinsified (a float[]
            // one made the sweep's mixed profiles slower still).
            MemorySegment t = b.segment(4 * tiles.intermediateFloats());
            intermediateRows = new LaneStage(tiles.intermediateRows(t), provider, BLOCK, b);
            intermediateColumns = new LaneStage(tiles.intermediateColumns(t), provider, BLOCK, b);
            gradRows = tiles.srcRows == null ? null : new LaneStage(tiles.srcRows, provider, BLOCK, b);
            outColumns = tiles.dstRows == null ? null : new LaneStage(tiles.dstRows, provider, BLOCK, b);
        }
    }

    private static void runTile(int task, Bilinear2dTiles tiles, LinearTable h, LinearTable w, KernelProvider provider,
                                Scratch s) {
        int bandCount = tiles.bands.length - 1;
        int columnCount = tiles.columnBands.length - 1;
        int kb = task % columnCount;
        int b = task / columnCount % bandCount;
        long u0 = (long) task / columnCount / bandCount * tiles.unitsPerTile;
        int units = (int) Math.min(tiles.unitsPerTile, tiles.units - u0);
        int i0 = tiles.bands[b];
        int i1 = tiles.bands[b + 1];
        int k0 = tiles.columnBands[kb];
        int k1 = tiles.columnBands[kb + 1];
        LaneStage gradRows = s.gradRows;
        LaneStage outColumns = s.outColumns;
        long gradBase = u0 * tiles.hs * tiles.unitRows;
        long outBase = (u0 * tiles.wd + k0) * tiles.unitRows;
        if (tiles.order == Bilinear2dTiles.Order.PER_MAP) {
            gradRows = new LaneStage(Bilinear2dTiles.mapRows(tiles.src, u0, 2, 3), provider, BLOCK);
            outColumns = new LaneStage(Bilinear2dTiles.mapRows(tiles.dst, u0, 3, 2), provider, BLOCK);
            gradBase = 0;
            outBase = k0;
        }
        int lanes = provider.lanes();
        int[] span = tiles.wholeUnits ? new int[] {0, tiles.hs} : span(h, i0, i1);
        long columnRows = (long) units * (k1 - k0) * tiles.unitRows;
        boolean chunked = span[1] - span[0] > tiles.rowsPerChunk;
        if (chunked) {
            Arrays.fill(s.bandSums, 0f);
        }
        for (int ja = span[0]; ja < span[1]; ja += tiles.rowsPerChunk) {
            int jb = Math.min(span[1], ja + tiles.rowsPerChunk);
            long rows = (long) units * (jb - ja) * tiles.unitRows;
            long rowBase = gradBase + (long) ja * tiles.unitRows;
            for (long r = 0; r < rows; r += lanes) {
                int valid = (int) Math.min(lanes, rows - r);
                gradRows.select(rowBase + r, valid, 1, 0);
                s.intermediateRows.select(r, valid, 1, 0);
                sumColumns(w, k0, k1, gradRows, s, provider);
            }
            for (long r = 0; r < columnRows; r += lanes) {
                int valid = (int) Math.min(lanes, columnRows - r);
                s.intermediateColumns.select(r, valid, 1, 0);
                s.intermediateColumns.read(0, jb - ja, s.staged);
                if (h.identity()) {
                    outColumns.select(outBase + r, valid, 1, 0);
                    outColumns.write(ja, jb - ja, s.staged);
                    continue;
                }
                float[] sums = chunked ? s.bandSums : s.sums;
                int iBase = chunked ? i0 - (int) (r / lanes) : i0;
                if (!chunked) {
                    Arrays.fill(sums, 0, (i1 - i0) * lanes, 0f);
                }
                int from = Math.max(i0, h.x0(ja));
                int to = Math.min(i1, h.x1(jb - 1) + 1);
                provider.sumLanes(h, from, to, ja, jb, s.staged, ja, sums, iBase);
                if (!chunked) {
                    outColumns.select(outBase + r, valid, 1, 0);
                    outColumns.write(i0, i1 - i0, sums);
                }
            }
        }
        if (!h.identity() && (chunked || span[1] == span[0])) {
            // Rows no gradOut row reaches are zeros; a chunked band's single row is written once summed.
            for (long r = 0; r < columnRows; r += lanes) {
                int valid = (int) Math.min(lanes, columnRows - r);
                if (chunked) {
                    System.arraycopy(s.bandSums, (int) r, s.sums, 0, lanes);
                } else {
                    Arrays.fill(s.sums, 0, (i1 - i0) * lanes, 0f);
                }
                outColumns.select(outBase + r, valid, 1, 0);
                outColumns.write(i0, i1 - i0, s.sums);
            }
        }
    }

    /** The W pass of the selected rows: out columns [k0, k1) summed (or copied) into the intermediate. */
    private static void sumColumns(LinearTable w, int k0, int k1, LaneStage gradRows, Scratch s,
                                   KernelProvider provider) {
        int lanes = provider.lanes();
        for (int kb0 = k0; kb0 < k1; kb0 += BLOCK) {
            int kb1 = Math.min(k1, kb0 + BLOCK);
            if (w.identity()) {
                gradRows.read(kb0, kb1 - kb0, s.staged);
                s.intermediateRows.write(kb0 - k0, kb1 - kb0, s.staged);
                continue;
            }
            int jLo = w.gatherFrom(kb0);
            int jHi = w.gatherTo(kb1);
            Arrays.fill(s.sums, 0, (kb1 - kb0) * lanes, 0f);
            for (int ja = jLo; ja < jHi; ja += BLOCK) {
                int jb = Math.min(jHi, ja + BLOCK);
                gradRows.read(ja, jb - ja, s.staged);
                int from = Math.max(kb0, w.x0(ja));
                int to = Math.min(kb1, w.x1(jb - 1) + 1);
                provider.sumLanes(w, from, to, ja, jb, s.staged, ja, s.sums, kb0);
            }
            s.intermediateRows.write(kb0 - k0, kb1 - kb0, s.sums);
        }
    }
}
