package io.opscv.kernel;

import io.opscv.runtime.DataType;
import java.lang.foreign.MemorySegment;

/**
 * The 1-D backward of a downsampling by 3 or more of long rows, {@link #ROWS} rows at a time: a block of
 * out is summed in a small tile by the reference's own loop (a scatter over ascending positions, each
 * position's left term before its right term, from +0), then written in one run per row. Rows in lanes
 * would stream {@code 2·lanes} rows at once and stage, transpose and sum every input of a block, most of
 * which receive one term or none at these ratios; here four rows stream together, each position costs its
 * two terms per row, and each input a zero and a store. The sums are the reference's in its order, so the
 * bits are the same.
 *
 * <p>Tasks are runs of consecutive blocks in (row, block) order, so every output element belongs to one
 * task and the result does not depend on the thread count.
 */
final class ScatterBackward {
    /** Inputs per block: the block's sums and its positions stay in L1. */
    static final int BLOCK_INPUTS = 4096;
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
        long stride = gradOut.strides()[2];
        return t.lin() >= (long) MIN_RATIO * t.lout() && t.lin() >= MIN_INPUTS && stride >= 0 && stride <= MAX_STRIDE;
    }

    static void run(StridedTensor gradOut, StridedTensor out, LinearTable t, KernelProvider provider,
                    WorkerPool pool) {
        int lin = t.lin();
        int blocks = (lin + BLOCK_INPUTS - 1) / BLOCK_INPUTS;
        long rows = out.shape()[0] * out.shape()[1];
        forEachUnit(out, lin, t.lout(), blocks, pool, () -> new Scratch(lin),
                (u0, u1, s) -> units(gradOut, out, t, provider, rows, blocks, u0, u1, s));
    }

    /** A task's units {@code [u0, u1)} on a thread's scratch. */
    interface Units<S> {
        void run(long u0, long u1, S scratch);
    }

    /**
     * Cuts out's rows, {@link #ROWS} at a time, times {@code blocks} blocks of each into units, unit
     * {@code set·blocks + block}, and runs them as tasks of consecutive units over {@code pool}, each
     * thread with a scratch of its own. Every output element belongs to one unit.
     */
    static <S> void forEachUnit(StridedTensor out, int lin, int lout, int blocks, WorkerPool pool,
                                java.util.function.Supplier<S> scratch, Units<S> body) {
        long rows = out.shape()[0] * out.shape()[1];
        if (rows == 0) {
            return;
        }
        long units = (rows + ROWS - 1) / ROWS * blocks;
        long perUnit = Math.max(1, ROWS * ((long) lin + lout) / blocks);
        long byWork = Math.max(1, TASK_ELEMENTS / perUnit);
        long bySpread = Math.max(1, units / ((long) pool.parallelism() * TASKS_PER_THREAD));
        long perTask = Math.max(Math.min(byWork, bySpread), (units + Integer.MAX_VALUE - 1) / Integer.MAX_VALUE);
        int tasks = Math.toIntExact((units + perTask - 1) / perTask);
        Object[] scratches = new Object[pool.parallelism()];
        WorkerPool.Task task = (k, slot) -> {
            @SuppressWarnings("unchecked")
            S s = (S) scratches[slot];
            if (s == null) {
                s = scratch.get();
                scratches[slot] = s;
            }
            long u0 = k * perTask;
            body.run(u0, Math.min(units, u0 + perTask), s);
        };
        if (tasks == 1 || pool.parallelism() == 1) {
            for (int k = 0; k < tasks; k++) {
                task.run(k, 0);
            }
        } else {
            pool.forEach(tasks, task);
        }
    }

    /** One thread's tiles: a block's sums and the gradOut positions it reads, for {@link #ROWS} rows. */
    private static final class Scratch {
        final int sumsPitch;
        final float[] sums;
        int gPitch;
        float[] g;
        final long[] gStart = new long[ROWS];
        final long[] oStart = new long[ROWS];

        Scratch(int lin) {
            sumsPitch = Math.min(lin, BLOCK_INPUTS) + 2;
            sums = new float[ROWS * sumsPitch];
            // A block of a downsampling reads fewer positions than it has inputs, plus the two at its ends.
            gPitch = sumsPitch;
            g = new float[ROWS * gPitch];
        }
    }

    private static void units(StridedTensor gradOut, StridedTensor out, LinearTable t, KernelProvider provider,
                              long rows, int blocks, long u0, long u1, Scratch s) {
        long channels = out.shape()[1];
        long[] sg = gradOut.strides();
        long[] so = out.strides();
        MemorySegment gSeg = gradOut.segment();
        DataType gType = gradOut.dataType();
        MemorySegment oSeg = out.segment();
        DataType oType = out.dataType();
        int lin = t.lin();
        for (long u = u0; u < u1; u++) {
            long r0 = u / blocks * ROWS;
            int valid = (int) Math.min(ROWS, rows - r0);
            int i0 = (int) (u % blocks) * BLOCK_INPUTS;
            int i1 = Math.min(lin, i0 + BLOCK_INPUTS);
            for (int k = 0; k < valid; k++) {
                long n = (r0 + k) / channels;
                long c = (r0 + k) % channels;
                s.gStart[k] = gradOut.offset() + n * sg[0] + c * sg[1];
                s.oStart[k] = out.offset() + n * so[0] + c * so[1];
            }
            int jA = t.gatherFrom(i0);
            int jB = t.gatherTo(i1);
            if (jB - jA > s.gPitch) {
                // Scales that place positions closer than their inputs: more positions than inputs per block.
                s.gPitch = jB - jA;
                s.g = new float[ROWS * s.gPitch];
            }
            for (int k = 0; k < valid; k++) {
                if (sg[2] == 1) {
                    provider.decodeRun(gSeg, gType, s.gStart[k] + jA, jB - jA, s.g, k * s.gPitch);
                } else {
                    ElementCodec.decode(gSeg, gType, s.gStart[k] + jA * sg[2], sg[2], jB - jA, s.g, k * s.gPitch);
                }
            }
            // Lanes past the last row sum whatever their tiles hold, and are not written.
            sum(t, i0, i1, jA, jB, s.g, s.gPitch, s.sums, s.sumsPitch);
            for (int k = 0; k < valid; k++) {
                if (so[2] == 1) {
                    provider.encodeRun(s.sums, k * s.sumsPitch + 1, i1 - i0, oSeg, oType, s.oStart[k] + i0);
                } else {
                    ElementCodec.encode(s.sums, k * s.sumsPitch + 1, i1 - i0, oSeg, oType, s.oStart[k] + i0 * so[2],
                            so[2]);
                }
            }
        }
    }

    /**
     * The sums of inputs [i0, i1) of {@link #ROWS} rows from positions [jA, jB) ({@code g[k·gp + j - jA]})
     * into {@code sums[k·sp + 1 + i - i0]}: from +0 in ascending j, each position's left term before its
     * right term (the reference's scatter, cut to the block). The sums of a position's two taps stay in registers while x0 stays or steps by one, and are
     * stored at every position (the last store is the final value), so no sum waits on a store of the last.
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
