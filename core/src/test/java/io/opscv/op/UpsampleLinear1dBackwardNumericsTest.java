package io.opscv.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.runtime.DataType;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Tensor;
import io.opscv.testing.Criterion;
import io.opscv.testing.Reference;
import io.opscv.testing.TestDevice;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The numerics of SPEC §1 beyond the golden files: many shapes and all three dtypes against a
 * float64 reference under the golden criterion; non-contiguous views equal to contiguous ones,
 * bit for bit; writes confined to the view; the identity copy; the sample's values.
 */
class UpsampleLinear1dBackwardNumericsTest {
    private final TestDevice dev = new TestDevice();

    @AfterEach
    void close() {
        dev.close();
    }

    static Stream<Arguments> shapes() {
        // n, c, lin, lout, alignCorners, scales
        return Stream.of(
                Arguments.of(2, 3, 16, 32, false, 2.0),
                Arguments.of(2, 3, 16, 32, true, 0.0),
                Arguments.of(1, 4, 37, 11, false, 0.0),
                Arguments.of(1, 4, 37, 11, true, 0.0),
                Arguments.of(1, 2, 7, 16, false, 2.3),
                Arguments.of(3, 1, 5, 1, true, 0.0),
                Arguments.of(3, 1, 5, 1, false, 0.0),
                Arguments.of(1, 2, 1, 9, false, 0.0),
                Arguments.of(1, 2, 1, 9, true, 0.0),
                Arguments.of(1, 1, 2, 1000, false, 500.0),
                Arguments.of(1, 1, 1000, 2, false, 0.0),
                Arguments.of(2, 2, 10, 10, true, 0.0),
                Arguments.of(1, 3, 5000, 9000, false, 1.8),
                Arguments.of(1, 1, 9000, 4500, true, 0.5),
                Arguments.of(4, 5, 100, 257, false, 0.0));
    }

    static Stream<Arguments> shapesAndDtypes() {
        return shapes().flatMap(a -> Stream.of(DataType.FLOAT, DataType.FLOAT16, DataType.BF16)
                .map(t -> Arguments.of(a.get()[0], a.get()[1], a.get()[2], a.get()[3], a.get()[4], a.get()[5], t)));
    }

    @ParameterizedTest(name = "n={0} c={1} {2}->{3} ac={4} scales={5} {6}")
    @MethodSource("shapesAndDtypes")
    void matchesTheFloat64ReferenceWithinTheCriterion(int n, int c, int lin, int lout, boolean ac, double scales, DataType type) {
        float[] g = randomValues(n * c * lout, new Random(lin * 31L + lout), type);
        double[] got = runContiguous(n, c, lin, lout, ac, scales, type, g);
        double[] gd = new double[g.length];
        double[] ga = new double[g.length];
        for (int k = 0; k < g.length; k++) {
            gd[k] = g[k];
            ga[k] = Math.abs(g[k]);
        }
        double[] expected = Reference.linear1dBackward(gd, n * c, lin, lout, ac, scales);
        double[] bound = Reference.linear1dBackward(ga, n * c, lin, lout, ac, scales);
        int terms = Reference.maxTerms(lin, lout, ac, scales);
        int bad = Criterion.firstFailure(got, expected, bound, terms, type);
        assertEquals(-1, bad, () -> "element " + bad + ": got " + got[bad] + ", expected " + expected[bad]);
    }

    @ParameterizedTest(name = "n={0} c={1} {2}->{3} ac={4} scales={5}")
    @MethodSource("shapes")
    void nonContiguousViewsGiveTheContiguousResultBitForBit(int n, int c, int lin, int lout, boolean ac, double scales) {
        for (DataType type : new DataType[] {DataType.FLOAT, DataType.BF16}) {
            float[] g = randomValues(n * c * lout, new Random(7), type);
            double[] contiguous = runContiguous(n, c, lin, lout, ac, scales, type, g);
            // gradOut: a transposed view, storage laid out (L, C, N); out: every other element of a
            // larger buffer along L, with an offset, storage (N, C, 2L + 3).
            long[] gShape = {n, c, lout};
            long[] gStrides = {1, n, (long) n * c};
            long[] oShape = {n, c, lin};
            long[] oStrides = {(long) c * (2L * lin + 3), 2L * lin + 3, 2};
            try (Tensor gradOut = dev.strided(gShape, type, gStrides, 0, g);
                 Tensor out = dev.strided(oShape, type, oStrides, 3, new float[n * c * lin]);
                 IntArray os = IntArray.of(lout);
                 IntArray is = IntArray.of(n, c, lin)) {
                WorkspaceAndExecutor p = UpsampleLinear1dBackward.getWorkspaceSize(gradOut, os, is, ac, scales, out);
                UpsampleLinear1dBackward.run(null, p.workspaceSize(), p.executor(), dev.stream);
                dev.stream.synchronize();
                assertArrayEquals(contiguous, TestDevice.read(out), "strided result differs for " + type);
                // Elements of out's storage outside the view keep the sentinel.
                double[] storage = TestDevice.readStorage(out);
                int touched = 0;
                for (double v : storage) {
                    if (v != TestDevice.SENTINEL) {
                        touched++;
                    }
                }
                long sentinelsInView = java.util.Arrays.stream(contiguous).filter(v -> v == TestDevice.SENTINEL).count();
                assertEquals((long) n * c * lin - sentinelsInView, touched, "writes outside the view of out");
            }
        }
    }

