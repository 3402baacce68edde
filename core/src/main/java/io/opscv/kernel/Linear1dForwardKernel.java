package io.opscv.kernel;

/**
 * Forward 1-D linear interpolation (SPEC §1, {@code aclnnUpsampleLinear1d}): self (N, C, Lin) with
 * any strides → out (N, C, Lout) with any strides, float arithmetic, one rounding to the output dtype.
 *
 * <p>Each row is processed in blocks of {@link #BLOCK} outputs: the input span the block reads is
 * decoded into a float buffer, the provider interpolates, and the block is encoded into out. An
 * identity table (Lin = Lout) copies.
 */
public final class Linear1dForwardKernel {
    /** Outputs per block. */
    static final int BLOCK = 4096;

    private Linear1dForwardKernel() {}

    public static void run(StridedTensor self, StridedTensor out, LinearTable table) {
        run(self, out, table, KernelProviders.get());
    }

    public static void run(StridedTensor self, StridedTensor out, LinearTable table, KernelProvider provider) {
        long n = out.shape()[0];
        long c = out.shape()[1];
        int lout = table.lout();
        int block = Math.min(BLOCK, lout);
        int span = 0;
        for (int j0 = 0; j0 < lout; j0 += block) {
            int j1 = Math.min(lout, j0 + block);
            span = Math.max(span, spanEnd(table, j1) - table.x0(j0));
        }
        float[] x = new float[Math.max(span, 1)];
        float[] y = new float[block];
        long[] ss = self.strides();
        long[] os = out.strides();
        for (long row = 0, rows = n * c; row < rows; row++) {
            long ni = row / c;
            long ci = row % c;
            long sBase = self.offset() + ni * ss[0] + ci * ss[1];
            long oBase = out.offset() + ni * os[0] + ci * os[1];
            for (int j0 = 0; j0 < lout; j0 += block) {
                int j1 = Math.min(lout, j0 + block);
                int first = table.x0(j0);
                int end = spanEnd(table, j1);
                if (table.identity()) {
                    ElementCodec.decode(self.segment(), self.dataType(), sBase + (long) j0 * ss[2], ss[2], j1 - j0, y, 0);
                } else {
                    ElementCodec.decode(self.segment(), self.dataType(), sBase + (long) first * ss[2], ss[2], end - first, x, 0);
                    provider.linearForward(table, x, first, y, j0, j1);
                }
                ElementCodec.encode(y, 0, j1 - j0, out.segment(), out.dataType(), oBase + (long) j0 * os[2], os[2]);
            }
        }
    }

    /** One past the last input position outputs [.., j1) read. */
    private static int spanEnd(LinearTable table, int j1) {
        return table.x1(j1 - 1) + 1;
    }
}
