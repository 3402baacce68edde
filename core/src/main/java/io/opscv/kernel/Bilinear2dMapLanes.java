package io.opscv.kernel;

/**
 * The 2-D operators on small maps with <em>maps in lanes</em>: a group of {@link KernelProvider#lanes()}
 * maps (n, c) is staged whole, each map a lane and each pixel (h, w) a position, and both passes run
 * on the lane-major buffers (maps of up to 64 × 64 pixels, 128 × 128 in the backward). Small maps give rows
 * in lanes too little to work on: a row of 2 to 64 positions per group, many groups, most of each transpose
 * padding. With maps in lanes a group moves one run of memory each way (a map's pixels are consecutive
 * positions of one lane) and every pass is whole vectors.
 *
 * <p>The arithmetic is the tiled kernels' ({@link Bilinear2dBackwardKernel}, {@link Bilinear2dForwardKernel}),
 * lane by lane: the W pass is {@link KernelProvider#sumLanes} or {@link KernelProvider#interpolateLanes}
 * over each src row of the map, from +0, into an intermediate kept column by column; the H pass is the
 * same over each column; an axis of equal sizes is copied. So the bits are the same as theirs. Tasks are
 * ranges of groups: the result does not depend on the thread count.
 *
 * <p>Channels-last maps of fewer channels than lanes take <em>batches in lanes</em> instead ({@link #runBatches}):
 * a group of maps would be {@code lanes / C} batches whose lanes lie C apart, every position gathered in and
 * scattered out; a group of {@code lanes} batches is transposed whole both ways.
 */
final class Bilinear2dMapLanes {
    /**
     * The most pixels a src or dst map of the forward may have (64 × 64): a group's buffers then about fill a 1 MiB
     * L2.
     */
    static final int MAP_POSITIONS = 4096;
    /**
     * The most elements a batch of channels-last maps may hold on either side for batches in lanes: three channels of
     * 64 × 64 pixels, measured faster than groups of maps even where a group's buffers outgrow L2.
     */
    static final int BATCH_ELEMENTS = 3 * MAP_POSITIONS;
    /** Elements (src plus dst) a task should cover at least. */
    private static final long TASK_ELEMENTS = 1 << 15;
    private static final int TASKS_PER_THREAD = 4;

    private Bilinear2dMapLanes() {}

    /**
     * The most pixels of a map the backward takes (128 × 128): its other forms sum each map's lines through
     * transposes (the tiles) or per-element tables (rows), which cost more than a group's buffers outgrowing L2;
     * the forward's rows are plain interpolations, faster than maps in lanes past {@link #MAP_POSITIONS}.
     */
    static final int BACKWARD_MAP_POSITIONS = 4 * MAP_POSITIONS;

    /**
     * The view of {@code t} (N, C, H, W) as rows (N, C, H·W) of pixels, or null where its H and W do not
     * merge into one axis (H's stride is not W times W's) or a map has more than {@code most} pixels.
     */
    static StridedTensor pixels(StridedTensor t, int most) {
        long[] sh = t.shape();
        long[] st = t.strides();
        if (sh[2] * sh[3] > most || (sh[2] > 1 && sh[3] > 1 && st[2] != sh[3] * st[3])) {
            return null;
        }
        long stride = sh[3] > 1 ? st[3] : st[2];
        return new StridedTensor(t.segment(), t.offset(), new long[] {sh[0], sh[1], sh[2] * sh[3]},
                new long[] {st[0], st[1], stride}, t.dataType());
    }

    /**
     * Whether the form serves these pixel rows ({@link #pixels}, null where they do not merge): the dst
     * maps' pixels consecutive, or the dst channels-last (its C maps interleaved, pixel stride C). Other
     * interleavings would be written element by element, slower than the tiled kernels.
     */
    static boolean serves(StridedTensor srcPixels, StridedTensor dstPixels) {
        if (srcPixels == null || dstPixels == null) {
            return false;
        }
        long[] st = dstPixels.strides();
        return st[2] == 1 || dstPixels.shape()[2] == 1 || channelsLast(dstPixels);
    }

