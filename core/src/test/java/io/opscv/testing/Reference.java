package io.opscv.testing;

/**
 * A float64 reference of SPEC §1 for tests: plain loops, scatter form, independent of the library's
 * tables and kernels.
 */
public final class Reference {
    private Reference() {}

    /** How many terms each input element of a row sums in the backward (for the criterion's {@code terms}). */
    public static int maxTerms(int lin, int lout, boolean alignCorners, double scales) {
        if (lin == lout) {
            return 1;
        }
        double[] ones = new double[lout];
        java.util.Arrays.fill(ones, 1.0);
        int[] count = new int[lin];
        double scale = alignCorners ? (lout > 1 ? (lin - 1.0) / (lout - 1.0) : 0.0)
                : (scales > 0 ? 1.0 / scales : (double) lin / lout);
        for (int j = 0; j < lout; j++) {
            double src = alignCorners ? scale * j : Math.max(0.0, scale * (j + 0.5) - 0.5);
            int x0 = (int) Math.min(Math.floor(src), lin - 1);
            count[x0]++;
            count[x0 < lin - 1 ? x0 + 1 : x0]++;
        }
        int max = 0;
        for (int c : count) {
            max = Math.max(max, c);
        }
        return max;
    }

    /** Backward: gradOut (rows, lout) -> gradInput (rows, lin). Copies when lin == lout. */
    public static double[] linear1dBackward(double[] gradOut, int rows, int lin, int lout, boolean alignCorners, double scales) {
        double[] out = new double[rows * lin];
        if (lin == lout) {
            System.arraycopy(gradOut, 0, out, 0, out.length);
            return out;
        }
        double scale = alignCorners ? (lout > 1 ? (lin - 1.0) / (lout - 1.0) : 0.0)
                : (scales > 0 ? 1.0 / scales : (double) lin / lout);
        for (int r = 0; r < rows; r++) {
            for (int j = 0; j < lout; j++) {
                double src = alignCorners ? scale * j : Math.max(0.0, scale * (j + 0.5) - 0.5);
                int x0 = (int) Math.min(Math.floor(src), lin - 1);
                int x1 = x0 < lin - 1 ? x0 + 1 : x0;
                double l1 = Math.min(Math.max(src - x0, 0.0), 1.0);
                double l0 = 1.0 - l1;
                double g = gradOut[r * lout + j];
                out[r * lin + x0] += l0 * g;
                out[r * lin + x1] += l1 * g;
            }
        }
        return out;
    }
}
