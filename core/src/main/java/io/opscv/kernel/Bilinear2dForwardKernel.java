package io.opscv.kernel;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * Forward bilinear interpolation (SPEC §10, {@code aclnnUpsampleBilinear2d}): self (N, C, Hin, Win)
 * → out (N, C, Hout, Wout), both given as NCHW-ordered views with any strides (an NHWC tensor comes
 * in as its permuted view), float arithmetic, one rounding to the output dtype.
 *
 * <p>Separable, W first as PyTorch's CPU kernel. Four forms, chosen here in this order: dense maps of up to
 * 32 × 32 out pixels as single rows of taps ({@link FlatMaps}); small maps in lanes
 * ({@link Bilinear2dMapLanes}) but for NHWC pixels of whole vectors of channels; rows of
 * consecutive elements (NCHW, or NHWC pixels) along the rows ({@link Bilinear2dRows}); otherwise (other
 * strides, or self and out of different layouts) two 1-D forwards on rows in lanes
 * ({@link Bilinear2dTiles}): the W pass interpolates the self rows an out band reads,
 * {@code t = w0·x[x0] + w1·x[x1]}, into a float intermediate; the H pass interpolates the intermediate's
 * columns, which lie side by side, {@code y = h0·t[h0] + h1·t[h1]}, the left product first on both axes
 * ({@link KernelProvider#interpolateLanes}). Each axis follows SPEC §1 with its own table; an
 * axis whose sizes are equal is copied (no zero-weight tap). Tasks are tiles of out: the result does not
 * depend on the thread count or the provider.
 */
public final class Bilinear2dForwardKernel {
    private static final int BLOCK = Bilinear2dTiles.BLOCK;

    private Bilinear2dForwardKernel() {}

    public static void run(StridedTensor self, StridedTensor out, LinearTable h, LinearTable w) {
        run(self, out, h, w, KernelProviders.get(), WorkerPool.shared());
    }

    public static void run(StridedTensor self, StridedTensor out, LinearTable h, LinearTable w, KernelProvider provider) {
        run(self, out, h, w, provider, WorkerPool.shared());
    }

    /** Runs with {@code provider}, spreading the tiles over {@code pool}. */
    public static void run(StridedTensor self, StridedTensor out, LinearTable h, LinearTable w,
                           KernelProvider provider, WorkerPool pool) {
        run(self, out, h, w, provider, pool, true);
    }

    /** As {@link #run(StridedTensor, StridedTensor, LinearTable, LinearTable, KernelProvider, WorkerPool)}; tiles only unless {@code mapsInLanes}. */
    static void run(StridedTensor self, StridedTensor out, LinearTable h, LinearTable w, KernelProvider provider,
                    WorkerPool pool, boolean mapsInLanes) {
        long[] ss = self.shape();
        long[] os = out.shape();
        if (ss[2] != h.lin() || ss[3] != w.lin() || os[2] != h.lout() || os[3] != w.lout() || ss[0] != os[0]
                || ss[1] != os[1]) {
            throw new IllegalArgumentException("bilinear forward between " + self + " and " + out);
        }
        if (ss[0] * ss[1] == 0) {
            return;
        }
        LinearTable ht = h.full();
        LinearTable wt = w.full();
        int pix = mapsInLanes ? Bilinear2dRows.pixel(self, out) : 0;
        StridedTensor selfPixels = Bilinear2dMapLanes.pixels(self, Bilinear2dMapLanes.MAP_POSITIONS);
        StridedTensor outPixels = Bilinear2dMapLanes.pixels(out, Bilinear2dMapLanes.MAP_POSITIONS);
        // Pixels of whole vectors of channels go along their rows whatever the maps' size: each row is
        // plain vector loads, where maps in lanes would stage every pixel through the lanes.
        FlatMaps flat = mapsInLanes ? FlatMaps.of(self, out, ht, wt, provider) : null;
        if (flat != null) {
            flat.run(self, out, provider, pool);
            return;
        }
        boolean wideChannels = pix > 0 && Bilinear2dRows.wideChannels(self, out, provider) > 0;
        if (mapsInLanes && !wideChannels && Bilinear2dMapLanes.serves(selfPixels, outPixels)) {
            Bilinear2dMapLanes.forward(selfPixels, outPixels, (int) ss[2], (int) ss[3], ht, wt, provider, pool);
            return;
        }
        if (pix > 0) {
            Bilinear2dRows.forward(self, out, ht, wt, pix, provider, pool);
            return;
        }
        int[] cut = Bilinear2dTiles.forwardCut(wt);
        Bilinear2dTiles tiles = new Bilinear2dTiles(self, out, (i0, i1) -> span(ht, i0, i1), cut,
                provider.lanes(), pool.parallelism());
        int tasks = Math.toIntExact(tiles.tasks);
        pool.forEach(tasks, tiles.small, b -> new Scratch(tiles, provider, b),
                (task, s) -> runTile(task, tiles, ht, wt, cut, provider, s));
    }

    /** The self rows out rows [i0, i1) read; themselves along an identity axis. */
    private static int[] span(LinearTable t, int i0, int i1) {
        return t.identity() ? new int[] {i0, i1} : new int[] {t.x0(i0), t.x1(i1 - 1) + 1};
    }

    /** One thread's buffers, reused across its tiles. */
    private static final class Scratch {
        final float[] staged;
        final float[] outputs;
        final LaneStage selfRows;
        final LaneStage outColumns;
        final LaneStage intermediateRows;
        final LaneStage intermediateColumns;

        Scratch(Bilinear2dTiles tiles, KernelProvider provider, Buffers b) {
            int lanes = provider.lanes();
            staged = b.floats((BLOCK + lanes) * lanes);
            outputs = b.floats((BLOCK + lanes) * lanes);
            // Off-heap like the tensors: FLOAT vector moves on a byte[] segment are not intrinsified (a float[]
            // one made the sweep's mixed profiles slower still).
            MemorySegment t = b.segment(4 * tiles.intermediateFloats());
            intermediateRows = new LaneStage(tiles.intermediateRows(t), provider, BLOCK, b);
            intermediateColumns = new LaneStage(tiles.intermediateColumns(t), provider, BLOCK, b);
            selfRows = tiles.srcRows == null ? null : new LaneStage(tiles.srcRows, provider, BLOCK, b);
            outColumns = tiles.dstRows == null ? null : new LaneStage(tiles.dstRows, provider, BLOCK, b);
        }
    }

    private static void runTile(int task, Bilinear2dTiles tiles, LinearTable h, LinearTable w, int[] cut,
                                KernelProvider provider, Scratch s) {
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
        LaneStage selfRows = s.selfRows;
        LaneStage outColumns = s.outColumns;
        long selfBase = u0 * tiles.hs * tiles.unitRows;
        long outBase = (u0 * tiles.wd + k0) * tiles.unitRows;
        if (tiles.order == Bilinear2dTiles.Order.PER_MAP) {
            selfRows = new LaneStage(Bilinear2dTiles.mapRows(tiles.src, u0, 2, 3), provider, BLOCK);
            outColumns = new LaneStage(Bilinear2dTiles.mapRows(tiles.dst, u0, 3, 2), provider, BLOCK);
            selfBase = 0;
            outBase = k0;
        }
        int lanes = provider.lanes();
        int[] span = tiles.wholeUnits ? new int[] {0, tiles.hs} : span(h, i0, i1);
        int jLo = span[0];
        int count = span[1] - jLo;
        long rows = (long) units * count * tiles.unitRows;
        long rowBase = selfBase + (long) jLo * tiles.unitRows;
        int firstBlock = Arrays.binarySearch(cut, k0);
        for (long r = 0; r < rows; r += lanes) {
            int valid = (int) Math.min(lanes, rows - r);
            selfRows.select(rowBase + r, valid, 1, 0);
            s.intermediateRows.select(r, valid, 1, 0);
            for (int blk = firstBlock; cut[blk] < k1; blk++) {
                int kb0 = cut[blk];
                int kb1 = cut[blk + 1];
                if (w.identity()) {
                    selfRows.read(kb0, kb1 - kb0, s.staged);
                    s.intermediateRows.write(kb0 - k0, kb1 - kb0, s.staged);
                } else {
                    int first = w.x0(kb0);
                    selfRows.read(first, w.x1(kb1 - 1) + 1 - first, s.staged);
                    provider.interpolateLanes(w, kb0, kb1, s.staged, first, s.outputs);
                    s.intermediateRows.write(kb0 - k0, kb1 - kb0, s.outputs);
                }
            }
        }
        long columnRows = (long) units * (k1 - k0) * tiles.unitRows;
        for (long r = 0; r < columnRows; r += lanes) {
            int valid = (int) Math.min(lanes, columnRows - r);
            s.intermediateColumns.select(r, valid, 1, 0);
            s.intermediateColumns.read(0, count, s.staged);
            outColumns.select(outBase + r, valid, 1, 0);
            if (h.identity()) {
                outColumns.write(i0, i1 - i0, s.staged);
            } else {
                provider.interpolateLanes(h, i0, i1, s.staged, jLo, s.outputs);
                outColumns.write(i0, i1 - i0, s.outputs);
            }
        }
    }
}
