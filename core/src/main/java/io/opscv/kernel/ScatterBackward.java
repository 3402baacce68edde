package io.opscv.kernel;

import java.util.function.Function;

/**
 * The 1-D backward of a downsampling by 3 or more of long rows, {@link #ROWS} rows at a time: a block of
 * out is summed in a small tile by the reference's own loop (a scatter over ascending positions, each
 * position's left term before its right term, from +0), then written in one run per row. Rows in lanes
 * would stream {@code 2·lanes} rows at once and stage, transpose and sum every input of a block, most of
 * which receive one term or none at these ratios; here four rows stream together, each position costs its
 * two terms per row, and each input a zero and a store. The sums are the reference's in its order, so the
 * bits are the same.
 *
 * <p>One or two long rows, and downsampled long rows too few to fill half the lanes, go here at any ratio where the
 * lanes cannot cut them into periodic stretches ({@link #appliesToFewRows}): in lanes each group position costs as
 * much for one row as for sixteen. One or two rows are summed a row at a time, so that no work goes to rows that are
 * not there.
 *
 * <p>Tasks are runs of consecutive blocks in (row, block) order, so every output element belongs to one
 * task and the result does not depend on the thread count.
 */
final class ScatterBackward {
    /**
     * Inputs per block (at most; see {@link #SMALL_BLOCK}), here and in {@link GatherForward} (outputs there where
     * they outnumber the inputs): each phase of a block (four rows' reads, the sums, four rows' writes) a long run of
     * memory, the tiles (about 2 MiB a thread) in L2 and L3. Against blocks of 4096 (a block's row in L1), call by
     * call in one process (20 calls, medians): this form's three long-row cells of the sweep 0.80–0.92 × the time, ten
     * long-row cells of the forward 0.61–0.85 × (0.62–0.88 × at 256 bits); the forward's blocks of 262144 about 0.95 ×
     * this one's, whole rows of a million 1.07–4.4 ×.
     */
    static final int BLOCK = 65536;
    /**
     * The smallest block: where a call has too few rows to give each thread {@link #SPREAD} blocks of {@link #BLOCK},
     * its blocks shrink toward this, so that the threads share the work evenly and a call whose rows fit the caches
     * keeps short phases. In blocks of {@link #BLOCK} the forward's (2, 1, 74240 → 68208) FP32 took 1.17 × and (1, 1,
     * 597535 → 119507) FP16 1.15 × as long as in blocks of 4096; with sixteen blocks a thread 0.96 × and 0.93 ×.
     */
    static final int SMALL_BLOCK = 4096;
    /** Blocks a thread, at least, where the rows allow blocks of {@link #SMALL_BLOCK} or more. */
    static final int SPREAD = 16;
    /**
     * Inputs per position from which rows go one by one: below it most inputs receive terms, and rows in
     * lanes share each term's work among 16 rows (at 1.8 and 2.4 inputs per position this form was 1.2-1.3 ×
     * slower), while x0's irregular steps mispredict here.
     */
    static final int MIN_RATIO = 3;
    /** The shortest rows of out taken row by row: shorter rows cost a call per row, which lanes share. */
    static final int MIN_INPUTS = 512;
    /** The largest L stride of gradOut read row by row: a wider one reads each cache line once per row. */
    static final long MAX_STRIDE = 4;
    /** Rows summed together, sharing each position's table entry (the table of a long row does not stay in cache). */
    static final int ROWS = 4;
    /** Elements (gradOut plus out) a task covers at least: handing out a task costs about 1 µs. */
    private static final long TASK_ELEMENTS = 1 << 16;
    /** Tasks per thread to aim for, so that a slow thread does not hold up the others. */
    private static final int TASKS_PER_THREAD = 4;

    private ScatterBackward() {}

    /** Whether {@code t} downsamples rows of out at least {@link #MIN_INPUTS} long from a gradOut of small L stride. */
    static boolean applies(LinearTable t, StridedTensor gradOut) {
        return t.lin() >= (long) MIN_RATIO * t.lout() && longRows(t, gradOut);
    }