    /**
     * {@link #serves} for the backward's pixel rows ({@link #pixels} up to {@link #BACKWARD_MAP_POSITIONS}): maps
     * past {@link #MAP_POSITIONS} only where no group gathers interleaved maps (whose runs would then outgrow the
     * stage's L2 buffer): pixels consecutive, a vector of channels or more, or batches in lanes.
     */
    static boolean servesBackward(StridedTensor gradPixels, StridedTensor outPixels, int lanes) {
        if (!serves(gradPixels, outPixels)) {
            return false;
        }
        boolean small = Math.max(gradPixels.shape()[2], outPixels.shape()[2]) <= MAP_POSITIONS;
        return small || !channelsLast(outPixels) || outPixels.shape()[1] >= lanes
                || batchesInLanes(gradPixels, outPixels, lanes);
    }

    private static boolean channelsLast(StridedTensor pixels) {
        long[] st = pixels.strides();
        return st[1] == 1 && st[2] == pixels.shape()[1] && pixels.shape()[2] > 1;
    }

    /** The backward, gradOut (N, C, Hg, Wg) to out (N, C, Hd, Wd) given as pixel rows ({@link #pixels}). */
    static void backward(StridedTensor gradOut, StridedTensor out, int hg, int wg, LinearTable h, LinearTable w,
                         KernelProvider provider, WorkerPool pool) {
        run(gradOut, out, hg, wg, h, w, provider, pool, true);
    }

    /** The forward, self (N, C, Hs, Ws) to out (N, C, Hd, Wd) given as pixel rows ({@link #pixels}). */
    static void forward(StridedTensor self, StridedTensor out, int hs, int ws, LinearTable h, LinearTable w,
                        KernelProvider provider, WorkerPool pool) {
        run(self, out, hs, ws, h, w, provider, pool, false);
    }

    private static void run(StridedTensor src, StridedTensor dst, int hs, int ws, LinearTable h, LinearTable w,
                            KernelProvider provider, WorkerPool pool, boolean backward) {
        int lanes = provider.lanes();
        if (batchesInLanes(src, dst, lanes)) {
            runBatches(src, dst, hs, ws, h, w, provider, pool, backward);
            return;
        }
        long channels = dst.shape()[1];
        long maps = dst.shape()[0] * channels;
        // Groups of a channels-last dst do not straddle batches: each batch's maps are then one dense run
        // of memory (LaneStage writes it whole) or side by side. A unit is a whole number of batches.
        long unit = !channelsLast(dst) ? lanes : channels < lanes ? lanes / channels * channels : channels;
        long perUnit = (unit + lanes - 1) / lanes;
        long groups = (maps + unit - 1) / unit * perUnit;
        long perGroup = (long) lanes * (src.shape()[2] + dst.shape()[2]);
        long byWork = Math.max(1, TASK_ELEMENTS / perGroup);
        long byThreads = groups / ((long) TASKS_PER_THREAD * pool.parallelism());
        long groupsPerTask = Math.max(Math.max(1, Math.min(byWork, byThreads)),
                (groups + Integer.MAX_VALUE - 1) / Integer.MAX_VALUE);
        int tasks = Math.toIntExact((groups + groupsPerTask - 1) / groupsPerTask);
        boolean small = groups * perGroup < Bilinear2dTiles.PARALLEL_THRESHOLD || pool.parallelism() == 1;
        pool.forEach(tasks, small, b -> new Group(src, dst, hs, ws, h, w, provider, backward, false, b), (task, g) -> {
            long first = task * groupsPerTask;
            for (long group = first, end = Math.min(groups, first + groupsPerTask); group < end; group++) {
                long r0 = group / perUnit * unit + group % perUnit * lanes;
                long unitEnd = Math.min(maps, group / perUnit * unit + unit);
                g.run(r0, (int) Math.min(lanes, unitEnd - r0));
            }
        });
    }

