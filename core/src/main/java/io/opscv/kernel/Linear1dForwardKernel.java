package io.opscv.kernel;

/**
 * Forward 1-D linear interpolation (SPEC §1, {@code aclnnUpsampleLinear1d}): self (N, C, Lin) with
 * any strides → out (N, C, Lout) with any strides, float arithmetic, one rounding to the output dtype.
 *
 * <p>The same rows-in-lanes design as {@link Linear1dBackwardKernel}: groups of
 * {@link KernelProvider#lanes()} rows, a block of outputs at a time, the block's input positions staged lane-major
 * ({@link LaneStage}), each output {@code w0 · x[x0] + w1 · x[x1]} for all rows of the group at once
 * ({@link KernelProvider#interpolateLanes}), the outputs staged back. A block holds up to {@link #BLOCK_OUTPUTS} outputs whose
 * inputs span at most {@link #SPAN} positions (one output at a time where a downsampling's outputs lie further apart).
 * An identity table (Lin = Lout) copies. Both tensors channels-last with wide pixels go along rows of pixels, maps one
 * row high ({@link Bilinear2dRows#runOneRowHigh}). Long rows of consecutive inputs at any ratio below 32 go along the
 * row, four rows at a time through blocks of inputs decoded in one run ({@link GatherForward}); short rows of
 * consecutive elements go end to end as one row of taps ({@link FlatRows}); strong downsampling and a few other
 * downsampled shapes ({@link SparseForward#applies}) read only each output's two inputs ({@link SparseForward}). Every
 * output belongs to one task: the result does not depend on the thread count.
 */
public final class Linear1dForwardKernel {
    /** Outputs per block, at most: the block's lane-major outputs stay in L1. */
    static final int BLOCK_OUTPUTS = 256;
    /** Input positions a block reads, at most (beyond one output's two). */
    static final int SPAN = 256;
    /** Elements a task should cover at least. */
    private static final long TASK_ELEMENTS = 1 << 15;
    /** Consecutive blocks a task takes of each of its rows, at least, so that rows stream through memory. */
    private static final int RUN_BLOCKS = 16;
    /** Below this many elements a call runs on its caller. */
    private static final long PARALLEL_THRESHOLD = 1 << 15;

    private Linear1dForwardKernel() {}

    public static void run(StridedTensor self, StridedTensor out, LinearTable table) {
        run(self, out, table, KernelProviders.get(), WorkerPool.shared());
    }

    public static void run(StridedTensor self, StridedTensor out, LinearTable table, KernelProvider provider) {
        run(self, out, table, provider, WorkerPool.shared());
    }

