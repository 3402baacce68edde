package io.opscv.kernel;

import io.opscv.runtime.DataType;

/**
 * The fused backward of 1-D linear interpolation (SPEC §1): reads gradOut (N, C, Lout) with any
 * strides, writes out (N, C, Lin) with any strides, in one pass, accumulating in float and rounding
 * once to the output dtype.
 *
 * <p>Implementation overview. There is one form, general over every ratio, alignCorners, scales,
 * dtype and layout: <em>rows in lanes</em>. The rows (N·C of them) are taken in groups of
 * {@link KernelProvider#lanes()} (16 with 512-bit vectors), so that one vector holds one position of
 * every row of the group and every lane follows the scalar reference's arithmetic exactly: the
 * coordinate table is shared by all rows, so a term is one vector times one broadcast weight, for any
 * ratio. A task is a range of groups and a run of consecutive blocks of {@link #BLOCK_INPUTS} inputs or more;
 * it takes each group's blocks in turn, so that every row streams through memory. For each block it
 * stages the gradOut positions its inputs gather from, {@link #CHUNK_POSITIONS} at a time, into a
 * lane-major buffer ({@link LaneStage}: transposed from rows, or loaded as they are when the rows lie
 * side by side), continues the block's sums over that chunk ({@link KernelProvider#sumLanes}), and
 * finally stages the sums out to the group's rows of out. Where gradOut's rows lie side by side with several
 * groups' channels to a position, a task takes runs of groups together, each chunk read for all of them in turn
 * ({@link #sharedGroups}), so that gradOut's lines are read once, close together. The dtype appears only in the
 * stages' widening and rounding. The buffers stay in the L1 and L2 caches; each byte of the tensors is read or written
 * once (a block's boundary positions twice).
 *
 * <p>Where both tensors are channels-last with wide pixels, the call is the 2-D backward along rows of maps one row
 * high ({@link Bilinear2dRows#runOneRowHigh}). A downsampling by {@link SparseBackward#MIN_RATIO} or more whose
 * positions reach distinct inputs is written as a fill and its taps instead ({@link SparseBackward}); a channels-last
 * gradOut of a few channels takes its batches in lanes ({@link BatchLanes}); short out rows of consecutive elements go
 * end to end as one row of sums ({@link FlatRows}, {@link RowSums}), or, where their inputs take too many terms for
 * that, in lanes a chunk of whole rows at a time ({@link FlatRows}, {@link KernelProvider#sumLines}); long rows of a
 * periodic table go along the row, a segment at a time, on sums that hold one period ({@link PeriodicRows}); other long
 * rows downsampled by {@link ScatterBackward#MIN_RATIO} or more, and one or two long rows or downsampled ones too few to
 * fill half the lanes, on a table the lanes cannot cut into periodic stretches, go four at a time through the
 * reference's scatter loop ({@link ScatterBackward}).
 *
 * <p>Every output element belongs to exactly one task and is summed by one thread in an order that does
 * not depend on the cut (the gather form needs no atomics), so results are bit-identical for any thread
 * count, schedule and provider.
 *
 * <p>Memory is touched only through the tensors' segments, whose accesses the JDK checks for bounds and
 * liveness: memory freed during a run fails the access with {@link IllegalStateException}, never a
 * read of freed memory.
 */
