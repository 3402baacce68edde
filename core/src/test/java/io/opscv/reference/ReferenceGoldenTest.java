package io.opscv.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.kernel.ElementCodec;
import io.opscv.runtime.DataType;
import io.opscv.testing.GoldenCase;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The float64 references against every PyTorch golden case of their op (golden/README.md): the
 * expected values and the bounds (the op applied to |input|) agree to float64 rounding, and NaN and
 * ±Inf land on exactly the same elements.
 */
class ReferenceGoldenTest {
    /** Summation order may differ from PyTorch's; float64 rounding over ≤ ~10^3 terms stays far below this. */
    private static final double FLOAT64_TOLERANCE = 1e-12;

    static List<GoldenCase> linear1dBackwardCases() {
        return GoldenCase.of("upsample_linear1d_backward");
    }

    static List<GoldenCase> linear1dCases() {
        return GoldenCase.of("upsample_linear1d");
    }

    static List<GoldenCase> bilinear2dBackwardCases() {
        return GoldenCase.of("upsample_bilinear2d_backward");
    }

    @Test
    void theGoldenSetHasCasesOfTheThreeOpsItCovers() {
        assertTrue(linear1dBackwardCases().size() >= 14);
        assertTrue(linear1dCases().size() >= 4);
        assertTrue(bilinear2dBackwardCases().size() >= 3);
        Set<String> ops = GoldenCase.all().stream().map(GoldenCase::op).collect(Collectors.toSet());
        assertEquals(Set.of("upsample_linear1d_backward", "upsample_linear1d", "upsample_bilinear2d_backward"), ops,
                "a new op in the golden set needs its reference checked here");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("linear1dBackwardCases")
    void linear1dBackwardMatchesPyTorch(GoldenCase c) {
        int rows = c.intField("n") * c.intField("c");
        int lin = c.intField("l_in");
        int lout = c.intField("l_out");
        double[] gradOut = decode(c);
        double[] got = Linear1dReference.backward(gradOut, rows, lin, lout, c.alignCorners(), c.doubleField("scales"));
        double[] bound = Linear1dReference.backward(abs(gradOut), rows, lin, lout, c.alignCorners(), c.doubleField("scales"));
        assertMatches(c, got, bound);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("linear1dCases")
    void linear1dForwardMatchesPyTorch(GoldenCase c) {
        int rows = c.intField("n") * c.intField("c");
        int lin = c.intField("l_in");
        int lout = c.intField("l_out");
        double[] self = decode(c);
        double[] got = Linear1dReference.forward(self, rows, lin, lout, c.alignCorners(), c.doubleField("scales"));
        double[] bound = Linear1dReference.forward(abs(self), rows, lin, lout, c.alignCorners(), c.doubleField("scales"));
        assertMatches(c, got, bound);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bilinear2dBackwardCases")
    void bilinear2dBackwardMatchesPyTorch(GoldenCase c) {
        int planes = c.intField("n") * c.intField("c");
        int hin = c.intField("h_in");
        int win = c.intField("w_in");
        int hout = c.intField("h_out");
        int wout = c.intField("w_out");
        double sh = c.doubleField("scales_h");
        double sw = c.doubleField("scales_w");
        double[] gradOut = decode(c);
        double[] got = Bilinear2dReference.backward(gradOut, planes, hin, win, hout, wout, c.alignCorners(), sh, sw);
        double[] bound = Bilinear2dReference.backward(abs(gradOut), planes, hin, win, hout, wout, c.alignCorners(), sh, sw);
        assertMatches(c, got, bound);
    }

    @Test
    void theNonFiniteGoldenCaseIsReproducedNaNForNaNAndInfForInf() {
        GoldenCase c = linear1dBackwardCases().stream().filter(k -> k.name().equals("bwd_nonfinite_f32")).findFirst().orElseThrow();
        double[] got = Linear1dReference.backward(decode(c), c.intField("n") * c.intField("c"), c.intField("l_in"),
                c.intField("l_out"), c.alignCorners(), c.doubleField("scales"));
        long nans = java.util.Arrays.stream(got).filter(Double::isNaN).count();
        long infs = java.util.Arrays.stream(got).filter(Double::isInfinite).count();
        assertTrue(nans > 0 && infs > 0, "nans " + nans + ", infs " + infs);
    }

    private static void assertMatches(GoldenCase c, double[] got, double[] bound) {
        double[] expected = c.expected();
        double[] expectedBound = c.bound();
        assertEquals(expected.length, got.length, c.name() + ": element count");
        for (int k = 0; k < expected.length; k++) {
            assertClose(c.name() + " expected", k, expected[k], got[k], expectedBound[k]);
            assertClose(c.name() + " bound", k, expectedBound[k], bound[k], expectedBound[k]);
        }
    }

    private static void assertClose(String what, int k, double expected, double got, double scale) {
        if (Double.isNaN(expected) || Double.isInfinite(expected)) {
            assertEquals(expected, got, what + "[" + k + "] (non-finite must match exactly)");
            return;
        }
        assertFalse(Double.isNaN(got) || Double.isInfinite(got), what + "[" + k + "]: got " + got + ", expected " + expected);
        double tolerance = FLOAT64_TOLERANCE * scale + Double.MIN_NORMAL;
        assertTrue(Math.abs(got - expected) <= tolerance,
                what + "[" + k + "]: got " + got + ", expected " + expected + " (tolerance " + tolerance + ")");
    }

    /** The golden input, decoded from its dtype (bfloat16 as bits in {@code <u2}) to float64. */
    static double[] decode(GoldenCase c) {
        MemorySegment raw = c.inputBytes();
        DataType type = c.dataType();
        int count = Math.toIntExact(raw.byteSize() / type.byteSize());
        double[] values = new double[count];
        for (int k = 0; k < count; k++) {
            values[k] = switch (type) {
                case FLOAT -> raw.get(ValueLayout.JAVA_FLOAT_UNALIGNED, 4L * k);
                case FLOAT16 -> Float.float16ToFloat(raw.get(ValueLayout.JAVA_SHORT_UNALIGNED, 2L * k));
                case BF16 -> ElementCodec.bf16ToFloat(raw.get(ValueLayout.JAVA_SHORT_UNALIGNED, 2L * k));
                default -> throw new IllegalArgumentException(type.toString());
            };
        }
        return values;
    }

    static double[] abs(double[] values) {
        double[] out = new double[values.length];
        for (int k = 0; k < values.length; k++) {
            out[k] = Math.abs(values[k]);
        }
        return out;
    }
}
