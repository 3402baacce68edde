package io.opscv.verify;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.testing.GoldenCase;
import io.opscv.testing.Reference;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The sizes-only reference of SPEC §6's fallback plans: PyTorch's result without scales on the extra golden cases
 * (finite values), the tests' independent model of TensorFlow's rule on NaN/±Inf, and the adjoint identity between
 * its forward and backward.
 */
class HalfPixelReferenceTest {
    @Test
    void itIsPyTorchWithoutScalesOnTheSizesOnlyGoldenCases() {
        List<GoldenCase> cases = GoldenCase.extra().stream().filter(c -> c.reference().equals("sizes_only")).toList();
        assertEquals(3, cases.size(), "one per op with a sizes-only plan");
        for (GoldenCase g : cases) {
            double[] input = CaseData.decode(g.inputBytes(), g.dataType(), Math.toIntExact(g.inputBytes().byteSize()
                    / g.dataType().byteSize()));
            int planes = g.intField("n") * g.intField("c");
            boolean ac = g.alignCorners();
            double[] got = switch (g.op()) {
                case "upsample_linear1d_backward" -> HalfPixelReference.backward(input, planes, 1, g.intField("l_in"), 1,
                        g.intField("l_out"), ac);
                case "upsample_bilinear2d_backward" -> HalfPixelReference.backward(input, planes, g.intField("h_in"),
                        g.intField("w_in"), g.intField("h_out"), g.intField("w_out"), ac);
                case "upsample_bilinear2d" -> HalfPixelReference.forward(input, planes, g.intField("h_in"), g.intField("w_in"),
                        g.intField("h_out"), g.intField("w_out"), ac);
                default -> throw new IllegalStateException(g.op());
            };
            double[] expected = g.expected();
            double[] bound = g.bound();
            assertEquals(expected.length, got.length, g.name());
            for (int k = 0; k < got.length; k++) {
                assertTrue(Math.abs(got[k] - expected[k]) <= 1e-12 * bound[k], g.name() + " element " + k + ": " + got[k]
                        + " vs PyTorch " + expected[k]);
            }
        }
    }

    @Test
    void nanAndInfinityLandWhereTensorFlowsRulePutsThem() {
        // The tests' own float64 model of the 1-D fallback (io.opscv.testing.Reference), on rows with NaN and ±Inf.
        SplittableRandom random = new SplittableRandom(11);
        for (int trial = 0; trial < 200; trial++) {
            int lin = 1 + random.nextInt(12);
            int lout = 1 + random.nextInt(30);
            boolean ac = random.nextBoolean();
            double[] g = new double[2 * lout];
            for (int k = 0; k < g.length; k++) {
                int pick = random.nextInt(10);
                g[k] = pick == 0 ? Double.NaN : pick == 1 ? Double.POSITIVE_INFINITY : pick == 2 ? Double.NEGATIVE_INFINITY
                        : random.nextDouble() * 4 - 2;
            }
            double[] model = Reference.halfPixelLinear1dBackward(g, 2, lin, lout, ac);
            double[] got = HalfPixelReference.backward(g, 2, 1, lin, 1, lout, ac);
            assertArrayEquals(model, got, 0.0, lin + " <- " + lout + " ac=" + ac + " " + Arrays.toString(g));
        }
    }

    @Test
    void theForwardAndTheBackwardAreAdjoint() {
        SplittableRandom random = new SplittableRandom(3);
        for (int trial = 0; trial < 100; trial++) {
            int hin = 1 + random.nextInt(9);
            int win = 1 + random.nextInt(9);
            int hout = 1 + random.nextInt(20);
            int wout = 1 + random.nextInt(20);
            boolean ac = random.nextBoolean();
            double[] x = random.doubles(2L * hin * win, -1, 1).toArray();
            double[] g = random.doubles(2L * hout * wout, -1, 1).toArray();
            double fx = dot(HalfPixelReference.forward(x, 2, hin, win, hout, wout, ac), g);
            double bg = dot(x, HalfPixelReference.backward(g, 2, hin, win, hout, wout, ac));
            assertEquals(fx, bg, 1e-12 * (1 + Math.abs(fx)), hin + "x" + win + " -> " + hout + "x" + wout + " ac=" + ac);
            assertTrue(HalfPixelReference.forwardTerms(hin, win, hout, wout, ac) <= 4);
            assertTrue(HalfPixelReference.backwardTerms(hin, win, hout, wout, ac) >= 1);
        }
    }

    private static double dot(double[] a, double[] b) {
        double sum = 0;
        for (int k = 0; k < a.length; k++) {
            sum += a[k] * b[k];
        }
        return sum;
    }
}