public final class Linear1dBackwardKernel {
    /**
     * Inputs per task block, at least: the block's lane-major sums ({@code BLOCK_INPUTS × lanes} floats) stay in L1.
     * A downsampling's block takes the inputs of about as many positions, up to {@link #MAX_BLOCK_INPUTS}, so that
     * a block's fixed costs (its reads and writes of {@code lanes} rows, the sums' clearing) spread over as many
     * terms as an upsampling's.
     */
    static final int BLOCK_INPUTS = 256;
    /** The most inputs per block (a downsampling's): its sums stay in L2. */
    static final int MAX_BLOCK_INPUTS = 4 * BLOCK_INPUTS;
    /** gradOut positions staged at a time: the staged lanes and their rows tile stay in L1 beside the sums. */
    static final int CHUNK_POSITIONS = 256;
    /**
     * The fewest unreached inputs stored as a fill of their own: a fill costs a memory call per row, so
     * shorter stretches are summed (to +0) with their neighbours and written with them in one move.
     */
    static final int FILL_INPUTS = 64;
    /** Elements (gradOut plus out) a task should cover at least: handing out a task costs about as much as 1 µs. */
    private static final long TASK_ELEMENTS = 1 << 15;
    /** Consecutive blocks a task takes of each of its rows, at least: runs of 16 KiB or more of FLOAT rows. */
    private static final int RUN_BLOCKS = 16;
    /** The most floats of sums a block holds for the groups it sums at once: they stay in L2. */
    private static final int SHARED_FLOATS = 1 << 16;
    /**
     * The smallest call (gradOut and out) whose groups are summed together: a smaller one is read from the caches,
     * where group by group is as fast and summing together only adds its copies.
     */
    private static final long SHARED_BYTES = 1 << 24;
    /** The most floats of gradOut a chunk of the groups summed at once decodes. */
    private static final int WIDE_FLOATS = 1 << 15;
    /** Tasks per thread to aim for, so that a slow thread does not hold up the others. */
    private static final int TASKS_PER_THREAD = 4;
    /** Below this many gradOut plus out elements a call runs on its caller: waking threads costs more. */
    private static final long PARALLEL_THRESHOLD = 1 << 15;

    private Linear1dBackwardKernel() {}

    /** Runs with the default provider on the shared pool. */
    public static void run(StridedTensor gradOut, StridedTensor out, LinearTable table) {
        run(gradOut, out, table, KernelProviders.get(), WorkerPool.shared());
    }

    /** Runs with {@code provider} on the shared pool. */
    public static void run(StridedTensor gradOut, StridedTensor out, LinearTable table, KernelProvider provider) {
        run(gradOut, out, table, provider, WorkerPool.shared());
    }

    /** Runs with {@code provider}, spreading the tasks over {@code pool}. */
    public static void run(StridedTensor gradOut, StridedTensor out, LinearTable table, KernelProvider provider,
                           WorkerPool pool) {
        LinearTable full = table.full();
        if (Bilinear2dRows.runOneRowHigh(gradOut, out, full, true, provider, pool)) {
            return;
        }
        if (SparseBackward.applies(full, out)) {
            SparseBackward.run(gradOut, out, full, pool);
            return;
        }
        if (BatchLanes.applies(gradOut, full.lout(), out, full.lin(), provider.lanes())) {
            BatchLanes.backward(gradOut, out, full, provider, pool);
            return;
        }
        RowPass flat = FlatRows.backwardPass(full, gradOut, out, provider);
        if (flat != null) {
            FlatRows.backward(gradOut, out, full, flat, provider, pool);
            return;
        }
        PeriodicRows.Sums periodic = PeriodicRows.backwardSums(full, gradOut, out, provider);
        if (periodic != null) {
            PeriodicRows.backward(gradOut, out, full, periodic, provider, pool);
            return;
        }
        if (fourRowsAtATime(full, gradOut, out.shape()[0] * out.shape()[1], provider.lanes())) {
            ScatterBackward.run(gradOut, out, full, provider, pool);
            return;
        }
        Plan plan = new Plan(gradOut, out, full, provider, pool.parallelism());
        if (plan.tasks == 0) {
            return;
        }
        pool.forEach(plan.tasks, plan.small, b -> new Scratch(plan, b), plan::runTask);
    }

    /**
     * Groups a block of {@code block} inputs sums at once: rows side by side in gradOut (channel stride 1), at least
     * two groups' channels to a position, a call of {@link #SHARED_BYTES} or more (gradOut and out), out rows of one
     * block; the most groups that divide a batch's whole groups (so that no run of them straddles two batches) and
     * whose sums {@link #SHARED_FLOATS} hold; else 1.
     */
    static int sharedGroups(StridedTensor gradOut, int lanes, int lin, int block) {
        long channels = gradOut.shape()[1];
        long[] strides = gradOut.strides();
        long bytes = gradOut.shape()[0] * channels * (gradOut.shape()[2] + lin) * gradOut.dataType().byteSize();
        if (strides[1] != 1 || strides[2] < channels || channels < 2L * lanes || lin > block || bytes < SHARED_BYTES) {
            return 1;
        }
        long perBatch = channels / lanes;
        long most = Math.max(1, Math.min(perBatch, SHARED_FLOATS / ((long) (block + lanes) * lanes)));
        while (perBatch % most != 0) {
            most--;
        }
        return (int) most;
    }

