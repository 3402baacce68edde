package io.opscv.kernel;

/** The reference implementation of {@link KernelProvider}: plain loops, the canonical order by construction. */
final class ScalarKernelProvider implements KernelProvider {

    @Override
    public String name() {
        return "scalar";
    }

    @Override
    public void linearBackward(LinearTable t, float[] g, int jBase, float[] acc, int i0, int i1) {
        final int[] start = t.start;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final int last = t.lin() - 1;
        for (int i = i0; i < i1; i++) {
            float sum = 0f;
            if (i > 0) {
                // Outputs whose left tap is i - 1 reach i through their right tap.
                for (int j = start[i - 1], end = start[i]; j < end; j++) {
                    sum += w1[j] * g[j - jBase];
                }
            }
            int end = start[i + 1];
            if (i == last) {
                // At the right edge both taps are i: left term, then right term, per j.
                for (int j = start[i]; j < end; j++) {
                    float v = g[j - jBase];
                    sum += w0[j] * v;
                    sum += w1[j] * v;
                }
            } else {
                for (int j = start[i]; j < end; j++) {
                    sum += w0[j] * g[j - jBase];
                }
            }
            acc[i - i0] = sum;
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
