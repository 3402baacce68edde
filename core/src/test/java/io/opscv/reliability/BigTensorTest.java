package io.opscv.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.op.UpsampleLinear1dBackward;
import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.runtime.DataType;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Tensor;
import io.opscv.testing.Criterion;
import io.opscv.testing.Reference;
import io.opscv.testing.TestDevice;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * 64-bit indexing end to end (issue 6, item 4): gradOut and out each of more than 2^31 elements
 * (FLOAT16, ~4 GiB each, off-heap), within every SPEC §5 limit: N = 1, C = 2049,
 * Lout = 2^20, Lin = 2^20 - 1. Tagged {@code big}: run with {@code mvn -B verify -Pbig} (needs
 * ~9 GiB of free memory and a minute or two).
 *
 * <p>Checked: three whole rows (first, middle, last: the last starts beyond element 2^31) against
 * the float64 reference with golden/README.md's criterion, and every row's sum. The backward
 * preserves the sum of each gradOut row: every gradOut element j is spread with weights
 * λ0(j) + λ1(j) = 1 over its taps, which always lie inside [0, Lin - 1] (SPEC §1, for either
 * alignCorners), so Σ_i out[i] = Σ_j gradOut[j] up to rounding; the tolerance is the criterion
 * summed over the row: ((terms + 2)·2^-24 + 2^-11)·Σ|gradOut| + Lin·2^-24.
 */
@Tag("big")
class BigTensorTest {
    private static final long C = 2049;
    private static final int LOUT = 1 << 20;
    private static final int LIN = (1 << 20) - 1;

    /** A gradOut value exact in FLOAT16: a multiple of 1/8 in [-1, 1], plus row % 5 so rows have distinct sums. */
    private static float value(long row, long j) {
        return ((row * 31 + j * 7) % 17 - 8) / 8f + row % 5;
    }

    @Test
    void moreThan2pow31ElementsAreComputedWith64BitIndices() {
        assertTrue(C * LOUT > (1L << 31) && C * LIN > (1L << 31));
        try (TestDevice dev = new TestDevice()) {
            DeviceMemory gradOutMemory = dev.device.malloc(C * LOUT * 2);
            DeviceMemory outMemory = dev.device.malloc(C * LIN * 2);
            MemorySegment g = gradOutMemory.segment();
            short[] row = new short[LOUT];
            for (long r = 0; r < C; r++) {
                for (int j = 0; j < LOUT; j++) {
                    row[j] = Float.floatToFloat16(value(r, j));
                }
                MemorySegment.copy(row, 0, g, ValueLayout.JAVA_SHORT_UNALIGNED, r * LOUT * 2, LOUT);
            }
            Tensor gradOut = Tensor.create(new long[] {1, C, LOUT}, DataType.FLOAT16, Format.NCL, gradOutMemory);
            Tensor out = Tensor.create(new long[] {1, C, LIN}, DataType.FLOAT16, Format.NCL, outMemory);
            WorkspaceAndExecutor p = UpsampleLinear1dBackward.getWorkspaceSize(gradOut, IntArray.of(LOUT),
                    IntArray.of(1, C, LIN), false, 0, out);
            UpsampleLinear1dBackward.run(null, p.workspaceSize(), p.executor(), dev.stream);
            dev.stream.synchronize();

            MemorySegment o = outMemory.segment();
            int terms = Reference.maxTerms(LIN, LOUT, false, 0);
            for (long r : new long[] {0, C / 2, C - 1}) {
                double[] gRow = new double[LOUT];
                for (int j = 0; j < LOUT; j++) {
                    gRow[j] = value(r, j);
                }
                double[] expected = Reference.linear1dBackward(gRow, 1, LIN, LOUT, false, 0);
                double[] bound = Reference.linear1dBackward(java.util.Arrays.stream(gRow).map(Math::abs).toArray(), 1, LIN, LOUT,
                        false, 0);
                for (int i = 0; i < LIN; i++) {
                    double got = Float.float16ToFloat(o.get(ValueLayout.JAVA_SHORT_UNALIGNED, (r * LIN + i) * 2));
                    double ratio = Criterion.errorRatio(got, expected[i], bound[i], terms, DataType.FLOAT16);
                    long rr = r;
                    int ii = i;
                    assertTrue(ratio <= 1, () -> "row " + rr + " element " + ii + " (storage element " + (rr * LIN + ii) + "): "
                            + got + " vs " + expected[ii]);
                }
            }
            short[] outRow = new short[LIN];
            for (long r = 0; r < C; r++) {
                MemorySegment.copy(o, ValueLayout.JAVA_SHORT_UNALIGNED, r * LIN * 2, outRow, 0, LIN);
                double outSum = 0;
                for (short bits : outRow) {
                    outSum += Float.float16ToFloat(bits);
                }
                double gradSum = 0;
                double gradAbs = 0;
                for (int j = 0; j < LOUT; j++) {
                    gradSum += value(r, j);
                    gradAbs += Math.abs(value(r, j));
                }
                double tolerance = ((terms + 2) * 0x1p-24 + 0x1p-11) * gradAbs + LIN * 0x1p-24;
                long rr = r;
                double sum = outSum;
                double expected = gradSum;
                assertTrue(Math.abs(outSum - gradSum) <= tolerance, () -> "row " + rr + ": out sums to " + sum
                        + ", gradOut to " + expected + " (tolerance " + tolerance + ")");
            }
            assertEquals(C * LIN, out.numel());
        }
    }
}