    /**
     * Whether {@code rows} rows of out at least {@link #MIN_INPUTS} long, from a gradOut of small L stride, fill at
     * most half of {@code lanes} and are one or two or downsampled, and the sizes differ (an identity is a copy
     * elsewhere). The caller checks that the lanes do not cut them into periodic stretches instead
     * ({@link Linear1dBackwardKernel#stretchLength}). Three or more rows upsampled stay in lanes: there the walk costs
     * about as much a group position as the four-row loop a position, where a downsampling's scatter in lanes costs
     * several times more.
     */
    static boolean appliesToFewRows(LinearTable t, StridedTensor gradOut, long rows, int lanes) {
        return rows > 0 && rows * 2 <= lanes && (rows <= 2 || t.lout() < t.lin()) && t.lin() != t.lout()
                && longRows(t, gradOut);
    }

    private static boolean longRows(LinearTable t, StridedTensor gradOut) {
        long stride = gradOut.strides()[2];
        return t.lin() >= MIN_INPUTS && stride >= 0 && stride <= MAX_STRIDE;
    }

    static void run(StridedTensor gradOut, StridedTensor out, LinearTable t, KernelProvider provider,
                    WorkerPool pool) {
        int lin = t.lin();
        int block = block(out, lin, pool);
        forEachUnit(out, lin, t.lout(), block, pool, b -> new Scratch(lin, block, b),
                (r0, rows, i0, i1, s) -> unit(gradOut, out, t, provider, r0, rows, i0, i1, s));
    }

    /**
     * The block for rows of {@code out} of {@code size} elements on the side a block counts: {@link #BLOCK}, or less
     * where that gives a thread fewer than {@link #SPREAD} blocks, down to {@link #SMALL_BLOCK}.
     */
    static int block(StridedTensor out, long size, WorkerPool pool) {
        long sets = (out.shape()[0] * out.shape()[1] + ROWS - 1) / ROWS;
        long perRow = Math.max(1, ((long) SPREAD * pool.parallelism() + sets - 1) / Math.max(1, sets));
        return (int) Math.max(SMALL_BLOCK, Math.min(BLOCK, size / perRow));
    }

    /** One unit: inputs {@code [i0, i1)} of rows {@code [firstRow, firstRow + rows)}, on a thread's scratch. */
    interface Unit<S> {
        void run(long firstRow, int rows, int i0, int i1, S scratch);
    }

    /**
     * Cuts out's rows, {@link #ROWS} at a time, times blocks of {@code blockInputs} inputs of each into units
     * ({@code set·blocks + block}), and runs them as tasks of consecutive units over {@code pool}, each thread
     * with a scratch of its own. Every output element belongs to one unit.
     */
    static <S> void forEachUnit(StridedTensor out, int lin, int lout, int blockInputs, WorkerPool pool,
                                Function<Buffers, S> scratch, Unit<S> body) {
        long rows = out.shape()[0] * out.shape()[1];
        if (rows == 0) {
            return;
        }
        int blocks = (lin + blockInputs - 1) / blockInputs;
        long units = (rows + ROWS - 1) / ROWS * blocks;
        long perUnit = Math.max(1, ROWS * ((long) lin + lout) / blocks);
        long byWork = Math.max(1, TASK_ELEMENTS / perUnit);
        long bySpread = Math.max(1, units / ((long) pool.parallelism() * TASKS_PER_THREAD));
        long perTask = Math.max(Math.min(byWork, bySpread), (units + Integer.MAX_VALUE - 1) / Integer.MAX_VALUE);
        int tasks = Math.toIntExact((units + perTask - 1) / perTask);
        pool.forEach(tasks, tasks == 1 || pool.parallelism() == 1, scratch, (k, s) -> {
            for (long u = k * perTask, end = Math.min(units, u + perTask); u < end; u++) {
                long r0 = u / blocks * ROWS;
                int i0 = (int) (u % blocks) * blockInputs;
                body.run(r0, (int) Math.min(ROWS, rows - r0), i0, Math.min(lin, i0 + blockInputs), s);
            }
        });
    }

    /** Element index of position 0 of row {@code row} (N·C order) of {@code t}. */
    static long rowStart(StridedTensor t, long row) {
        long channels = t.shape()[1];
        return t.offset() + row / channels * t.strides()[0] + row % channels * t.strides()[1];
    }

