package io.opscv.reference;

/**
 * Float64 reference of bilinear interpolation over the last two axes of an (N, C, H, W) tensor and of
 * its gradient (SPEC §10): {@code aclnnUpsampleBilinear2d} and
 * {@code aclnnUpsampleBilinear2dBackwardV2}. For verification only: plain scalar loops over heap
 * arrays, sharing no code with the kernels or the plans.
 *
 * <p>The H and W axes each follow SPEC §1 with their own scale; the weight of an (h, w) tap is
 * {@code λh · λw}, as in PyTorch's {@code aten::upsample_bilinear2d} and
 * {@code aten::upsample_bilinear2d_backward}. All four taps are applied, including 0-weight ones
 * (0 · Inf = NaN), except along an axis whose input and output lengths are equal: that axis copies
 * (SPEC §1, applied per axis).
 */
public final class Bilinear2dReference {
    private Bilinear2dReference() {}

    /**
     * The forward: {@code y[p, ho, wo] = Σ λh · λw · x[p, h, w]} over the two H taps of {@code ho} and the
     * two W taps of {@code wo}.
     *
     * @param self    (planes, hin, win), row-major; planes = N · C
     * @param scalesH the forward multiplier along H; ≤ 0 means "not given"
     * @param scalesW the forward multiplier along W; ≤ 0 means "not given"
     * @return (planes, hout, wout)
     */
    public static double[] forward(double[] self, int planes, int hin, int win, int hout, int wout, boolean alignCorners,
                                   double scalesH, double scalesW) {
        int inPlane = Linear1dReference.elements(hin, win);
        int outPlane = Linear1dReference.elements(hout, wout);
        Linear1dReference.checkLength(self, planes, inPlane, "self");
        AxisTaps tapsH = AxisTaps.of(hin, hout, alignCorners, scalesH);
        AxisTaps tapsW = AxisTaps.of(win, wout, alignCorners, scalesW);
        double[] out = new double[Linear1dReference.elements(planes, outPlane)];
        for (int p = 0; p < planes; p++) {
            for (int ho = 0; ho < hout; ho++) {
                for (int wo = 0; wo < wout; wo++) {
                    double sum = 0.0;
                    for (int kh = 0; kh < tapsH.tapCount(); kh++) {
                        for (int kw = 0; kw < tapsW.tapCount(); kw++) {
                            double weight = tapsH.weight(ho, kh) * tapsW.weight(wo, kw);
                            sum += weight * self[p * inPlane + tapsH.index(ho, kh) * win + tapsW.index(wo, kw)];
                        }
                    }
                    out[p * outPlane + ho * wout + wo] = sum;
                }
            }
        }
        return out;
    }

    /**
     * The backward (the adjoint of {@link #forward}): every {@code gradOut[p, ho, wo]} adds
     * {@code λh · λw · g} to each of its four taps in gradInput.
     *
     * @param gradOut (planes, hout, wout), row-major
     * @return gradInput, (planes, hin, win)
     */
    public static double[] backward(double[] gradOut, int planes, int hin, int win, int hout, int wout, boolean alignCorners,
                                    double scalesH, double scalesW) {
        int inPlane = Linear1dReference.elements(hin, win);
        int outPlane = Linear1dReference.elements(hout, wout);
        Linear1dReference.checkLength(gradOut, planes, outPlane, "gradOut");
        AxisTaps tapsH = AxisTaps.of(hin, hout, alignCorners, scalesH);
        AxisTaps tapsW = AxisTaps.of(win, wout, alignCorners, scalesW);
        double[] gradInput = new double[Linear1dReference.elements(planes, inPlane)];
        for (int p = 0; p < planes; p++) {
            for (int ho = 0; ho < hout; ho++) {
                for (int wo = 0; wo < wout; wo++) {
                    double g = gradOut[p * outPlane + ho * wout + wo];
                    for (int kh = 0; kh < tapsH.tapCount(); kh++) {
                        for (int kw = 0; kw < tapsW.tapCount(); kw++) {
                            double weight = tapsH.weight(ho, kh) * tapsW.weight(wo, kw);
                            gradInput[p * inPlane + tapsH.index(ho, kh) * win + tapsW.index(wo, kw)] += weight * g;
                        }
                    }
                }
            }
        }
        return gradInput;
    }

    /** The most non-zero terms summed into one element of {@link #forward}'s result (at most 4). */
    public static int forwardTerms(int hin, int win, int hout, int wout, boolean alignCorners, double scalesH, double scalesW) {
        return AxisTaps.of(hin, hout, alignCorners, scalesH).maxGatherTerms()
                * AxisTaps.of(win, wout, alignCorners, scalesW).maxGatherTerms();
    }

    /**
     * The most non-zero terms summed into one element of {@link #backward}'s result: the product of the
     * per-axis counts, since a tap's weight λh · λw is non-zero exactly when both factors are.
     */
    public static int backwardTerms(int hin, int win, int hout, int wout, boolean alignCorners, double scalesH, double scalesW) {
        return AxisTaps.of(hin, hout, alignCorners, scalesH).maxScatterTerms()
                * AxisTaps.of(win, wout, alignCorners, scalesW).maxScatterTerms();
    }
}