    @Test
    void identityCopiesEvenInfinities() {
        float[] g = {1f, Float.POSITIVE_INFINITY, Float.NaN, -0f, Float.NEGATIVE_INFINITY, 3.5f};
        double[] got = runContiguous(1, 2, 3, 3, false, 0.0, DataType.FLOAT, g);
        assertArrayEquals(new double[] {1, Double.POSITIVE_INFINITY, Double.NaN, -0.0, Double.NEGATIVE_INFINITY, 3.5}, got);
    }

    @Test
    void zeroWeightTapsTurnInfinityIntoNaNAsPyTorch() {
        // up 2x, alignCorners: output j = 0 has src 0, weights (1, 0): 0 * Inf = NaN reaches input 1.
        float[] g = {Float.POSITIVE_INFINITY, 0f, 0f, 0f};
        double[] got = runContiguous(1, 1, 2, 4, true, 0.0, DataType.FLOAT, g);
        assertEquals(Double.POSITIVE_INFINITY, got[0]);
        assertTrue(Double.isNaN(got[1]), "input 1 gets 0 * Inf = NaN, got " + got[1]);
    }

    @Test
    void theSampleValues() {
        double[] got = runContiguous(1, 1, 6, 3, true, 0.5, DataType.FLOAT, new float[] {1, 2, 3});
        assertArrayEquals(new double[] {1, 0, 1, 1, 0, 3}, got);
    }

    @Test
    void downsamplingByHalfWithoutAlignCorners() {
        // Lin 6 -> Lout 3 (forward), scale 2: src(j) = 2j + 0.5: taps (0,1), (2,3), (4,5), weights 0.5 each.
        double[] got = runContiguous(1, 1, 6, 3, false, 0.5, DataType.FLOAT, new float[] {2, 4, 8});
        assertArrayEquals(new double[] {1, 1, 2, 2, 4, 4}, got);
    }

    @Test
    void float16RoundsOnceToNearestEven() {
        // Lin 1: every output adds its whole value to input 0. 2048 + 1 is a tie in float16 (spacing 2 above 2048),
        // and a float32 sum then one rounding gives 2048 (even), where rounding per step would too; 2048 + 1 + 1 = 2050.
        double[] tie = runContiguous(1, 1, 1, 2, false, 0.0, DataType.FLOAT16, new float[] {2048f, 1f});
        assertEquals(2048.0, tie[0]);
        double[] sum = runContiguous(1, 1, 1, 3, false, 0.0, DataType.FLOAT16, new float[] {2048f, 1f, 1f});
        assertEquals(2050.0, sum[0], "accumulated in float32 then rounded once (per-step float16 rounding gives 2048)");
    }

    private double[] runContiguous(int n, int c, int lin, int lout, boolean ac, double scales, DataType type, float[] g) {
        try (Tensor gradOut = dev.tensor(new long[] {n, c, lout}, type, g);
             Tensor out = dev.tensor(new long[] {n, c, lin}, type, new float[n * c * lin]);
             IntArray os = IntArray.of(lout);
             IntArray is = IntArray.of(n, c, lin)) {
            WorkspaceAndExecutor p = UpsampleLinear1dBackward.getWorkspaceSize(gradOut, os, is, ac, scales, out);
            UpsampleLinear1dBackward.run(null, p.workspaceSize(), p.executor(), dev.stream);
            dev.stream.synchronize();
            return TestDevice.read(out);
        }
    }

    /** Normal values, already representable in {@code type} (so the reference sees the operator's exact input). */
    static float[] randomValues(int count, Random random, DataType type) {
        float[] v = new float[count];
        for (int k = 0; k < count; k++) {
            float x = (float) random.nextGaussian();
            v[k] = switch (type) {
                case FLOAT16 -> Float.float16ToFloat(Float.floatToFloat16(x));
                case BF16 -> io.opscv.kernel.ElementCodec.bf16ToFloat(io.opscv.kernel.ElementCodec.floatToBf16(x));
                default -> x;
            };
        }
        return v;
    }
}
