package io.opscv.verify;

/**
 * The outcome of one case, with the numbers behind it.
 *
 * @param checkCase      the case
 * @param verdict        the outcome
 * @param judged         what was judged: {@code operator}, {@code actual} (a file produced elsewhere) or {@code status}
 * @param golden         what it was judged against: {@code expected file}, {@code float64 reference} or the
 *                       {@code sizes-only reference (SPEC §6 fallback)}
 * @param elements       output elements compared
 * @param terms          the criterion's terms
 * @param maxErrorRatio  the largest per-element |got − e| / allowed (≤ 1 passes the criterion); NaN when not judged
 * @param worstElement   the row-major index of that element, or −1
 * @param worstGot       the result at that element
 * @param worstExpected  the expected value at that element
 * @param mere           the upstream mean relative error; NaN when not judged
 * @param mare           the upstream max relative error; NaN when not judged
 * @param allOnes        whether the input was all ones (the upstream standard then decides too)
 * @param criterionPass  whether every element met the per-element criterion
 * @param upstreamPass   whether {@code MERE < T} and {@code MARE < 10·T}
 * @param workspaceSize  the workspace phase 1 asked for, or −1 when the operator did not run
 * @param message        why a case did not pass, or a note; empty when there is nothing to say
 * @param withScales     for a result judged against the sizes-only golden: its verdict against SPEC §1's golden with
 *                       the given scales (the expected file or the float64 reference); else {@code null}
 */
public record CaseResult(CheckCase checkCase, Verdict verdict, String judged, String golden, long elements, int terms,
                         double maxErrorRatio, long worstElement, double worstGot, double worstExpected, double mere, double mare,
                         boolean allOnes, boolean criterionPass, boolean upstreamPass, long workspaceSize, String message,
                         Verdict withScales) {

    /** A case that was not judged numerically: skipped, a status check, or an error. */
    static CaseResult unjudged(CheckCase c, Verdict verdict, String judged, String message) {
        return new CaseResult(c, verdict, judged, "", 0, 0, Double.NaN, -1, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                false, false, false, -1, message, null);
    }

    /** This result with {@code withScales} set and {@code note} added to its message. */
    CaseResult withScales(Verdict withScales, String note) {
        return new CaseResult(checkCase, verdict, judged, golden, elements, terms, maxErrorRatio, worstElement, worstGot,
                worstExpected, mere, mare, allOnes, criterionPass, upstreamPass, workspaceSize,
                message.isEmpty() ? note : message + "; " + note, withScales);
    }

    /** The upstream threshold T of the case's dtype. */
    public double threshold() {
        return UpstreamStandard.threshold(checkCase.dataType());
    }

    /** The {@code golden} of a result of SPEC §6's fallback plan, judged against {@link HalfPixelReference}. */
    public static final String SIZES_ONLY_GOLDEN = "sizes-only reference (SPEC §6 fallback)";

    /** Whether the golden was the sizes-only reference of SPEC §6's fallback plan. */
    public boolean sizesOnlyGolden() {
        return SIZES_ONLY_GOLDEN.equals(golden);
    }

    /**
     * The largest ratio of an error to the limit that decides the verdict: the max error ratio where the per-element
     * criterion decides, max(MERE / T, MARE / 10·T) where the upstream standard does, the larger where both do. At
     * most 1 for a pass and above 1 for a failure, so that a chart of it agrees with the verdicts; NaN when not judged.
     */
    public double decidingRatio() {
        Standard standard = checkCase.standard();
        double upstream = Math.max(mere / threshold(), mare / (10 * threshold()));
        boolean criterion = Judgement.criterionDecides(standard);
        boolean bm = Judgement.upstreamDecides(standard, allOnes);
        return criterion && bm ? Math.max(maxErrorRatio, upstream) : bm ? upstream : maxErrorRatio;
    }

    /** Whether numbers were computed (false for skipped, refused, status and error cases). */
    public boolean judgedNumerically() {
        return !Double.isNaN(maxErrorRatio);
    }
}
