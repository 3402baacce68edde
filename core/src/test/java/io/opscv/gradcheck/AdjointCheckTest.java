package io.opscv.gradcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.runtime.Platform;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ⟨F(x), g⟩ = ⟨x, B(g)⟩ for both operator pairs, over a sweep of sizes, down- and up-sampling
 * (ratio 500 included), both alignCorners modes, given and derived scales, on every plan.
 */
class AdjointCheckTest {
    /** lin, lout, a scales consistent with them (floor(lin * scales) == lout). */
    static final double[][] LINEAR = {
        {1, 9, 9.0}, {5, 1, 0.2}, {7, 16, 2.3}, {16, 32, 2.0}, {37, 11, 0.3}, {100, 300, 3.0}, {2, 1000, 500.0},
        {64, 20, 0.32}, {10, 10, 1.0}, {3, 4, 1.5},
    };
    /** hin, win, hout, wout, scalesH, scalesW (consistent). */
    static final double[][] BILINEAR = {
        {4, 5, 8, 10, 2, 2}, {9, 6, 4, 13, 0.5, 2.2}, {7, 5, 16, 11, 2.3, 2.25}, {16, 16, 40, 24, 2.5, 1.5},
        {2, 1, 1000, 3, 500, 3}, {1, 1, 5, 5, 5, 5}, {6, 6, 6, 9, 1, 1.5}, {12, 20, 3, 7, 0.25, 0.35},
    };

    static Stream<Arguments> linearSweep() {
        List<Arguments> args = new ArrayList<>();
        for (double[] s : LINEAR) {
            for (boolean alignCorners : new boolean[] {false, true}) {
                for (double scales : new double[] {0, s[2]}) {
                    args.add(Arguments.of(Platform.CPU, (int) s[0], (int) s[1], alignCorners, scales));
                }
            }
        }
        for (Platform p : List.of(Platform.ASCEND950, Platform.ASCEND910B, Platform.ASCEND910_93)) {
            args.add(Arguments.of(p, 7, 16, false, 2.3));
            args.add(Arguments.of(p, 37, 11, true, 0.0));
            args.add(Arguments.of(p, 2, 1000, false, 500.0));
        }
        // The training series: forward ResizeD (SPEC §1) against the TensorFlow-rule fallback backward;
        // with scales not given, or equal to the size ratio, the two are still exact transposes.
        args.add(Arguments.of(Platform.ASCEND910, 37, 11, true, 0.0));
        args.add(Arguments.of(Platform.ASCEND910, 5, 13, false, 0.0));
        args.add(Arguments.of(Platform.ASCEND910, 2, 1000, false, 500.0));
        args.add(Arguments.of(Platform.ASCEND910, 16, 32, false, 2.0));
        return args.stream();
    }

    @ParameterizedTest(name = "{0}: L {1} -> {2}, alignCorners={3}, scales={4}")
    @MethodSource("linearSweep")
    void theLinear1dPairIsAdjoint(Platform platform, int lin, int lout, boolean alignCorners, double scales) {
        AdjointCheck.Result r = AdjointCheck.linear1d(platform, 2, 3, lin, lout, alignCorners, scales, lin * 31L + lout);
        assertTrue(r.passes(), r.toString());
        assertEquals(0.0, r.maxEntryDifference(), r.toString());
    }

    static Stream<Arguments> bilinearSweep() {
        List<Arguments> args = new ArrayList<>();
        for (double[] s : BILINEAR) {
            for (boolean alignCorners : new boolean[] {false, true}) {
                for (boolean given : new boolean[] {false, true}) {
                    args.add(Arguments.of(Platform.CPU, (int) s[0], (int) s[1], (int) s[2], (int) s[3], alignCorners,
                            given ? s[4] : 0, given ? s[5] : 0));
                }
            }
        }
        for (Platform p : List.of(Platform.ASCEND950, Platform.ASCEND910B, Platform.ASCEND910)) {
            args.add(Arguments.of(p, 4, 5, 8, 10, false, 2.0, 2.0));
            args.add(Arguments.of(p, 9, 6, 4, 13, true, 0.0, 0.0));
            args.add(Arguments.of(p, 7, 5, 16, 11, false, 0.0, 0.0));
        }
        return args.stream();
    }

    @ParameterizedTest(name = "{0}: {1}x{2} -> {3}x{4}, alignCorners={5}, scales={6},{7}")
    @MethodSource("bilinearSweep")
    void theBilinear2dPairIsAdjoint(Platform platform, int hin, int win, int hout, int wout, boolean alignCorners,
                                    double scalesH, double scalesW) {
        AdjointCheck.Result r = AdjointCheck.bilinear2d(platform, 2, 2, hin, win, hout, wout, alignCorners, scalesH,
                scalesW, hin * 1000L + wout);
        assertTrue(r.passes(), r.toString());
        assertEquals(0.0, r.maxEntryDifference(), r.toString());
    }

    @Test
    void theTrainingSeriesPairIsNotAdjointWhenItsBackwardIgnoresTheScales() {
        // aclnnUpsampleLinear1d's ResizeD uses scales 2.3, the fallback backward uses 7 / 16 (SPEC §6).
        AdjointCheck.Result r = AdjointCheck.linear1d(Platform.ASCEND910, 1, 4, 7, 16, false, 2.3, 1);
        assertFalse(r.passes(), r.toString());
        assertTrue(r.relativeDifference() > 1e-3, r.toString());
    }

    @Test
    void theCheckNoticesAWrongWeight() {
        float[] forward = {0.25f, 0.75f, 1f, 0f};        // 2 outputs x 2 inputs
        float[] backward = {0.25f, 1f, 0.75f, 0f};       // its transpose
        assertTrue(AdjointCheck.compare(forward, backward, 3, 2, 2, 1).passes());
        backward[2] = Math.nextUp(0.75f);
        AdjointCheck.Result r = AdjointCheck.compare(forward, backward, 3, 2, 2, 1);
        assertFalse(r.passes(), r.toString());
        assertEquals(Math.ulp(0.75f), r.maxEntryDifference(), 0.0);
    }
}
