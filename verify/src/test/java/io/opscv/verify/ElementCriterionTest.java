package io.opscv.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.runtime.DataType;
import org.junit.jupiter.api.Test;

/** The per-element criterion of golden/README.md, at and around its limits. */
class ElementCriterionTest {
    private static final double INF = Double.POSITIVE_INFINITY;

    @Test
    void theAllowedErrorIsTheReadmeFormula() {
        // (terms + 2) * 2^-24 * B + 2^-p * |e| + a
        assertEquals(6 * 0x1.0p-24 * 3.0 + 0x1.0p-24 * 2.0 + 0x1.0p-126, ElementCriterion.allowedError(-2.0, 3.0, 4, DataType.FLOAT));
        assertEquals(6 * 0x1.0p-24 * 3.0 + 0x1.0p-11 * 2.0 + 0x1.0p-24, ElementCriterion.allowedError(2.0, 3.0, 4, DataType.FLOAT16));
        assertEquals(2 * 0x1.0p-24 * 1.0 + 0x1.0p-8 * 1.0 + 0x1.0p-126, ElementCriterion.allowedError(1.0, 1.0, 0, DataType.BF16));
    }

    @Test
    void anErrorExactlyAtTheLimitPassesAndJustBeyondFails() {
        double e = 1.5;
        double bound = 2.0;
        int terms = 3;
        for (DataType type : new DataType[] {DataType.FLOAT, DataType.FLOAT16, DataType.BF16}) {
            double allowed = ElementCriterion.allowedError(e, bound, terms, type);
            assertEquals(1.0, ElementCriterion.errorRatio(e + allowed, e, bound, terms, type), 1e-12, type.toString());
            assertTrue(ElementCriterion.errorRatio(e + allowed * 1.01, e, bound, terms, type) > 1.0, type.toString());
            assertTrue(ElementCriterion.errorRatio(e - allowed * 0.99, e, bound, terms, type) < 1.0, type.toString());
        }
    }

    @Test
    void oneRoundingToTheOutputDtypePasses() {
        // 1 + 2^-11 is a tie in float16 and rounds to 1 (even): an error of 2^-11, within 2^-11 * |e|.
        double e = 1.0 + 0x1.0p-11;
        assertTrue(ElementCriterion.errorRatio(1.0, e, e, 2, DataType.FLOAT16) <= 1.0);
        // Two float16 ulps off is not.
        assertTrue(ElementCriterion.errorRatio(1.0 + 2 * 0x1.0p-10, e, e, 2, DataType.FLOAT16) > 1.0);
    }

    @Test
    void nanMustGiveNaN() {
        assertEquals(0.0, ElementCriterion.errorRatio(Double.NaN, Double.NaN, Double.NaN, 2, DataType.FLOAT));
        assertEquals(INF, ElementCriterion.errorRatio(0.0, Double.NaN, Double.NaN, 2, DataType.FLOAT));
        assertEquals(INF, ElementCriterion.errorRatio(Double.NaN, 1.0, 1.0, 2, DataType.FLOAT));
    }

    @Test
    void beyondTheFiniteRangeTheInfinityOfTheSameSignIsRequired() {
        assertEquals(65520.0, ElementCriterion.overflowThreshold(DataType.FLOAT16));
        assertEquals(0.0, ElementCriterion.errorRatio(INF, 70000.0, 70000.0, 2, DataType.FLOAT16));
        assertEquals(0.0, ElementCriterion.errorRatio(-INF, -65520.0, 65520.0, 2, DataType.FLOAT16));
        assertEquals(INF, ElementCriterion.errorRatio(-INF, 70000.0, 70000.0, 2, DataType.FLOAT16));
        assertEquals(INF, ElementCriterion.errorRatio(65504.0, 70000.0, 70000.0, 2, DataType.FLOAT16));
        // Just below the threshold a finite result is judged normally, and an infinity fails.
        assertTrue(ElementCriterion.errorRatio(65504.0, 65510.0, 65510.0, 2, DataType.FLOAT16) <= 1.0);
        assertEquals(INF, ElementCriterion.errorRatio(INF, 65510.0, 65510.0, 2, DataType.FLOAT16));
        // An expected infinity is beyond every finite range: only the same infinity passes.
        assertEquals(0.0, ElementCriterion.errorRatio(INF, INF, INF, 2, DataType.FLOAT));
        assertEquals(INF, ElementCriterion.errorRatio(-INF, INF, INF, 2, DataType.FLOAT));
        assertEquals(INF, ElementCriterion.errorRatio(Float.MAX_VALUE, INF, INF, 2, DataType.FLOAT));
    }

    @Test
    void precisionBitsPerDtype() {
        assertEquals(24, ElementCriterion.precisionBits(DataType.FLOAT));
        assertEquals(11, ElementCriterion.precisionBits(DataType.FLOAT16));
        assertEquals(8, ElementCriterion.precisionBits(DataType.BF16));
    }
}