    /**
     * Whether both pixel rows are channels-last batches of {@code 2 <= C < lanes} channels, each batch a run
     * of memory ({@code strides (S, 1, C)}, {@code S >= C·pixels}), of at most {@link #BATCH_ELEMENTS} elements
     * a batch either side: then a group is {@code lanes} batches ({@link #runBatches}).
     */
    static boolean batchesInLanes(StridedTensor srcPixels, StridedTensor dstPixels, int lanes) {
        long channels = dstPixels.shape()[1];
        return channels >= 2 && channels < lanes && batchRuns(srcPixels) && batchRuns(dstPixels)
                && channels * Math.max(srcPixels.shape()[2], dstPixels.shape()[2]) <= BATCH_ELEMENTS;
    }

    private static boolean batchRuns(StridedTensor pixels) {
        long[] sh = pixels.shape();
        return channelsLast(pixels) && (sh[0] == 1 || pixels.strides()[0] >= sh[1] * sh[2]);
    }

    /**
     * Maps in lanes with <em>batches in lanes</em>: a group is {@code lanes} batches of channels-last maps, each
     * batch's {@code C·H·W} elements one run of memory, decoded at once and transposed so that a vector holds one
     * element of every batch ({@link KernelProvider#toLanes}); each channel's pixels are then sorted into a map of
     * their own ({@link KernelProvider#copyPositions}) and both passes run over all C maps, the H pass storing its
     * pixels back in the batch's channels-last order, which is transposed back and written as one run. Lanes are
     * batches, so each lane's arithmetic is the maps in lanes' own. Groups of {@code lanes} maps (C-strided
     * lanes, {@code lanes / C} batches) would gather every position in and scatter it out.
     */
    private static void runBatches(StridedTensor src, StridedTensor dst, int hs, int ws, LinearTable h, LinearTable w,
                                   KernelProvider provider, WorkerPool pool, boolean backward) {
        int lanes = provider.lanes();
        long batches = dst.shape()[0];
        long perGroup = (long) lanes * dst.shape()[1] * (src.shape()[2] + dst.shape()[2]);
        pool.forEachChunk((batches + lanes - 1) / lanes, perGroup,
                b -> new Group(src, dst, hs, ws, h, w, provider, backward, true, b),
                (g, s) -> s.runBatches(g * lanes, (int) Math.min(lanes, batches - g * lanes)));
    }

    /** One thread's buffers for a group of maps, reused across its groups. */
    private static final class Group {
        private final LinearTable h;
        private final LinearTable w;
        private final KernelProvider provider;
        private final boolean backward;
        private final int lanes;
        private final int hs;
        private final int ws;
        private final int hd;
        private final int wd;
        private final LaneStage in;
        private final LaneStage out;
        /** The src maps, pixel (y, x) at position y·ws + x. */
        private final float[] src;
        /** One line (a row of the W pass, a column of the H pass) of sums or interpolations. */
        private final float[] line;
        /** The intermediate, column by column: (x, y) at position x·hs + y, x a dst column, y a src row. */
        private final float[] columns;
        /** The dst maps, pixel (y, x) at position y·wd + x (batches in lanes: pixel-major, channels interleaved). */
        private final float[] dst;
        /** Batches in lanes: the tensors, the channels, a group's batches as rows, and the transposes' scratch. */
        private final StridedTensor srcTensor;
        private final StridedTensor dstTensor;
        private final int channels;
        private final float[] rows;
        private final float[] spare;