    /** Positions {@code [from, from + count)} of the row from element {@code start}, widened into {@code dst[at..]}. */
    static void readRow(KernelProvider provider, StridedTensor t, long start, long from, int count, float[] dst,
                        int at) {
        long stride = t.strides()[2];
        if (stride == 1) {
            provider.decodeRun(t.segment(), t.dataType(), start + from, count, dst, at);
        } else {
            ElementCodec.decode(t.segment(), t.dataType(), start + from * stride, stride, count, dst, at);
        }
    }

    /** The inverse of {@link #readRow}, rounded once. */
    static void writeRow(KernelProvider provider, float[] src, int at, int count, StridedTensor t, long start,
                         long from) {
        long stride = t.strides()[2];
        if (stride == 1) {
            provider.encodeRun(src, at, count, t.segment(), t.dataType(), start + from);
        } else {
            ElementCodec.encode(src, at, count, t.segment(), t.dataType(), start + from * stride, stride);
        }
    }

    /**
     * One thread's tiles: a block's sums and the gradOut positions it reads, for {@link #ROWS} rows, from the
     * pool's kept buffers (a cache-resident call allocated them anew each time).
     */
    private static final class Scratch {
        final Buffers buffers;
        final int sumsPitch;
        final float[] sums;
        int gPitch;
        float[] g;

        Scratch(int lin, int block, Buffers b) {
            buffers = b;
            sumsPitch = Math.min(lin, block) + 2;
            sums = b.floats(ROWS * sumsPitch);
            // A block of a downsampling reads fewer positions than it has inputs, plus the two at its ends.
            gPitch = sumsPitch;
            g = b.floats(ROWS * gPitch);
        }
    }

    private static void unit(StridedTensor gradOut, StridedTensor out, LinearTable t, KernelProvider provider,
                             long r0, int rows, int i0, int i1, Scratch s) {
        int jA = t.gatherFrom(i0);
        int jB = t.gatherTo(i1);
        if (jB - jA > s.gPitch) {
            // Scales that place positions closer than their inputs: more positions than inputs per block.
            s.gPitch = jB - jA;
            s.g = s.buffers.floats(ROWS * s.gPitch);
        }
        for (int k = 0; k < rows; k++) {
            readRow(provider, gradOut, rowStart(gradOut, r0 + k), jA, jB - jA, s.g, k * s.gPitch);
        }
        if (rows <= 2) {
            for (int k = 0; k < rows; k++) {
                sumRow(t, i0, i1, jA, jB, s.g, k * s.gPitch, s.sums, k * s.sumsPitch);
            }
        } else {
            // Rows past the last one sum whatever their tiles hold, and are not written.
            sum(t, i0, i1, jA, jB, s.g, s.gPitch, s.sums, s.sumsPitch);
        }
        for (int k = 0; k < rows; k++) {
            writeRow(provider, s.sums, k * s.sumsPitch + 1, i1 - i0, out, rowStart(out, r0 + k), i0);
        }
    }

