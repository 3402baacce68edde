package io.opscv.verify;

import io.opscv.runtime.DataType;

/**
 * Judges a result against its golden, element by element: the per-element criterion
 * ({@link ElementCriterion}) and the upstream MERE/MARE standard ({@link UpstreamStandard}), combined
 * as the case's {@link Standard} says.
 */
final class Judgement {
    private Judgement() {}

    /** Whether the upstream MERE/MARE standard takes part in the verdict. */
    static boolean upstreamDecides(Standard standard, boolean allOnes) {
        return standard == Standard.UPSTREAM || standard == Standard.BOTH || (standard == Standard.AUTO && allOnes);
    }

    /** Whether the per-element criterion takes part in the verdict. */
    static boolean criterionDecides(Standard standard) {
        return standard != Standard.UPSTREAM;
    }

    /**
     * @param got      the result, widened to float64, row-major
     * @param expected the golden, same length
     * @param bound    the golden of |input|, same length
     * @param allOnes  whether the input was all ones
     */
    static CaseResult judge(CheckCase c, String judged, String golden, double[] got, double[] expected, double[] bound, int terms,
                            boolean allOnes, long workspaceSize) {
        if (got.length != expected.length || bound.length != expected.length) {
            throw new IllegalArgumentException("result (" + got.length + "), expected (" + expected.length + ") and bound ("
                    + bound.length + ") must have the same number of elements");
        }
        DataType type = c.dataType();
        double maxRatio = 0.0;
        long worst = expected.length > 0 ? 0 : -1;
        double sumRe = 0.0;
        double mare = 0.0;
        for (int k = 0; k < expected.length; k++) {
            double ratio = ElementCriterion.errorRatio(got[k], expected[k], bound[k], terms, type);
            if (Double.isNaN(ratio)) {
                ratio = Double.POSITIVE_INFINITY; // a NaN bound from a bad bound file must not pass silently
            }
            if (ratio > maxRatio) {
                maxRatio = ratio;
                worst = k;
            }
            double re = UpstreamStandard.relativeError(got[k], expected[k]);
            sumRe += re;
            mare = Math.max(mare, re);
        }
        double mere = expected.length > 0 ? sumRe / expected.length : 0.0;
        boolean criterionPass = maxRatio <= 1.0;
        boolean upstreamPass = UpstreamStandard.passes(mere, mare, type);
        boolean pass = switch (c.standard()) {
            case AUTO -> criterionPass && (!allOnes || upstreamPass);
            case ELEMENT -> criterionPass;
            case UPSTREAM -> upstreamPass;
            case BOTH -> criterionPass && upstreamPass;
        };
        String message = "";
        if (!pass) {
            StringBuilder why = new StringBuilder();
            boolean criterionDecides = criterionDecides(c.standard());
            boolean upstreamDecides = upstreamDecides(c.standard(), allOnes);
            if (criterionDecides && !criterionPass) {
                int w = (int) worst;
                why.append("element ").append(w).append(": got ").append(got[w]).append(", expected ").append(expected[w])
                        .append(" (bound ").append(bound[w]).append(", allowed error ")
                        .append(ElementCriterion.allowedError(expected[w], bound[w], terms, type))
                        .append(", error ratio ").append(maxRatio).append(')');
            }
            if (upstreamDecides && !upstreamPass) {
                if (!why.isEmpty()) {
                    why.append("; ");
                }
                double t = UpstreamStandard.threshold(type);
                why.append("MERE ").append(mere).append(" (limit ").append(t).append("), MARE ").append(mare)
                        .append(" (limit ").append(10 * t).append(')');
            }
            message = why.toString();
        }
        double worstGot = worst >= 0 ? got[(int) worst] : Double.NaN;
        double worstExpected = worst >= 0 ? expected[(int) worst] : Double.NaN;
        return new CaseResult(c, pass ? Verdict.PASS : Verdict.FAIL, judged, golden, expected.length, terms, maxRatio, worst,
                worstGot, worstExpected, mere, mare, allOnes, criterionPass, upstreamPass, workspaceSize, message, null);
    }
}