    /** One thread's buffers, reused across its tasks. */
    private static final class Scratch {
        final float[] staged;
        /** The sums of each group a block takes at once (one, but where groups share gradOut's lines). */
        final float[][] sums;
        /** Those groups' channels of a chunk's positions, decoded in one run (position-major), or null. */
        final float[] wide;
        /** Those groups' out rows, end to end, for one write; the transposes' scratch. */
        final float[] wideOut;
        final float[] spare;
        final int[] rowAt;
        final LaneStage in;
        final LaneStage out;

        Scratch(Plan p, Buffers b) {
            int lanes = p.provider.lanes();
            // A chunk is at most a row of gradOut: a small call allocates buffers of its size, not 34 KiB.
            int chunk = Math.max(1, Math.min(CHUNK_POSITIONS, p.table.lout()));
            staged = b.floats((chunk + lanes) * lanes);
            sums = new float[p.sharedGroups][];
            for (int k = 0; k < sums.length; k++) {
                sums[k] = b.floats((p.block + lanes) * lanes);
            }
            wide = p.sharedGroups > 1 ? b.floats(p.wideChunk * p.sharedGroups * lanes + lanes) : null;
            wideOut = p.sharedGroups > 1 ? b.floats(p.sharedGroups * lanes * p.block + lanes) : null;
            spare = b.floats(2 * lanes * lanes);
            rowAt = new int[lanes];
            in = new LaneStage(p.gradOut, p.provider, chunk, b);
            out = new LaneStage(p.out, p.provider, p.block, b);
        }
    }

    /**
     * A range of inputs and how its rows fill the lanes: each row in a lane of its own, or (few rows on a
     * periodic table) {@code segments} stretches of each row, {@code shift} inputs apart, in lanes of their own.
     */
    private record Region(int from, int to, int segments, int shift, int shiftOut, int blocks, int blocksPerTask,
                          long tasks) {
        /** Tasks along the row: runs of {@code blocksPerTask} consecutive blocks. */
        int blockTasks() {
            return (blocks + blocksPerTask - 1) / blocksPerTask;
        }
    }

    /**
     * Whether {@code rows} rows go four at a time through the reference's scatter loop ({@link ScatterBackward}): long
     * rows downsampled by {@link ScatterBackward#MIN_RATIO} or more, or one or two rows, or downsampled rows too few to
     * fill half of {@code lanes}, on a table the lanes cannot cut into periodic stretches ({@link #stretchLength}),
     * where each group position would cost as much for them as for a whole group.
     */
    static boolean fourRowsAtATime(LinearTable t, StridedTensor gradOut, long rows, int lanes) {
        return ScatterBackward.applies(t, gradOut)
                || ScatterBackward.appliesToFewRows(t, gradOut, rows, lanes) && stretchLength(t, rows, lanes) == 0;
    }

    /**
     * The length of the stretches the lanes cut each of {@code rows} rows into ({@link Plan#regions}), or 0 where they
     * do not: with at most half as many rows as lanes, on the periodic stretch of {@code t}'s table, a whole number of
     * periods each and {@link #BLOCK_INPUTS} inputs at least.
     */
    static int stretchLength(LinearTable t, long rows, int lanes) {
        int segments = rows > 0 && rows * 2 <= lanes ? (int) (lanes / rows) : 1;
        LinearTable.Period period = segments > 1 ? t.periodicInputs() : null;
        int length = period == null ? 0 : (period.to() - period.from()) / segments / period.inputs() * period.inputs();
        return length < BLOCK_INPUTS ? 0 : length;
    }