    public static void run(StridedTensor self, StridedTensor out, LinearTable table, KernelProvider provider,
                           WorkerPool pool) {
        LinearTable t = table.full();
        if (Bilinear2dRows.runOneRowHigh(self, out, t, false, provider, pool)) {
            return;
        }
        if (GatherForward.applies(t, self)) {
            GatherForward.run(self, out, t, provider, pool);
            return;
        }
        if (SparseForward.applies(t, self)) {
            SparseForward.run(self, out, t, provider, pool);
            return;
        }
        RowTaps flat = FlatRows.forwardTaps(t, self, out, provider);
        if (flat != null) {
            FlatRows.forward(self, out, t, flat, provider, pool);
            return;
        }
        int lanes = provider.lanes();
        long rows = out.shape()[0] * out.shape()[1];
        if (rows == 0) {
            return;
        }
        int[] starts = t.forwardBlocks(Linear1dForwardKernel::blocks);
        int blocks = starts.length - 1;
        long groups = (rows + lanes - 1) / lanes;
        long perGroup = Math.max(1, (long) lanes * (t.lout() + (long) t.lin()) / blocks);
        // A task takes a run of consecutive blocks of each of its groups in turn (see Linear1dBackwardKernel).
        // Rows whose group fits a stage's whole-group buffer are tasks of whole rows, so that out goes in one run.
        int blocksPerTask = (long) lanes * t.lout() <= LaneStage.GROUP_FLOATS ? blocks
                : (int) Math.min(blocks, Math.max(RUN_BLOCKS, TASK_ELEMENTS / perGroup));
        int blockTasks = (blocks + blocksPerTask - 1) / blocksPerTask;
        long groupTasks = Math.max(1, (4L * pool.parallelism() + blockTasks - 1) / blockTasks);
        long groupsPerTask = Math.max(Math.max(1, Math.min(TASK_ELEMENTS / perGroup / blocksPerTask, groups / groupTasks)),
                (groups * blockTasks + Integer.MAX_VALUE - 1) / Integer.MAX_VALUE);
        int tasks = Math.toIntExact((groups + groupsPerTask - 1) / groupsPerTask * blockTasks);
        boolean small = rows * (t.lout() + (long) t.lin()) < PARALLEL_THRESHOLD || pool.parallelism() == 1;
        WorkerPool.ScratchTask<Scratch> body = (task, s) -> {
            int b0 = task % blockTasks * blocksPerTask;
            int b1 = Math.min(blocks, b0 + blocksPerTask);
            long firstGroup = task / blockTasks * groupsPerTask;
            for (long group = firstGroup, end = Math.min(groups, firstGroup + groupsPerTask); group < end; group++) {
                long r0 = group * lanes;
                int valid = (int) Math.min(lanes, rows - r0);
                s.in.select(r0, valid, 1, 0);
                s.out.select(r0, valid, 1, 0);
                if (b0 == 0 && b1 == blocks) {
                    // Every block of the whole rows: each output of the group is written once.
                    s.out.writesWholeRows();
                }
                for (int b = b0; b < b1; b++) {
                    int j0 = starts[b];
                    int j1 = starts[b + 1];
                    if (t.identity()) {
                        s.in.read(j0, j1 - j0, s.outputs);
                    } else {
                        int first = t.x0[j0];
                        s.in.read(first, t.x1(j1 - 1) + 1 - first, s.inputs);
                        provider.interpolateLanes(t, j0, j1, s.inputs, first, s.outputs);
                    }
                    s.out.write(j0, j1 - j0, s.outputs);
                }
            }
        };
        pool.forEach(tasks, small, b -> new Scratch(self, out, provider, b), body);
    }

    /** The first output of each block, and lout: up to BLOCK_OUTPUTS outputs reading up to SPAN inputs. */
    private static int[] blocks(LinearTable t) {
        int count = cut(t, null);
        int[] starts = new int[count + 1];
        cut(t, starts);
        starts[count] = t.lout();
        return starts;
    }

    /** Cuts the outputs into blocks, writing their first outputs into {@code starts} if not null; the count. */
    private static int cut(LinearTable t, int[] starts) {
        int lout = t.lout();
        int count = 0;
        for (int j = 0; j < lout; count++) {
            if (starts != null) {
                starts[count] = j;
            }
            int first = t.identity() ? j : t.x0[j];
            int end = j + 1;
            while (end < lout && end - j < BLOCK_OUTPUTS
                    && (t.identity() ? end + 1 - first : t.x1(end) + 1 - first) <= SPAN) {
                end++;
            }
            j = end;
        }
        return count;
    }

    /** One thread's buffers. */
    private static final class Scratch {
        final float[] inputs;
        final float[] outputs;
        final LaneStage in;
        final LaneStage out;

        Scratch(StridedTensor self, StridedTensor out, KernelProvider provider, Buffers b) {
            int lanes = provider.lanes();
            inputs = b.floats((SPAN + lanes) * lanes);
            outputs = b.floats((Math.max(BLOCK_OUTPUTS, SPAN) + lanes) * lanes);
            in = new LaneStage(self, provider, Math.max(BLOCK_OUTPUTS, SPAN), b);
            this.out = new LaneStage(out, provider, BLOCK_OUTPUTS, b);
        }
    }
}