    /**
     * The sums of inputs [i0, i1) of {@link #ROWS} rows from positions [jA, jB) ({@code g[k·gp + j - jA]})
     * into {@code sums[k·sp + 1 + i - i0]}: from +0 in ascending j, each position's left term before its
     * right term (the reference's scatter, cut to the block). The sums of a position's two taps stay in
     * registers while x0 stays or steps by one, and are stored at every position (the last store is the
     * final value), so no sum waits on a store of the last.
     *
     * @param sums {@link #ROWS} rows {@code sp} apart, each of {@code i1 - i0 + 2} floats: slots for the inputs
     *             either side of the block, whose terms a block's end positions also make, are written and ignored
     */
    static void sum(LinearTable t, int i0, int i1, int jA, int jB, float[] g, int gp, float[] sums, int sp) {
        final int[] x0 = t.x0;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final int last = t.lin() - 1;
        final int base = 1 - i0;
        java.util.Arrays.fill(sums, 0, ROWS * sp, 0f);
        if (jA >= jB) {
            return;
        }
        int lo = x0[jA];
        float a0 = 0f, a1 = 0f, a2 = 0f, a3 = 0f;
        float b0 = 0f, b1 = 0f, b2 = 0f, b3 = 0f;
        int j = jA;
        for (; j < jB && x0[j] < last; j++) {
            int left = x0[j];
            int k = lo + base;
            int q = j - jA;
            store(sums, sp, k, a0, b0, a1, b1, a2, b2, a3, b3);
            boolean same = left == lo;
            boolean next = left == lo + 1;
            float l = w0[j];
            float r = w1[j];
            float v0 = g[q];
            float v1 = g[gp + q];
            float v2 = g[2 * gp + q];
            float v3 = g[3 * gp + q];
            a0 = (same ? a0 : next ? b0 : 0f) + l * v0;
            a1 = (same ? a1 : next ? b1 : 0f) + l * v1;
            a2 = (same ? a2 : next ? b2 : 0f) + l * v2;
            a3 = (same ? a3 : next ? b3 : 0f) + l * v3;
            b0 = (same ? b0 : 0f) + r * v0;
            b1 = (same ? b1 : 0f) + r * v1;
            b2 = (same ? b2 : 0f) + r * v2;
            b3 = (same ? b3 : 0f) + r * v3;
            lo = left;
        }
        // Positions past the last input: both taps are the last input, the left term first.
        for (; j < jB; j++) {
            int k = lo + base;
            int q = j - jA;
            store(sums, sp, k, a0, b0, a1, b1, a2, b2, a3, b3);
            boolean same = last == lo;
            boolean next = last == lo + 1;
            float l = w0[j];
            float r = w1[j];
            a0 = ((same ? a0 : next ? b0 : 0f) + l * g[q]) + r * g[q];
            a1 = ((same ? a1 : next ? b1 : 0f) + l * g[gp + q]) + r * g[gp + q];
            a2 = ((same ? a2 : next ? b2 : 0f) + l * g[2 * gp + q]) + r * g[2 * gp + q];
            a3 = ((same ? a3 : next ? b3 : 0f) + l * g[3 * gp + q]) + r * g[3 * gp + q];
            b0 = 0f;
            b1 = 0f;
            b2 = 0f;
            b3 = 0f;
            lo = last;
        }
        int k = lo + base;
        store(sums, sp, k, a0, b0, a1, b1, a2, b2, a3, b3);
    }

    /**
     * {@link #sum} for one row: positions {@code g[gAt + j - jA]}, sums {@code sums[sAt + 1 + i - i0]} (and the slots
     * either side), the same loop with one row's two open sums.
     */
    static void sumRow(LinearTable t, int i0, int i1, int jA, int jB, float[] g, int gAt, float[] sums, int sAt) {
        final int[] x0 = t.x0;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final int last = t.lin() - 1;
        final int base = sAt + 1 - i0;
        java.util.Arrays.fill(sums, sAt, sAt + i1 - i0 + 2, 0f);
        if (jA >= jB) {
            return;
        }
        int lo = x0[jA];
        float a = 0f;
        float b = 0f;
        int j = jA;
        for (; j < jB && x0[j] < last; j++) {
            int left = x0[j];
            sums[lo + base] = a;
            sums[lo + base + 1] = b;
            boolean same = left == lo;
            boolean next = left == lo + 1;
            float v = g[gAt + j - jA];
            a = (same ? a : next ? b : 0f) + w0[j] * v;
            b = (same ? b : 0f) + w1[j] * v;
            lo = left;
        }
        // Positions past the last input: both taps are the last input, the left term first.
        for (; j < jB; j++) {
            sums[lo + base] = a;
            sums[lo + base + 1] = b;
            boolean same = last == lo;
            boolean next = last == lo + 1;
            float v = g[gAt + j - jA];
            a = ((same ? a : next ? b : 0f) + w0[j] * v) + w1[j] * v;
            b = 0f;
            lo = last;
        }
        sums[lo + base] = a;
        sums[lo + base + 1] = b;
    }

    /** Stores each row's two open sums, of inputs at slots k and k + 1. */
    private static void store(float[] sums, int sp, int k, float a0, float b0, float a1, float b1, float a2, float b2,
                              float a3, float b3) {
        sums[k] = a0;
        sums[k + 1] = b0;
        sums[sp + k] = a1;
        sums[sp + k + 1] = b1;
        sums[2 * sp + k] = a2;
        sums[2 * sp + k + 1] = b2;
        sums[3 * sp + k] = a3;
        sums[3 * sp + k + 1] = b3;
    }
}