    /** How a call is cut into tasks. */
    private static final class Plan {
        final StridedTensor gradOut;
        final StridedTensor out;
        final LinearTable table;
        final KernelProvider provider;
        final long rows;
        final long groups;
        final int block;
        final long groupsPerTask;
        final int blocksPerTask;
        final Region[] regions;
        final int tasks;
        final boolean small;
        /**
         * Groups whose sums a block takes at once, each chunk of positions read for all of them in turn (1: group by
         * group). Rows side by side in a gradOut of several groups' channels (channels-last) share its lines: group by
         * group, each reads one line in C·size bytes a position, a strided stream that ran at a third of a copy's
         * speed; read chunk by chunk for every group, the lines of a chunk's positions are read within a few KiB.
         */
        final int sharedGroups;
        /** Positions a chunk of the groups summed at once spans: their decoded channels stay in L2. */
        final int wideChunk;

        Plan(StridedTensor gradOut, StridedTensor out, LinearTable table, KernelProvider provider, int threads) {
            this.gradOut = gradOut;
            this.out = out;
            this.table = table;
            this.provider = provider;
            int lanes = provider.lanes();
            int lin = table.lin();
            int lout = table.lout();
            rows = out.shape()[0] * out.shape()[1];
            groups = (rows + lanes - 1) / lanes;
            long downsampled = (long) BLOCK_INPUTS * lin / Math.max(1, lout);
            block = (int) Math.min(lin, Math.min(MAX_BLOCK_INPUTS, Math.max(BLOCK_INPUTS, downsampled)));
            long elements = rows * (lin + (long) lout);
            small = elements < PARALLEL_THRESHOLD || threads == 1;
            // Enough groups per task to be worth handing out, few enough to give every thread several tasks.
            long blocks = (lin + block - 1) / block;
            long perGroupBlock = Math.max(1, (long) lanes * (block + (long) lout * block / lin));
            long byWork = Math.max(1, TASK_ELEMENTS / perGroupBlock);
            // A task takes consecutive blocks of each of its groups in turn, so that every row streams through
            // memory in long runs (the prefetchers follow them) rather than a block's few KiB per row.
            // Rows whose group fits a stage's whole-group buffer are tasks of whole rows, so that out goes in one run.
            blocksPerTask = (long) lanes * lin <= LaneStage.GROUP_FLOATS ? (int) blocks
                    : (int) Math.min(blocks, Math.max(byWork, RUN_BLOCKS));
            long blockTasks = (blocks + blocksPerTask - 1) / blocksPerTask;
            long groupTasks = Math.max(1, ((long) threads * TASKS_PER_THREAD + blockTasks - 1) / blockTasks);
            long perTask = Math.min(Math.max(1, byWork / blocksPerTask), Math.max(1, groups / groupTasks));
            perTask = Math.max(perTask, (groups * blockTasks + Integer.MAX_VALUE - 1) / Integer.MAX_VALUE);
            sharedGroups = sharedGroups(gradOut, lanes, lin, block);
            if (sharedGroups > 1) {
                // Tasks of whole runs of the groups summed at once (a batch's channels, where they fill the runs),
                // where the call still gives every thread several tasks.
                perTask = Math.max(perTask, Math.min(sharedGroups, groups / ((long) threads * TASKS_PER_THREAD)));
                perTask = perTask < sharedGroups ? perTask : (perTask + sharedGroups - 1) / sharedGroups * sharedGroups;
            }
            groupsPerTask = rows == 0 ? 1 : perTask;
            wideChunk = Math.max(1, Math.min(CHUNK_POSITIONS, WIDE_FLOATS / (sharedGroups * lanes)));
            regions = rows == 0 ? new Region[0] : regions(lin);
            long count = 0;
            for (Region r : regions) {
                count += r.tasks();
            }
            tasks = Math.toIntExact(count);
        }

        /**
         * Few rows leave most lanes idle: on a periodic stretch of the table ({@link LinearTable#periodicInputs})
         * each row is cut into as many segments, a whole number of periods long, as fill the lanes, and the
         * inputs before and after the stretch go row by row.
         */
        private Region[] regions(int lin) {
            int lanes = provider.lanes();
            int length = stretchLength(table, rows, lanes);
            if (length == 0) {
                return new Region[] {rowsRegion(0, lin)};
            }
            int segments = (int) (lanes / rows);
            LinearTable.Period period = table.periodicInputs();
            int from = period.from();
            int to = from + segments * length;
            int shiftOut = (int) ((long) length / period.inputs() * period.outputs());
            int blocks = (length + block - 1) / block;
            Region segmented = new Region(from, from + length, segments, length, shiftOut, blocks, 1, blocks);
            return java.util.stream.Stream.of(rowsRegion(0, from), segmented, rowsRegion(to, lin))
                    .filter(r -> r.tasks() > 0).toArray(Region[]::new);
        }

