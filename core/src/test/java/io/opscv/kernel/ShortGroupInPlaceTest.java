package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.opscv.runtime.DataType;
import io.opscv.runtime.PinnedScopes;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Groups of at most one vector's inputs summed for many rows per call (the vector provider's step-table form,
 * {@code backwardInPlaceShort}), called directly: groups inside a row and at its end (the last input's left-tap
 * terms twice), groups whose terms reach past four vectors or that have more terms per lane than the form takes
 * (both fall back to the other in-place forms; so do calls whose last row's whole vectors would reach past gradOut),
 * 7 to 33 rows (the two-row loop and its tail), row strides wider
 * than the rows, and NaN, infinities and -0 in gradOut. Bit for bit against the scalar provider, NaNs made canonical.
 */
class ShortGroupInPlaceTest {
    @Test
    void shortGroupsMatchTheScalarProvider() {
        KernelProvider vector = KernelProviders.vector();
        assumeTrue(vector != null, "no vector provider");
        // {lin, lout, alignCorners, scales x 10}.
        int[][] axes = {{16, 64, 0, 0}, {16, 64, 1, 0}, {16, 32, 0, 0}, {13, 39, 1, 0}, {16, 40, 0, 0}, {8, 16, 0, 0},
            {16, 5, 0, 0}, {1, 4, 0, 0}, {2, 7, 1, 0}, {100, 400, 0, 0}, {100, 250, 1, 0}, {40, 100, 0, 0},
            {16, 64, 0, 2}, {16, 48, 0, 35}, {60, 200, 0, 0}};
        Random random = new Random(11);
        int lanes = 16;
        for (int[] axis : axes) {
            int lin = axis[0];
            int lout = axis[1];
            LinearTable table = LinearTable.of(lin, lout, axis[2] != 0, axis[3] / 10.0);
            if (!vector.backwardInPlace(table, DataType.FLOAT)) {
                continue;
            }
            for (int trial = 0; trial < 12; trial++) {
                // Whole vectors of inputs in the first two trials (at a ratio of 4, their terms span 68 positions).
                int count = trial < 2 ? Math.min(lin, lanes) : 1 + random.nextInt(Math.min(lin, lanes));
                // Every third group ends at the row's last input.
                int i0 = trial % 3 == 0 ? lin - count : random.nextInt(lin - count + 1);
                int i1 = i0 + count;
                int rows = new int[] {7, 8, 9, 10, 33}[trial % 5];
                int jLo = table.gatherFrom(i0);
                int span = table.gatherTo(i1) - jLo;
                int gRowStride = span + random.nextInt(3) * 17;
                int oRowStride = count + random.nextInt(3) * 5;
                int gFloats = (rows - 1) * gRowStride + span;
                int oFloats = (rows - 1) * oRowStride + count;
                float[] g = new float[gFloats];
                for (int k = 0; k < gFloats; k++) {
                    int pick = random.nextInt(60);
                    g[k] = pick == 0 ? Float.NaN : pick == 1 ? Float.POSITIVE_INFINITY
                            : pick == 2 ? Float.NEGATIVE_INFINITY : pick == 3 ? -0f : (float) random.nextGaussian();
                }
                float[] expected = new float[oFloats];
                KernelProviders.scalar().linearBackward(table, i0, i1, rows, g, 0, gRowStride, expected, 0, oRowStride,
                        null);
                String where = lin + " -> " + lout + (axis[2] != 0 ? " ac" : "") + " scales " + axis[3] / 10.0 + " ["
                        + i0 + ", " + i1 + ") rows " + rows;
                try (Arena arena = Arena.ofShared(); PinnedScopes.Hold hold = PinnedScopes.hold(arena.scope())) {
                    // Half the trials leave room after the last row (then only the span limits the form, not
                    // gradOut's end).
                    MemorySegment gradOut = arena.allocate(4L * (gFloats + (trial % 2) * 64), 64);
                    MemorySegment.copy(g, 0, gradOut, ValueLayout.JAVA_FLOAT, 0, gFloats);
                    MemorySegment out = arena.allocate(4L * oFloats, 64);
                    out.fill((byte) 0x55);
                    // gradOut's element 0 is the first row's position jLo, the first its inputs gather from.
                    vector.linearBackwardInPlace(table, i0, i1, rows, gradOut, 0, gRowStride, out, 0, oRowStride,
                            DataType.FLOAT);
                    for (int r = 0; r < rows; r++) {
                        for (int q = 0; q < count; q++) {
                            int e = r * oRowStride + q;
                            assertEquals(KernelCase.canonical(Float.floatToRawIntBits(expected[e]), DataType.FLOAT),
                                    KernelCase.canonical(Float.floatToRawIntBits(out.getAtIndex(ValueLayout.JAVA_FLOAT, e)),
                                            DataType.FLOAT), where + ": row " + r + ", input " + (i0 + q));
                        }
                        // Between rows, out is not touched.
                        for (int q = count; q < oRowStride && r < rows - 1; q++) {
                            assertEquals(0x55555555, out.getAtIndex(ValueLayout.JAVA_INT, r * oRowStride + q), where);
                        }
                    }
                }
            }
        }
    }
}