        /** @param batches whether the group is {@code lanes} batches ({@link #runBatches}) rather than maps */
        Group(StridedTensor s, StridedTensor d, int hs, int ws, LinearTable h, LinearTable w, KernelProvider provider,
              boolean backward, boolean batches, Buffers b) {
            this.h = h;
            this.w = w;
            this.provider = provider;
            this.backward = backward;
            this.lanes = provider.lanes();
            this.hs = hs;
            this.ws = ws;
            // The backward's dst is the tables' inputs, the forward's their outputs.
            this.wd = backward ? w.lin() : w.lout();
            this.hd = backward ? h.lin() : h.lout();
            int srcPixels = hs * ws;
            int dstPixels = hd * wd;
            this.srcTensor = s;
            this.dstTensor = d;
            this.channels = batches ? (int) d.shape()[1] : 1;
            this.in = batches ? null : new LaneStage(s, provider, srcPixels, b);
            this.out = batches ? null : new LaneStage(d, provider, dstPixels, b);
            int slack = lanes * lanes;
            int most = channels * Math.max(srcPixels, dstPixels);
            this.src = b.floats(channels * srcPixels * lanes + slack);
            this.line = b.floats(Math.max(Math.max(ws, wd), Math.max(hs, hd)) * lanes + slack);
            this.columns = b.floats(channels * wd * hs * lanes + slack);
            // Batches in lanes transpose the group's batches through rows both ways and stage the pixel-major
            // input in dst, free until the H pass.
            this.dst = b.floats((batches ? most : dstPixels) * lanes + slack);
            this.rows = batches ? b.floats(most * lanes + slack) : null;
            this.spare = batches ? b.floats(2 * slack) : null;
        }

        void run(long r0, int valid) {
            in.select(r0, valid, 1, 0);
            out.select(r0, valid, 1, 0);
            in.read(0, hs * ws, src);
            pass(w, src, hs, ws, wd, columns, hs);
            pass(h, columns, wd, hs, hd, dst, wd);
            out.writeRuns(0, hd * wd, dst);
        }

        /** Batches {@code [n0, n0 + count)}, {@code count <= lanes}, with batches in lanes ({@link #runBatches}). */
        void runBatches(long n0, int count) {
            int srcPixels = hs * ws;
            int inLength = channels * srcPixels;
            int outLength = channels * hd * wd;
            move(srcTensor, n0, count, inLength, true);
            provider.toLanes(rows, 0, inLength, inLength, dst, 0, spare);
            for (int c = 0; c < channels; c++) {
                provider.copyPositions(dst, c, channels, srcPixels, src, c * srcPixels);
            }
            // Lines are the C maps' rows, then their columns (x, c) in the batch's order: the H pass stores
            // pixel (y, x) of channel c at position (y·wd + x)·C + c.
            pass(w, src, channels * hs, ws, wd, columns, channels * hs);
            pass(h, columns, wd * channels, hs, hd, dst, wd * channels);
            provider.fromLanes(dst, 0, outLength, rows, 0, outLength, spare);
            move(dstTensor, n0, count, outLength, false);
        }

        /**
         * Decodes ({@code in}) or encodes {@code count} batches of {@code length} elements between the tensor and
         * rows.
         */
        private void move(StridedTensor t, long n0, int count, int length, boolean in) {
            long stride = t.strides()[0];
            long first = t.offset() + n0 * stride;
            int runs = stride == length || count == 1 ? 1 : count;
            int each = runs == 1 ? count * length : length;
            for (int b = 0; b < runs; b++) {
                if (in) {
                    provider.decodeRun(t.segment(), t.dataType(), first + b * stride, each, rows, b * length);
                } else {
                    provider.encodeRun(rows, b * length, each, t.segment(), t.dataType(), first + b * stride);
                }
            }
        }

        /**
         * One pass along an axis: each of {@code lines} lines of {@code inLen} consecutive positions of
         * {@code from} summed or interpolated (copied on an identity axis) to {@code outLen} positions,
         * position k of line q stored at position {@code k·outStride + q} of {@code to}: the W pass stores
         * the intermediate column by column, the H pass the dst maps row by row.
         */
        private void pass(LinearTable t, float[] from, int lines, int inLen, int outLen, float[] to, int outStride) {
            if (backward && !t.identity()) {
                provider.sumLines(t, 0, lines, from, to, outStride, line);
            } else if (!t.identity()) {
                provider.interpolateLines(t, 0, lines, from, to, outStride, line);
            } else {
                for (int q = 0; q < lines; q++) {
                    for (int k = 0; k < outLen; k++) {
                        System.arraycopy(from, (q * inLen + k) * lanes, to, (k * outStride + q) * lanes, lanes);
                    }
                }
            }
        }
    }
}