        private Region rowsRegion(int from, int to) {
            int blocks = (to - from + block - 1) / block;
            int perTask = Math.max(1, Math.min(blocks, blocksPerTask));
            long blockTasks = (blocks + perTask - 1) / perTask;
            return new Region(from, to, 1, 0, 0, blocks, perTask, (groups + groupsPerTask - 1) / groupsPerTask * blockTasks);
        }

        void runTask(int task, Scratch s) {
            long t = task;
            Region region = regions[0];
            for (Region r : regions) {
                region = r;
                if (t < r.tasks()) {
                    break;
                }
                t -= r.tasks();
            }
            if (region.segments() > 1) {
                int i0 = region.from() + (int) t * block;
                int i1 = Math.min(region.to(), i0 + block);
                s.in.select(0, (int) rows, region.segments(), region.shiftOut());
                s.out.select(0, (int) rows, region.segments(), region.shift());
                sumBlock(i0, i1, -1, 1, s);
                return;
            }
            int b0 = (int) (t % region.blockTasks()) * region.blocksPerTask();
            int b1 = Math.min(region.blocks(), b0 + region.blocksPerTask());
            long firstGroup = (t / region.blockTasks()) * groupsPerTask;
            long endGroup = Math.min(groups, firstGroup + groupsPerTask);
            // A task of every block of the whole rows writes each input of its groups once.
            boolean whole = b0 == 0 && b1 == region.blocks() && region.from() == 0 && region.to() == table.lin();
            if (sharedGroups > 1) {
                // Out rows of one block: runs of groups summed at once, each selecting its lanes as its turn comes.
                for (long group = firstGroup; group < endGroup; group += sharedGroups) {
                    sumBlock(region.from(), region.to(), group, (int) Math.min(sharedGroups, endGroup - group), s);
                }
                return;
            }
            for (long group = firstGroup; group < endGroup; group++) {
                select(s.in, group);
                select(s.out, group);
                if (whole) {
                    s.out.writesWholeRows();
                }
                for (int b = b0; b < b1; b++) {
                    int i0 = region.from() + b * block;
                    sumBlock(i0, Math.min(region.to(), i0 + block), -1, 1, s);
                }
            }
        }

        /**
         * The sums of inputs [i0, i1) of {@code count} groups from {@code firstGroup} on (-1: the lanes already
         * selected, one group), from gradOut to out: each chunk of gradOut positions is read and summed for every
         * group in turn, then each group's sums are written. Inputs no position reaches (most of a downsampling's)
         * are +0 and stored as zeros directly, at the speed of a fill.
         */
        private void sumBlock(int i0, int i1, long firstGroup, int count, Scratch s) {
            int lanes = provider.lanes();
            int jLo = table.gatherFrom(i0);
            int jHi = table.gatherTo(i1);
            int from = jLo < jHi ? Math.max(i0, table.x0[jLo]) : i1;
            int to = jLo < jHi ? Math.min(i1, table.x1(jHi - 1) + 1) : i1;
            if (from < to) {
                from = from - i0 < FILL_INPUTS ? i0 : from;
                to = i1 - to < FILL_INPUTS ? i1 : to;
                for (int k = 0; k < count; k++) {
                    java.util.Arrays.fill(s.sums[k], 0, (to - from) * lanes, 0f);
                }
            }
            int chunk = count > 1 ? wideChunk : CHUNK_POSITIONS;
            // A FLOAT chunk is one bulk copy, which streams memory faster than a vector a position at a stride; 16-bit
            // elements are widened in registers either way, and a pass through the wide buffer cost more.
            boolean oneBatch = count > 1 && channelRun(firstGroup, count);
            boolean wide = oneBatch && gradOut.dataType() == DataType.FLOAT;
            for (int ja = jLo; ja < jHi && from < to; ja += chunk) {
                int jb = Math.min(jHi, ja + chunk);
                // The inputs this chunk reaches: the left tap of its first position to the right tap of its last.
                int reachFrom = Math.max(from, table.x0[ja]);
                int reachTo = Math.min(to, table.x1(jb - 1) + 1);
                if (wide) {
                    readWide(firstGroup, count, ja, jb, s.wide);
                }
                for (int k = 0; k < count; k++) {
                    if (wide) {
                        provider.copyPositions(s.wide, k, count, jb - ja, s.staged, 0);
                    } else {
                        if (firstGroup >= 0) {
                            select(s.in, firstGroup + k);
                        }
                        s.in.read(ja, jb - ja, s.staged);
                    }
                    provider.sumLanes(table, reachFrom, reachTo, ja, jb, s.staged, ja, s.sums[k], from);
                }
            }
            if (oneBatch && from == 0 && to == table.lin() && i1 == to
                    && out.strides()[2] == 1 && out.strides()[1] == to) {
                writeWide(firstGroup, count, s);
                return;
            }
            for (int k = 0; k < count; k++) {
                if (firstGroup >= 0) {
                    select(s.out, firstGroup + k);
                }
                if (from > i0) {
                    s.out.writeZeros(i0, from - i0);
                }
                if (to < i1) {
                    s.out.writeZeros(Math.max(to, from), i1 - Math.max(to, from));
                }
                if (from < to) {
                    s.out.write(from, to - from, s.sums[k]);
                }
            }
        }

