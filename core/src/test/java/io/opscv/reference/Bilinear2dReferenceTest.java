package io.opscv.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The 2-D forward has no golden file: it is checked by hand-computed cases, by separability against
 * the 1-D forward (validated against PyTorch in {@link ReferenceGoldenTest}) and by the adjoint
 * identity against the 2-D backward (also validated against PyTorch).
 */
class Bilinear2dReferenceTest {
    private static final double INF = Double.POSITIVE_INFINITY;

    @Test
    void twoByTwoToThreeByThreeWithAlignCornersAveragesNeighbours() {
        double[] y = Bilinear2dReference.forward(new double[] {1, 2, 3, 4}, 1, 2, 2, 3, 3, true, 0, 0);
        assertArrayEquals(new double[] {1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4}, y);
    }

    @Test
    void twoByTwoToFourByFourHalfPixel() {
        // Each axis: src = 0, 0.25, 0.75, 1.25 -> weights on (x0, x1): (1, 0), (.75, .25), (.25, .75), (1 on x1).
        double[] y = Bilinear2dReference.forward(new double[] {0, 4, 8, 12}, 1, 2, 2, 4, 4, false, 0, 0);
        // Row weights r = (1,0), (.75,.25), (.25,.75), (0,1) against rows [0, 4] and [8, 12]: the value is
        // 8 * rowWeight1 + 4 * colWeight1.
        double[] w1 = {0, 0.25, 0.75, 1};
        for (int ho = 0; ho < 4; ho++) {
            for (int wo = 0; wo < 4; wo++) {
                assertEquals(8 * w1[ho] + 4 * w1[wo], y[ho * 4 + wo], 1e-15, "(" + ho + ", " + wo + ")");
            }
        }
    }

    @Test
    void theSampleOfSpecSection8AlongWIsThe1dBackward() {
        double[] g = Bilinear2dReference.backward(new double[] {1, 2, 3}, 1, 1, 6, 1, 3, true, 0, 0.5);
        assertArrayEquals(new double[] {1, 0, 1, 1, 0, 3}, g);
    }

    @Test
    void aZeroWeightTapTurnsInfinityIntoNaN() {
        // 2x2 -> 4x4 half-pixel: output (0, 0) reads (0, 0) with weight 1 and (0, 1), (1, 0), (1, 1) with 0.
        double[] gradOut = new double[16];
        gradOut[0] = INF;
        double[] g = Bilinear2dReference.backward(gradOut, 1, 2, 2, 4, 4, false, 0, 0);
        assertEquals(INF, g[0]);
        assertEquals(Double.NaN, g[1]);
        assertEquals(Double.NaN, g[2]);
        assertEquals(Double.NaN, g[3]);
    }

    @Test
    void anAxisOfEqualLengthsCopiesSoRowsDoNotMix() {
        // H 2 -> 2 (a copy), W 2 -> 4: row 1 never reads row 0, so row 0's Inf does not reach it.
        double[] y = Bilinear2dReference.forward(new double[] {INF, 1, 1, 1}, 1, 2, 2, 2, 4, false, 0, 0);
        assertArrayEquals(new double[] {INF, INF, INF, 1, 1, 1, 1, 1}, y);
        double[] g = Bilinear2dReference.backward(new double[] {0, 0, 0, INF, 1, 1, 1, 1}, 1, 2, 2, 2, 4, false, 0, 0);
        assertArrayEquals(new double[] {0, INF, 2, 2}, g);
    }

    @ParameterizedTest(name = "{0}x{1} -> {2}x{3} alignCorners {4} scales {5}, {6}")
    @CsvSource({
        "4, 5, 8, 10, false, 2.0, 2.0", "9, 6, 4, 13, true, 0, 0", "16, 16, 40, 24, false, 2.5, 1.5", "3, 7, 3, 2, false, 0, 0",
        "1, 1, 5, 3, false, 0, 0", "6, 1, 1, 9, true, 0, 0", "7, 9, 16, 16, false, 2.3, 1.8"
    })
    void theForwardIsSeparableAndTheAdjointOfTheBackward(int hin, int win, int hout, int wout, boolean alignCorners,
                                                          double scalesH, double scalesW) {
        Random random = new Random(hin * 1000L + win * 100L + hout * 10L + wout);
        // Separability: an outer product u ⊗ v maps to forward1d(u) ⊗ forward1d(v).
        double[] u = Linear1dReferenceTest.gaussian(random, hin);
        double[] v = Linear1dReferenceTest.gaussian(random, win);
        double[] y = Bilinear2dReference.forward(outer(u, v), 1, hin, win, hout, wout, alignCorners, scalesH, scalesW);
        double[] yu = Linear1dReference.forward(u, 1, hin, hout, alignCorners, scalesH);
        double[] yv = Linear1dReference.forward(v, 1, win, wout, alignCorners, scalesW);
        double[] expected = outer(yu, yv);
        for (int k = 0; k < expected.length; k++) {
            assertEquals(expected[k], y[k], 1e-13 * (1 + Math.abs(expected[k])), "separable forward at " + k);
        }
        // The backward of an outer product is separable the same way.
        double[] a = Linear1dReferenceTest.gaussian(random, hout);
        double[] b = Linear1dReferenceTest.gaussian(random, wout);
        double[] gx = Bilinear2dReference.backward(outer(a, b), 1, hin, win, hout, wout, alignCorners, scalesH, scalesW);
        double[] expectedGx = outer(Linear1dReference.backward(a, 1, hin, hout, alignCorners, scalesH),
                Linear1dReference.backward(b, 1, win, wout, alignCorners, scalesW));
        for (int k = 0; k < expectedGx.length; k++) {
            assertEquals(expectedGx[k], gx[k], 1e-12 * (1 + Math.abs(expectedGx[k])), "separable backward at " + k);
        }
        // Adjoint: <forward(x), g> == <x, backward(g)> on random planes.
        int planes = 2;
        double[] x = Linear1dReferenceTest.gaussian(random, planes * hin * win);
        double[] g = Linear1dReferenceTest.gaussian(random, planes * hout * wout);
        double left = Linear1dReferenceTest.dot(Bilinear2dReference.forward(x, planes, hin, win, hout, wout, alignCorners,
                scalesH, scalesW), g);
        double right = Linear1dReferenceTest.dot(x, Bilinear2dReference.backward(g, planes, hin, win, hout, wout, alignCorners,
                scalesH, scalesW));
        double scale = Linear1dReferenceTest.absDot(Bilinear2dReference.forward(Linear1dReferenceTest.abs(x), planes, hin, win,
                hout, wout, alignCorners, scalesH, scalesW), Linear1dReferenceTest.abs(g));
        assertEquals(left, right, 1e-12 * scale);
    }

    @Test
    void termsAreTheProductOfThePerAxisCounts() {
        // Per axis 2 -> 4 half-pixel: backward 4 (see Linear1dReferenceTest), forward 2.
        assertEquals(16, Bilinear2dReference.backwardTerms(2, 2, 4, 4, false, 0, 0));
        assertEquals(4, Bilinear2dReference.forwardTerms(2, 2, 4, 4, false, 0, 0));
        assertEquals(4, Bilinear2dReference.backwardTerms(3, 2, 3, 4, false, 0, 0));
        assertEquals(2, Bilinear2dReference.forwardTerms(3, 2, 3, 4, false, 0, 0));
    }

    private static double[] outer(double[] u, double[] v) {
        double[] out = new double[u.length * v.length];
        for (int i = 0; i < u.length; i++) {
            for (int j = 0; j < v.length; j++) {
                out[i * v.length + j] = u[i] * v[j];
            }
        }
        return out;
    }
}
