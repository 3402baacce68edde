package io.opscv.kernel;

/** The reference implementation of {@link KernelProvider}: plain loops, the canonical order by construction. */
final class ScalarKernelProvider implements KernelProvider {

    @Override
    public String name() {
        return "scalar";
    }

    @Override
    public void linearBackward(LinearTable t, int i0, int i1, int rows, float[] g, int gOffset, int gRowStride,
                               float[] acc, int accOffset, int accRowStride, float[] work) {
        final int[] bounds = t.bounds;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final int last = t.lin() - 1;
        final int jLo = t.gatherFrom(i0);
        for (int r = 0; r < rows; r++) {
            // g[gj + j] holds position j of row r.
            final int gj = gOffset + r * gRowStride - jLo;
            final int a = accOffset + r * accRowStride - i0;
            for (int i = i0; i < i1; i++) {
                float sum = 0f;
                // Outputs whose left tap is i - 1 reach i through their right tap.
                for (int j = bounds[i], end = bounds[i + 1]; j < end; j++) {
                    sum += w1[j] * g[gj + j];
                }
                int end = bounds[i + 2];
                if (i == last) {
                    // At the right edge both taps are i: left term, then right term, per j.
                    for (int j = bounds[i + 1]; j < end; j++) {
                        float v = g[gj + j];
                        sum += w0[j] * v;
                        sum += w1[j] * v;
                    }
                } else {
                    for (int j = bounds[i + 1]; j < end; j++) {
                        sum += w0[j] * g[gj + j];
                    }
                }
                acc[a + i] = sum;
            }
        }
    }

    /**
     * {@link KernelProvider#linearBackwardSideBySide} for rows {@code fromRow <= r < rows}: plain
     * loops, the canonical order by construction.
     */
    static void sideBySide(LinearTable t, int i0, int i1, int rows, int fromRow, float[] g, float[] acc, int accOffset,
                           int accRowStride) {
        final int[] bounds = t.bounds;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final int last = t.lin() - 1;
        final int jLo = t.gatherFrom(i0);
        for (int r = fromRow; r < rows; r++) {
            for (int i = i0; i < i1; i++) {
                float sum = 0f;
                for (int j = bounds[i], end = bounds[i + 1]; j < end; j++) {
                    sum += w1[j] * g[(j - jLo) * rows + r];
                }
                for (int j = bounds[i + 1], end = bounds[i + 2]; j < end; j++) {
                    float v = g[(j - jLo) * rows + r];
                    sum += w0[j] * v;
                    if (i == last) {
                        // At the right edge both taps are i: left term, then right term, per j.
                        sum += w1[j] * v;
                    }
                }
                acc[accOffset + r * accRowStride + (i - i0)] = sum;
            }
        }
    }

    @Override
    public void linearForward(LinearTable t, float[] x, int xBase, float[] y, int j0, int j1) {
        final int[] x0 = t.x0;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final int last = t.lin() - 1;
        for (int j = j0; j < j1; j++) {
            int left = x0[j];
            int right = left < last ? left + 1 : left;
            y[j - j0] = w0[j] * x[left - xBase] + w1[j] * x[right - xBase];
        }
    }
}
