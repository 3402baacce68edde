package io.opscv.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.runtime.DataType;
import org.junit.jupiter.api.Test;

/** How the two standards combine into a verdict, and what a verdict reports. */
class JudgementTest {
    @Test
    void theWorstElementIsReportedWithItsNumbers() {
        CheckCase c = TestCases.linear1dBackward("worst", DataType.FLOAT, Standard.AUTO);
        double[] expected = {1.0, 2.0, 4.0};
        double[] got = {1.0, 2.0 + 1e-3, 4.0};
        CaseResult r = Judgement.judge(c, "operator", "float64 reference", got, expected, expected, 2, false, 0);
        assertEquals(Verdict.FAIL, r.verdict());
        assertEquals(1, r.worstElement());
        assertEquals(2.0 + 1e-3, r.worstGot());
        assertEquals(1e-3 / ElementCriterion.allowedError(2.0, 2.0, 2, DataType.FLOAT), r.maxErrorRatio(), 1e-9);
        assertEquals((1e-3 / (2.0 + 1e-7)) / 3, r.mere(), 1e-15);
        assertEquals(1e-3 / (2.0 + 1e-7), r.mare(), 1e-15);
        assertTrue(r.message().startsWith("element 1: got 2.001, expected 2.0 (bound 2.0, allowed error "), r.message());
    }

    @Test
    void allOnesInputsMustAlsoMeetMereAndMare() {
        // A result that meets the per-element criterion everywhere but fails MARE: e tiny relative to B (cancellation
        // cannot happen with all-ones inputs, so this is synthetic: the bound admits the error, |e| does not).
        double[] expected = {1e-3, 1.0};
        double[] bound = {100.0, 1.0};
        double[] got = {1e-3 + 2e-5, 1.0}; // allowed 4 * 2^-24 * 100 + 2^-11 * 1e-3 + 2^-24 = 2.4e-5; re = 0.02 > 10 T
        CheckCase auto = TestCases.linear1dBackward("auto", DataType.FLOAT16, Standard.AUTO);
        CaseResult ones = Judgement.judge(auto, "operator", "float64 reference", got, expected, bound, 2, true, 0);
        assertTrue(ones.criterionPass());
        assertFalse(ones.upstreamPass(), "MARE " + ones.mare());
        assertEquals(Verdict.FAIL, ones.verdict());
        assertTrue(ones.message().contains("MARE"), ones.message());
        // With other inputs the upstream numbers are only reported.
        CaseResult random = Judgement.judge(auto, "operator", "float64 reference", got, expected, bound, 2, false, 0);
        assertEquals(Verdict.PASS, random.verdict());
        // "element" never lets MERE/MARE decide; "upstream" only does.
        CheckCase element = TestCases.linear1dBackward("element", DataType.FLOAT16, Standard.ELEMENT);
        assertEquals(Verdict.PASS, Judgement.judge(element, "operator", "", got, expected, bound, 2, true, 0).verdict());
        CheckCase upstream = TestCases.linear1dBackward("upstream", DataType.FLOAT16, Standard.UPSTREAM);
        assertEquals(Verdict.FAIL, Judgement.judge(upstream, "operator", "", got, expected, bound, 2, false, 0).verdict());
    }

    @Test
    void theUpstreamStandardAloneAcceptsWhatTheCriterionRejects() {
        // A float32 result off by 1e-6 relative: far beyond the criterion, far within MERE/MARE (T = 2^-13).
        double[] expected = {1.0, 2.0};
        double[] got = {1.0 + 1e-6, 2.0};
        CheckCase upstream = TestCases.linear1dBackward("npu", DataType.FLOAT, Standard.UPSTREAM);
        CaseResult r = Judgement.judge(upstream, "actual", "", got, expected, expected, 2, false, -1);
        assertFalse(r.criterionPass());
        assertEquals(Verdict.PASS, r.verdict());
    }

    @Test
    void aNaNBoundCannotLetAnElementPass() {
        CheckCase c = TestCases.linear1dBackward("nan-bound", DataType.FLOAT, Standard.AUTO);
        CaseResult r = Judgement.judge(c, "actual", "expected file", new double[] {5.0}, new double[] {1.0},
                new double[] {Double.NaN}, 2, false, -1);
        assertEquals(Verdict.FAIL, r.verdict());
        assertEquals(Double.POSITIVE_INFINITY, r.maxErrorRatio());
    }

    @Test
    void anEmptyResultPasses() {
        CheckCase c = TestCases.linear1dBackward("empty", DataType.FLOAT, Standard.AUTO);
        CaseResult r = Judgement.judge(c, "operator", "", new double[0], new double[0], new double[0], 0, false, 0);
        assertEquals(Verdict.PASS, r.verdict());
        assertEquals(-1, r.worstElement());
    }
}
