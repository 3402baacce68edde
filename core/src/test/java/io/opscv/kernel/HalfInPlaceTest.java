package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.opscv.runtime.DataType;
import io.opscv.runtime.PinnedScopes;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Random;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The FP16 in-place form widens and rounds in registers with bit operations (VectorKernelProvider
 * backwardInPlaceHalf): its results must be the reference's, bit for bit, over the whole FP16 range —
 * every finite half as input, sums that round to subnormals (ties included), to the largest halfs and
 * past them to infinity.
 */
class HalfInPlaceTest {
    private static final KernelProvider VECTOR = KernelProviders.vector();

    /** Runs the backward on FP16 rows of {@code halfs.applyAsInt(k)} with the scalar and the vector provider. */
    private static void assertSameAsReference(int rows, int lin, int lout, boolean alignCorners, IntUnaryOperator halfs) {
        assertSameAsReference(DataType.FLOAT16, rows, lin, lout, alignCorners, halfs);
    }

    /** As above, for FP16 or BF16 rows of 16-bit patterns. */
    private static void assertSameAsReference(DataType type, int rows, int lin, int lout, boolean alignCorners,
                                              IntUnaryOperator halfs) {
        LinearTable table = LinearTable.of(lin, lout, alignCorners, 0);
        assumeTrue(VECTOR != null && VECTOR.backwardInPlace(table, type), "no " + type + " in-place form here");
        try (Arena arena = Arena.ofShared(); PinnedScopes.Hold hold = PinnedScopes.hold(arena.scope());
             WorkerPool pool = new WorkerPool(2)) {
            MemorySegment g = arena.allocate(2L * rows * lout, 64);
            for (int k = 0; k < rows * lout; k++) {
                g.set(ElementCodec.U16, 2L * k, (short) halfs.applyAsInt(k));
            }
            StridedTensor gradOut = new StridedTensor(g, 0, new long[] {1, rows, lout}, new long[] {(long) rows * lout,
                    lout, 1}, type);
            StridedTensor expected = new StridedTensor(arena.allocate(2L * rows * lin, 64), 0, new long[] {1, rows, lin},
                    new long[] {(long) rows * lin, lin, 1}, type);
            StridedTensor actual = new StridedTensor(arena.allocate(2L * rows * lin, 64), 0, new long[] {1, rows, lin},
                    new long[] {(long) rows * lin, lin, 1}, type);
            Linear1dBackwardKernel.run(gradOut, expected, table, KernelProviders.scalar(), pool);
            Linear1dBackwardKernel.run(gradOut, actual, table, VECTOR, pool);
            assertArrayEquals(KernelCase.bits(expected), KernelCase.bits(actual),
                    type + " " + lin + " <- " + lout + ", ac=" + alignCorners);
        }
    }

    private static boolean finite(int half) {
        return (half & 0x7c00) != 0x7c00;
    }

    @Test
    void everyFiniteHalfHalvedRoundsAsTheReference() {
        // Downsampling by 2: every input gets half of one gradOut element, exact in float; halving a subnormal
        // with an odd last bit is a tie that rounds to even.
        assertSameAsReference(64, 2048, 1024, false, k -> finite(k) ? k : 0);
    }

    @Test
    void sumsPastTheLargestHalfBecomeInfinity() {
        // Up 2x: four terms of weights 1/4, 3/4, 3/4, 1/4 per input, twice the gradOut value: from 30000 to 65504,
        // the sums cross 65504 and 65520 (the tie that rounds to infinity).
        int from = Float.floatToFloat16(30000f);
        int to = Float.floatToFloat16(65504f);
        assertTrue(from < to);
        assertSameAsReference(16, 1024, 2048, false, k -> from + k % (to - from + 1));
        assertSameAsReference(16, 1024, 2048, false, k -> 0x8000 | (from + k % (to - from + 1)));
    }

    @Test
    void randomHalfsOfEveryMagnitudeRoundAsTheReference() {
        Random random = new Random(16);
        int[] values = new int[32 * 2048];
        for (int k = 0; k < values.length; k++) {
            int h;
            do {
                h = random.nextInt(1 << 16);
            } while (!finite(h));
            values[k] = h;
        }
        assertSameAsReference(32, 1024, 2048, false, k -> values[k]);
        assertSameAsReference(32, 1024, 2047, true, k -> values[k]);
        assertSameAsReference(32, 1500, 2048, false, k -> values[k]);
    }

    /**
     * Up 2x (the paired loads: two halfs per int, widened from its low and high 16 bits): every finite
     * pattern, of either sign, at every position of a pair, FP16 and BF16 alike.
     */
    @Test
    void everyFinitePatternThroughThePairedLoadsAsTheReference() {
        // 32 rows of 2048 hold each of the 65536 patterns once; shifted by one, each lands in the other half of
        // its int.
        assertSameAsReference(32, 1024, 2048, false, k -> finite(k) ? k : 0);
        assertSameAsReference(32, 1024, 2048, false, k -> finite((k + 1) & 0xffff) ? (k + 1) & 0xffff : 0);
        assertSameAsReference(DataType.BF16, 32, 1024, 2048, false, k -> (k & 0x7f80) != 0x7f80 ? k : 0);
        assertSameAsReference(DataType.BF16, 32, 1024, 2048, false,
                k -> ((k + 1) & 0x7f80) != 0x7f80 ? (k + 1) & 0xffff : 0);
    }

    /**
     * Up 2x through the paired loads (FP16 looks for infinities and NaNs once per run of groups, BF16
     * for NaN sums per row group): one such value per row, at every position of a row (the run's first
     * and last groups, and the half that only the last group's left window reads, included), among
     * ordinary values; and infinities of both signs in one group, whose sum is NaN.
     */
    @ParameterizedTest
    @EnumSource(value = DataType.class, names = {"FLOAT16", "BF16"})
    void anInfinityOrNaNAtEveryPositionThroughThePairedLoads(DataType type) {
        int lout = 2048;
        boolean half = type == DataType.FLOAT16;
        int[] specials = half ? new int[] {0x7c00, 0xfc00, 0x7e00, 0x7c01} : new int[] {0x7f80, 0xff80, 0x7fc0, 0x7f81};
        IntUnaryOperator ordinary = k -> encode(type, 0.25f + (k * 37 % 101) / 64f);
        assertSameAsReference(type, lout, 1024, lout, false,
                k -> k % lout == k / lout ? specials[(k / lout) % specials.length] : ordinary.applyAsInt(k));
        // +inf and -inf a few positions apart: sums of both are NaN.
        assertSameAsReference(type, 64, 1024, lout, false,
                k -> k % lout == 37 * (k / lout) ? specials[0] : k % lout == 37 * (k / lout) + 2 ? specials[1]
                        : ordinary.applyAsInt(k));
        // Runs that start and end inside a row: a block of 4096 inputs ends inside these rows.
        assertSameAsReference(type, 8, 6000, 12000, false,
                k -> k % 12000 == 8191 - (k / 12000) * 3 ? specials[0] : encode(type, 1f + (k % 7)));
    }

    private static int encode(DataType type, float value) {
        return type == DataType.FLOAT16 ? Float.floatToFloat16(value) : Float.floatToRawIntBits(value) >>> 16;
    }
}
