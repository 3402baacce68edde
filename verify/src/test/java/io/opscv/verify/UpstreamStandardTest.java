package io.opscv.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.runtime.DataType;
import org.junit.jupiter.api.Test;

/** The upstream "single benchmark" standard of SPEC §9. */
class UpstreamStandardTest {
    @Test
    void thresholdsPerDtype() {
        assertEquals(Math.pow(2, -13), UpstreamStandard.threshold(DataType.FLOAT));
        assertEquals(Math.pow(2, -10), UpstreamStandard.threshold(DataType.FLOAT16));
        assertEquals(Math.pow(2, -7), UpstreamStandard.threshold(DataType.BF16));
    }

    @Test
    void relativeErrorAddsOneTenMillionthToTheDenominator() {
        assertEquals(0.5 / (2.0 + 1e-7), UpstreamStandard.relativeError(2.5, 2.0));
        assertEquals(0.5 / (2.0 + 1e-7), UpstreamStandard.relativeError(-2.5, -2.0));
        // e = 0: re = |got| / 1e-7, which is why the standard only suits inputs without cancellation.
        assertEquals(1e-6 / 1e-7, UpstreamStandard.relativeError(1e-6, 0.0), 1e-9);
    }

    @Test
    void nonFiniteValuesMatchOnlyTheirLikes() {
        assertEquals(0.0, UpstreamStandard.relativeError(Double.NaN, Double.NaN));
        assertEquals(0.0, UpstreamStandard.relativeError(Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY));
        assertEquals(Double.POSITIVE_INFINITY, UpstreamStandard.relativeError(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY));
        assertEquals(Double.POSITIVE_INFINITY, UpstreamStandard.relativeError(1.0, Double.NaN));
        assertEquals(Double.POSITIVE_INFINITY, UpstreamStandard.relativeError(Double.NaN, 1.0));
    }

    @Test
    void mereBelowTAndMareBelowTenT() {
        double t = UpstreamStandard.threshold(DataType.FLOAT16);
        assertTrue(UpstreamStandard.passes(0.99 * t, 9.9 * t, DataType.FLOAT16));
        assertFalse(UpstreamStandard.passes(t, t, DataType.FLOAT16), "MERE must be strictly below T");
        assertFalse(UpstreamStandard.passes(0.5 * t, 10 * t, DataType.FLOAT16), "MARE must be strictly below 10 T");
    }
}
