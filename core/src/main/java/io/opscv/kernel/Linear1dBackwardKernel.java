package io.opscv.kernel;

/**
 * The fused backward of 1-D linear interpolation (SPEC §1): reads gradOut (N, C, Lout) with any
 * strides, writes out (N, C, Lin) with any strides, in one pass, accumulating in float and rounding
 * once to the output dtype.
 *
 * <p>Each row is processed in blocks of {@link #BLOCK} inputs: the gradOut positions the block
 * gathers from are decoded into a float buffer, the provider sums them in the canonical order, and
 * the sums are encoded into out. Blocks are independent, so their results do not depend on how
 * they are scheduled.
 */
public final class Linear1dBackwardKernel {
    /** Inputs per block. */
    static final int BLOCK = 4096;

    private Linear1dBackwardKernel() {}

    public static void run(StridedTensor gradOut, StridedTensor out, LinearTable table) {
        run(gradOut, out, table, KernelProviders.get());
    }

    public static void run(StridedTensor gradOut, StridedTensor out, LinearTable table, KernelProvider provider) {
        long n = out.shape()[0];
        long c = out.shape()[1];
        int lin = table.lin();
        int block = Math.min(BLOCK, lin);
        int span = 0;
        for (int i0 = 0; i0 < lin; i0 += block) {
            int i1 = Math.min(lin, i0 + block);
            span = Math.max(span, table.gatherTo(i1) - table.gatherFrom(i0));
        }
        float[] g = new float[Math.max(span, 1)];
        float[] acc = new float[block];
        long[] gs = gradOut.strides();
        long[] os = out.strides();
        for (long row = 0, rows = n * c; row < rows; row++) {
            long ni = row / c;
            long ci = row % c;
            long gBase = gradOut.offset() + ni * gs[0] + ci * gs[1];
            long oBase = out.offset() + ni * os[0] + ci * os[1];
            for (int i0 = 0; i0 < lin; i0 += block) {
                int i1 = Math.min(lin, i0 + block);
                int jLo = table.gatherFrom(i0);
                int jHi = table.gatherTo(i1);
                ElementCodec.decode(gradOut.segment(), gradOut.dataType(), gBase + jLo * gs[2], gs[2], jHi - jLo, g, 0);
                provider.linearBackward(table, g, jLo, acc, i0, i1);
                ElementCodec.encode(acc, 0, i1 - i0, out.segment(), out.dataType(), oBase + (long) i0 * os[2], os[2]);
            }
        }
    }
}
