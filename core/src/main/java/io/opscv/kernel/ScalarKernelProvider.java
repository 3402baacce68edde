package io.opscv.kernel;

/**
 * The reference implementation of {@link KernelProvider}: plain loops, one lane, the canonical order
 * by construction.
 */
final class ScalarKernelProvider implements KernelProvider {

    @Override
    public String name() {
        return "scalar";
    }

    @Override
    public int lanes() {
        return 1;
    }

    @Override
    public void sumLanes(LinearTable t, int i0, int i1, int jFrom, int jTo, float[] g, int jBase, float[] sums,
                         int iBase) {
        final int[] bounds = t.bounds;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final int last = t.lin() - 1;
        for (int i = i0; i < i1; i++) {
            float sum = sums[i - iBase];
            // Outputs whose left tap is i - 1 reach i through their right tap; they come first.
            for (int j = Math.max(bounds[i], jFrom), end = Math.min(bounds[i + 1], jTo); j < end; j++) {
                sum += w1[j] * g[j - jBase];
            }
            int end = Math.min(bounds[i + 2], jTo);
            if (i == last) {
                // At the right edge both taps are i: left term, then right term, per j.
                for (int j = Math.max(bounds[i + 1], jFrom); j < end; j++) {
                    float v = g[j - jBase];
                    sum += w0[j] * v;
                    sum += w1[j] * v;
                }
            } else {
                for (int j = Math.max(bounds[i + 1], jFrom); j < end; j++) {
                    sum += w0[j] * g[j - jBase];
                }
            }
            sums[i - iBase] = sum;
        }
    }

    @Override
    public void interpolateLanes(LinearTable t, int j0, int j1, float[] x, int xBase, float[] y) {
        final int last = t.lin() - 1;
        for (int j = j0; j < j1; j++) {
            int left = t.x0[j];
            int right = left < last ? left + 1 : left;
            y[j - j0] = t.w0[j] * x[left - xBase] + t.w1[j] * x[right - xBase];
        }
    }

    @Override
    public void toLanes(float[] rows, int rowsAt, int rowStride, int count, float[] lanes, int at, float[] spare) {
        System.arraycopy(rows, rowsAt, lanes, at, count);
    }

    @Override
    public void fromLanes(float[] lanes, int at, int count, float[] rows, int rowsAt, int rowStride, float[] spare) {
        System.arraycopy(lanes, at, rows, rowsAt, count);
    }

    /** {@link KernelProvider#linearForward}: two terms per output, left then right, into {@code y[j - yBase]}. */
    static void forward(LinearTable table, float[] x, int xBase, float[] y, int j0, int j1, int yBase) {
        final LinearTable t = table.full();
        final int[] x0 = t.x0;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final int last = t.lin() - 1;
        for (int j = j0; j < j1; j++) {
            int left = x0[j];
            int right = left < last ? left + 1 : left;
            y[j - yBase] = w0[j] * x[left - xBase] + w1[j] * x[right - xBase];
        }
    }

    /**
     * {@link KernelProvider#interpolateRow}: two terms per element, left then right, the taps of e's place in its
     * period.
     */
    static void interpolateRowScalar(RowTaps taps, int e0, int e1, float[] x, int xBase, float[] y, int yBase) {
        final int[] left = taps.left;
        final int[] right = taps.right;
        final float[] w0 = taps.w0;
        final float[] w1 = taps.w1;
        for (int e = e0; e < e1; e++) {
            int p = e % taps.period;
            int base = e / taps.period * taps.shift - xBase;
            int w = p + e / taps.period * taps.weightStep;
            y[e - yBase] = w0[w] * x[left[p] + base] + w1[w] * x[right[p] + base];
        }
    }

    /** {@link KernelProvider#interpolatePixels}: element by element, left product first. */
    static void interpolatePixelsScalar(LinearTable t, int pix, float[] x, float[] y) {
        for (int j = 0; j < t.lout(); j++) {
            float a = t.w0(j);
            float b = t.w1(j);
            int left = t.x0(j) * pix;
            int right = t.x1(j) * pix;
            for (int c = 0, at = j * pix; c < pix; c++) {
                y[at + c] = a * x[left + c] + b * x[right + c];
            }
        }
    }

    /** {@link KernelProvider#sumPixels}: +0 throughout, then each gradOut pixel's terms in ascending j, left first. */
    static void sumPixelsScalar(LinearTable t, int pix, float[] g, float[] y) {
        java.util.Arrays.fill(y, 0, t.lin() * pix, 0f);
        for (int j = 0; j < t.lout(); j++) {
            float a = t.w0(j);
            float b = t.w1(j);
            int left = t.x0(j) * pix;
            int right = t.x1(j) * pix;
            for (int c = 0, at = j * pix; c < pix; c++) {
                y[left + c] += a * g[at + c];
                y[right + c] += b * g[at + c];
            }
        }
    }

    /** {@link KernelProvider#sumRow}: from +0, slot by slot, each term only where the element has it. */
    static void sumRowScalar(RowSums sums, int e0, int e1, float[] g, int gBase, float[] y, int yBase) {
        for (int e = e0; e < e1; e++) {
            int base = e / sums.period * sums.shift - gBase;
            float sum = 0f;
            for (int q = e % sums.period; q < sums.at.length; q += sums.stride) {
                if (sums.has[q]) {
                    sum += sums.w[q] * g[sums.at[q] + base];
                }
            }
            y[e - yBase] = sum;
        }
    }
}
