package io.opscv.testing;

/**
 * A float64 reference of SPEC §1 for tests: plain loops, scatter form for the backward, independent
 * of the library's tables and kernels. The 2-D functions apply §1 to each axis with its own scale;
 * an axis whose sizes are equal is the identity.
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

    /** Forward: self (rows, lin) -> out (rows, lout). Copies when lin == lout. */
    public static double[] linear1dForward(double[] self, int rows, int lin, int lout, boolean alignCorners, double scales) {
        double[] out = new double[rows * lout];
        Axis a = Axis.of(lin, lout, alignCorners, scales);
        for (int r = 0; r < rows; r++) {
            for (int j = 0; j < lout; j++) {
                out[r * lout + j] = a.l0[j] * self[r * lin + a.x0[j]] + a.l1[j] * self[r * lin + a.x1[j]];
            }
        }
        return out;
    }

    /**
     * 2-D backward (PyTorch's {@code upsample_bilinear2d_backward}): gradOut (planes, hout, wout) ->
     * (planes, hin, win), every gradOut element scattered to its four taps with weight λh·λw.
     */
    public static double[] bilinear2dBackward(double[] gradOut, int planes, int hin, int win, int hout, int wout,
                                              boolean alignCorners, double scalesH, double scalesW) {
        Axis h = Axis.of(hin, hout, alignCorners, scalesH);
        Axis w = Axis.of(win, wout, alignCorners, scalesW);
        double[] out = new double[planes * hin * win];
        for (int p = 0; p < planes; p++) {
            for (int y = 0; y < hout; y++) {
                for (int x = 0; x < wout; x++) {
                    double g = gradOut[(p * hout + y) * wout + x];
                    int base = p * hin * win;
                    out[base + h.x0[y] * win + w.x0[x]] += h.l0[y] * w.l0[x] * g;
                    out[base + h.x0[y] * win + w.x1[x]] += h.l0[y] * w.l1[x] * g;
                    out[base + h.x1[y] * win + w.x0[x]] += h.l1[y] * w.l0[x] * g;
                    out[base + h.x1[y] * win + w.x1[x]] += h.l1[y] * w.l1[x] * g;
                }
            }
        }
        return out;
    }

    /** 2-D forward (PyTorch's {@code upsample_bilinear2d}): self (planes, hin, win) -> (planes, hout, wout). */
    public static double[] bilinear2dForward(double[] self, int planes, int hin, int win, int hout, int wout,
                                             boolean alignCorners, double scalesH, double scalesW) {
        Axis h = Axis.of(hin, hout, alignCorners, scalesH);
        Axis w = Axis.of(win, wout, alignCorners, scalesW);
        double[] out = new double[planes * hout * wout];
        for (int p = 0; p < planes; p++) {
            int base = p * hin * win;
            for (int y = 0; y < hout; y++) {
                for (int x = 0; x < wout; x++) {
                    double top = w.l0[x] * self[base + h.x0[y] * win + w.x0[x]] + w.l1[x] * self[base + h.x0[y] * win + w.x1[x]];
                    double bottom = w.l0[x] * self[base + h.x1[y] * win + w.x0[x]] + w.l1[x] * self[base + h.x1[y] * win + w.x1[x]];
                    out[(p * hout + y) * wout + x] = h.l0[y] * top + h.l1[y] * bottom;
                }
            }
        }
        return out;
    }

    /**
     * Backward with TensorFlow's coordinates from the sizes only (the fallback's
     * ResizeBilinearV2Grad5Hd, SPEC §6): source (j + 0.5)·in/out − 0.5 (j·(in − 1)/(out − 1) with
     * alignCorners), not clamped; taps max(floor, 0) and min(ceil, in − 1); weights 1 − lerp and
     * lerp with lerp = source − floor(source). Copies when lin == lout.
     */
    public static double[] halfPixelLinear1dBackward(double[] gradOut, int rows, int lin, int lout, boolean alignCorners) {
        double[] out = new double[rows * lin];
        if (lin == lout) {
            System.arraycopy(gradOut, 0, out, 0, out.length);
            return out;
        }
        double scale = alignCorners && lout > 1 ? (lin - 1.0) / (lout - 1.0) : (double) lin / lout;
        for (int r = 0; r < rows; r++) {
            for (int j = 0; j < lout; j++) {
                double src = alignCorners ? j * scale : (j + 0.5) * scale - 0.5;
                int top = (int) Math.max(Math.floor(src), 0);
                int bottom = (int) Math.min(Math.ceil(src), lin - 1);
                double lerp = src - Math.floor(src);
                double g = gradOut[r * lout + j];
                out[r * lin + top] += (1.0 - lerp) * g;
                out[r * lin + bottom] += lerp * g;
            }
        }
        return out;
    }

    /** The public golden set's bound on the terms one element sums along an axis: ceil(out / in) + 2. */
    public static int axisTerms(int in, int out) {
        return Math.ceilDiv(out, in) + 2;
    }

    /** Absolute values, for the criterion's bound B (the operator applied to |input|). */
    public static double[] abs(double[] values) {
        double[] a = new double[values.length];
        for (int k = 0; k < a.length; k++) {
            a[k] = Math.abs(values[k]);
        }
        return a;
    }

    /** SPEC §1 along one axis, in double: taps x0, x1 and weights λ0, λ1 of every output position. */
    private record Axis(int[] x0, int[] x1, double[] l0, double[] l1) {
        static Axis of(int lin, int lout, boolean alignCorners, double scales) {
            int[] x0 = new int[lout];
            int[] x1 = new int[lout];
            double[] l0 = new double[lout];
            double[] l1 = new double[lout];
            double scale = alignCorners ? (lout > 1 ? (lin - 1.0) / (lout - 1.0) : 0.0)
                    : (scales > 0 ? 1.0 / scales : (double) lin / lout);
            for (int j = 0; j < lout; j++) {
                if (lin == lout) {
                    x0[j] = j;
                    x1[j] = j;
                    l0[j] = 1.0;
                    continue;
                }
                double src = alignCorners ? scale * j : Math.max(0.0, scale * (j + 0.5) - 0.5);
                x0[j] = (int) Math.min(Math.floor(src), lin - 1);
                x1[j] = x0[j] < lin - 1 ? x0[j] + 1 : x0[j];
                l1[j] = Math.min(Math.max(src - x0[j], 0.0), 1.0);
                l0[j] = 1.0 - l1[j];
            }
            return new Axis(x0, x1, l0, l1);
        }
    }
}
