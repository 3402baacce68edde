package io.opscv.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Hand-computed values of SPEC §1 and the adjoint identity between the 1-D forward and backward. */
class Linear1dReferenceTest {
    private static final double INF = Double.POSITIVE_INFINITY;

    @Test
    void theSampleProgramOfSpecSection8() {
        // gradOut [1, 2, 3], Lin 6, alignCorners, scale 5/2: j=0 -> x0 0; j=1 -> 2.5 (halves to 2, 3); j=2 -> 5.
        double[] got = Linear1dReference.backward(new double[] {1, 2, 3}, 1, 6, 3, true, 0.5);
        assertArrayEquals(new double[] {1, 0, 1, 1, 0, 3}, got);
    }

    @Test
    void forwardHalfPixelUpsamplingClampsAtBothEdges() {
        // scale 1/2: src = max(0, (j + 0.5) / 2 - 0.5) = 0, 0.25, 0.75, 1.25 (x0 clamped to 1, x1 = 1).
        assertArrayEquals(new double[] {0, 2.5, 7.5, 10}, Linear1dReference.forward(new double[] {0, 10}, 1, 2, 4, false, 0));
    }

    @Test
    void forwardAlignCornersHitsTheCornersExactly() {
        assertArrayEquals(new double[] {0, 0.5, 1, 1.5, 2}, Linear1dReference.forward(new double[] {0, 1, 2}, 1, 3, 5, true, 0));
    }

    @Test
    void givenScalesReplaceTheSizeRatio() {
        // Lin 4 -> Lout 10 with scales 2.5 (floor(4 * 2.5) = 10): scale 0.4, the same as 4/10 here; with
        // scales 2.6 (Lout still floor(4 * 2.6) = 10) the step is 1/2.6, which moves the taps.
        double[] x = {0, 1, 2, 3};
        double[] derived = Linear1dReference.forward(x, 1, 4, 10, false, 0);
        double[] given = Linear1dReference.forward(x, 1, 4, 10, false, 2.6);
        assertEquals(0.4 * 3.5 - 0.5, derived[3], 1e-15);
        assertEquals(3.5 / 2.6 - 0.5, given[3], 1e-15);
    }

    @Test
    void rowsAreIndependent() {
        double[] two = Linear1dReference.backward(new double[] {1, 2, 3, 10, 20, 30}, 2, 6, 3, true, 0.5);
        assertArrayEquals(new double[] {1, 0, 1, 1, 0, 3, 10, 0, 10, 10, 0, 30}, two);
    }

    @Test
    void aZeroWeightTapTurnsInfinityIntoNaNAsInPyTorch() {
        // Lin 2 -> Lout 4, half-pixel: output 0 reads x0 = 0 with λ0 = 1 and x1 = 1 with λ1 = 0.
        assertArrayEquals(new double[] {INF, Double.NaN}, Linear1dReference.backward(new double[] {INF, 0, 0, 0}, 1, 2, 4, false, 0));
        // Forward: output 0 = 1 · x[0] + 0 · x[1].
        double[] y = Linear1dReference.forward(new double[] {1, INF}, 1, 2, 4, false, 0);
        assertEquals(Double.NaN, y[0]);
        assertEquals(INF, y[3]);
    }

    @Test
    void equalLengthsCopySoInfinityStaysInfinity() {
        double[] values = {INF, -INF, Double.NaN, 4};
        assertArrayEquals(values, Linear1dReference.backward(values, 1, 4, 4, false, 1.0));
        assertArrayEquals(values, Linear1dReference.forward(values, 1, 4, 4, true, 0));
    }

    @Test
    void aSingleInputReceivesTheWholeGradient() {
        assertArrayEquals(new double[] {15}, Linear1dReference.backward(new double[] {1, 2, 3, 4, 5}, 1, 1, 5, false, 0));
        assertArrayEquals(new double[] {15}, Linear1dReference.backward(new double[] {1, 2, 3, 4, 5}, 1, 1, 5, true, 0));
    }

    @Test
    void termsCountTheNonZeroContributionsToOneElement() {
        // Lin 2 -> Lout 4, half-pixel. Taps (index, weight): j0 (0, 1) (1, 0); j1 (0, .75) (1, .25);
        // j2 (0, .25) (1, .75); j3 (1, .75) (1, .25). Input 0 gets 3 non-zero terms, input 1 gets 4.
        assertEquals(4, Linear1dReference.backwardTerms(2, 4, false, 0));
        assertEquals(2, Linear1dReference.forwardTerms(2, 4, false, 0));
        assertEquals(1, Linear1dReference.backwardTerms(7, 7, false, 0));
        assertEquals(1, Linear1dReference.forwardTerms(7, 7, true, 0));
        // Lout 1 with alignCorners: one output, source 0, weights (1, 0).
        assertEquals(1, Linear1dReference.backwardTerms(5, 1, true, 0));
    }

    @ParameterizedTest(name = "lin {0} lout {1} alignCorners {2} scales {3}")
    @CsvSource({
        "16, 32, false, 2.0", "16, 32, true, 0", "37, 11, false, 0", "7, 16, false, 2.3", "5, 1, true, 0", "5, 1, false, 0",
        "1, 9, false, 0", "10, 10, false, 0", "2, 1000, false, 500", "64, 20, true, 0", "100, 250, true, 0", "3, 3087, false, 0"
    })
    void theBackwardIsTheAdjointOfTheForward(int lin, int lout, boolean alignCorners, double scales) {
        Random random = new Random(lin * 31L + lout);
        int rows = 3;
        double[] x = gaussian(random, rows * lin);
        double[] g = gaussian(random, rows * lout);
        double[] y = Linear1dReference.forward(x, rows, lin, lout, alignCorners, scales);
        double[] gx = Linear1dReference.backward(g, rows, lin, lout, alignCorners, scales);
        // <forward(x), g> == <x, backward(g)>, to float64 rounding of the sums.
        double left = dot(y, g);
        double right = dot(x, gx);
        double scale = absDot(Linear1dReference.forward(abs(x), rows, lin, lout, alignCorners, scales), abs(g));
        assertEquals(left, right, 1e-12 * scale);
    }

    @Test
    void inputsOfTheWrongLengthAreRejectedWithTheirSizes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Linear1dReference.backward(new double[5], 2, 6, 3, true, 0));
        assertEquals("gradOut should hold rows (2) * 3 = 6 values, but holds 5", e.getMessage());
    }

    static double[] gaussian(Random random, int count) {
        double[] values = new double[count];
        for (int k = 0; k < count; k++) {
            values[k] = random.nextGaussian();
        }
        return values;
    }

    static double dot(double[] a, double[] b) {
        double sum = 0;
        for (int k = 0; k < a.length; k++) {
            sum += a[k] * b[k];
        }
        return sum;
    }

    static double absDot(double[] a, double[] b) {
        double sum = 0;
        for (int k = 0; k < a.length; k++) {
            sum += Math.abs(a[k] * b[k]);
        }
        return sum;
    }

    static double[] abs(double[] values) {
        return ReferenceGoldenTest.abs(values);
    }
}
