package io.opscv.verify;

/**
 * Float64 reference of the fallback plans' sizes-only kernels (SPEC §6, docs/PLANS.md "The fallback's faithful
 * exception"): TensorFlow's {@code ResizeBilinear} and {@code ResizeBilinearGrad} with
 * {@code halfPixelCenters = !alignCorners}, which upstream's {@code ResizeBilinearV2} and
 * {@code ResizeBilinearV2Grad5Hd} compute from the sizes only, whatever scales was given. Written from
 * TensorFlow's {@code CalculateResizeScale} and {@code compute_interpolation_weights}
 * (tensorflow/core/kernels/image/resize_bilinear_op.cc), without reusing the kernels' {@code HalfPixelTaps}.
 *
 * <p>Along each axis: scale = (in − 1) / (out − 1) with alignCorners and out > 1, else in / out; the source of
 * output j is (j + 0.5)·scale − 0.5 with half-pixel centres, j·scale otherwise, not clamped; its taps are
 * top = max(floor(source), 0) and bottom = min(ceil(source), in − 1) with weights 1 − lerp and lerp,
 * lerp = source − floor(source). Both taps are applied, also when a weight is 0 or top == bottom (so 0 · Inf
 * gives NaN, as the kernels compute it); an axis whose sizes are equal is copied (SPEC §1, per axis). For finite
 * values this is SPEC §1 with scales not given, up to rounding; NaN and ±Inf reach other elements than in
 * PyTorch where PyTorch clamps the source at 0.
 */
final class HalfPixelReference {
    private HalfPixelReference() {}

    /** The forward: self (planes, hin, win) → (planes, hout, wout), row-major. */
    static double[] forward(double[] self, int planes, int hin, int win, int hout, int wout, boolean alignCorners) {
        Axis h = Axis.of(hin, hout, alignCorners);
        Axis w = Axis.of(win, wout, alignCorners);
        double[] out = new double[Math.multiplyExact(planes, hout * wout)];
        for (int p = 0; p < planes; p++) {
            for (int ho = 0; ho < hout; ho++) {
                for (int wo = 0; wo < wout; wo++) {
                    double sum = 0.0;
                    for (int kh = 0; kh < h.taps(); kh++) {
                        for (int kw = 0; kw < w.taps(); kw++) {
                            sum += h.weight(ho, kh) * w.weight(wo, kw) * self[(p * hin + h.index(ho, kh)) * win + w.index(wo, kw)];
                        }
                    }
                    out[(p * hout + ho) * wout + wo] = sum;
                }
            }
        }
        return out;
    }

    /** The backward: gradOut (planes, hout, wout) → gradInput (planes, hin, win), each gradient scattered to its taps. */
    static double[] backward(double[] gradOut, int planes, int hin, int win, int hout, int wout, boolean alignCorners) {
        Axis h = Axis.of(hin, hout, alignCorners);
        Axis w = Axis.of(win, wout, alignCorners);
        double[] gradInput = new double[Math.multiplyExact(planes, hin * win)];
        for (int p = 0; p < planes; p++) {
            for (int ho = 0; ho < hout; ho++) {
                for (int wo = 0; wo < wout; wo++) {
                    double g = gradOut[(p * hout + ho) * wout + wo];
                    for (int kh = 0; kh < h.taps(); kh++) {
                        for (int kw = 0; kw < w.taps(); kw++) {
                            gradInput[(p * hin + h.index(ho, kh)) * win + w.index(wo, kw)] += h.weight(ho, kh) * w.weight(wo, kw) * g;
                        }
                    }
                }
            }
        }
        return gradInput;
    }

    /** The most non-zero terms summed into one element of {@link #forward}'s result. */
    static int forwardTerms(int hin, int win, int hout, int wout, boolean alignCorners) {
        return Axis.of(hin, hout, alignCorners).maxGatherTerms() * Axis.of(win, wout, alignCorners).maxGatherTerms();
    }

    /** The most non-zero terms summed into one element of {@link #backward}'s result. */
    static int backwardTerms(int hin, int win, int hout, int wout, boolean alignCorners) {
        return Axis.of(hin, hout, alignCorners).maxScatterTerms() * Axis.of(win, wout, alignCorners).maxScatterTerms();
    }

    /** One axis: its taps (one on an identity axis, else top and bottom) and their weights per output position. */
    private record Axis(int in, int out, boolean identity, int[] top, int[] bottom, double[] wTop, double[] wBottom) {
        static Axis of(int in, int out, boolean alignCorners) {
            if (in <= 0 || out <= 0) {
                throw new IllegalArgumentException("in (" + in + ") and out (" + out + ") must be > 0");
            }
            int[] top = new int[out];
            int[] bottom = new int[out];
            double[] wTop = new double[out];
            double[] wBottom = new double[out];
            double scale = alignCorners && out > 1 ? (in - 1.0) / (out - 1.0) : (double) in / out;
            for (int j = 0; j < out; j++) {
                double source = alignCorners ? j * scale : (j + 0.5) * scale - 0.5;
                double floor = Math.floor(source);
                top[j] = (int) Math.max(floor, 0);
                bottom[j] = (int) Math.min(Math.ceil(source), in - 1);
                wBottom[j] = source - floor;
                wTop[j] = 1.0 - wBottom[j];
            }
            return new Axis(in, out, in == out, top, bottom, wTop, wBottom);
        }

        int taps() {
            return identity ? 1 : 2;
        }

        int index(int j, int k) {
            return identity ? j : k == 0 ? top[j] : bottom[j];
        }

        double weight(int j, int k) {
            return identity ? 1.0 : k == 0 ? wTop[j] : wBottom[j];
        }

        int maxGatherTerms() {
            int most = 0;
            for (int j = 0; j < out; j++) {
                int count = 0;
                for (int k = 0; k < taps(); k++) {
                    count += weight(j, k) != 0.0 ? 1 : 0;
                }
                most = Math.max(most, count);
            }
            return most;
        }

        int maxScatterTerms() {
            int[] count = new int[in];
            for (int j = 0; j < out; j++) {
                for (int k = 0; k < taps(); k++) {
                    if (weight(j, k) != 0.0) {
                        count[index(j, k)]++;
                    }
                }
            }
            int most = 0;
            for (int c : count) {
                most = Math.max(most, c);
            }
            return most;
        }
    }
}