        /**
         * Whether {@code count} groups from {@code firstGroup} on are whole groups of consecutive channels of one
         * batch (gradOut and out share N and C), at channel stride 1: each position's elements for all of them are one
         * run of gradOut.
         */
        private boolean channelRun(long firstGroup, int count) {
            int lanes = provider.lanes();
            long r0 = firstGroup * lanes;
            long channels = gradOut.shape()[1];
            return r0 + (long) count * lanes <= rows && r0 % channels + (long) count * lanes <= channels;
        }

        /**
         * Positions [ja, jb) of the channels of {@code count} groups from {@code firstGroup} on
         * ({@link #channelRun}), position-major ({@code count·lanes} floats a position): one run of memory where
         * they are the batch's every channel, else one a position.
         */
        private void readWide(long firstGroup, int count, int ja, int jb, float[] wide) {
            int width = count * provider.lanes();
            long r0 = firstGroup * provider.lanes();
            long channels = gradOut.shape()[1];
            long[] st = gradOut.strides();
            long first = gradOut.offset() + r0 / channels * st[0] + r0 % channels + ja * st[2];
            if (st[2] == width) {
                provider.decodeRun(gradOut.segment(), gradOut.dataType(), first, (jb - ja) * width, wide, 0);
                return;
            }
            for (int j = ja; j < jb; j++) {
                provider.decodeRun(gradOut.segment(), gradOut.dataType(), first + (j - ja) * st[2], width, wide,
                        (j - ja) * width);
            }
        }

        /**
         * The sums of {@code count} groups from {@code firstGroup} on, whole out rows end to end ({@link #channelRun}),
         * transposed into one buffer and written in one run.
         */
        private void writeWide(long firstGroup, int count, Scratch s) {
            int lanes = provider.lanes();
            int lin = table.lin();
            for (int k = 0; k < count; k++) {
                if (lin <= LaneStage.SHORT_POSITIONS) {
                    for (int l = 0; l < lanes; l++) {
                        s.rowAt[l] = (k * lanes + l) * lin;
                    }
                    provider.scatterLanes(s.sums[k], 0, lanes, 1, lin, s.wideOut, s.rowAt);
                } else {
                    provider.fromLanes(s.sums[k], 0, lin, s.wideOut, k * lanes * lin, lin, s.spare);
                }
            }
            long r0 = firstGroup * lanes;
            long channels = out.shape()[1];
            long first = out.offset() + r0 / channels * out.strides()[0] + r0 % channels * lin;
            provider.encodeRun(s.wideOut, 0, count * lanes * lin, out.segment(), out.dataType(), first);
        }

        /** Selects group g's rows in a stage. */
        private void select(LaneStage stage, long g) {
            long r0 = g * provider.lanes();
            stage.select(r0, (int) Math.min(provider.lanes(), rows - r0), 1, 0);
        }
    }
}
