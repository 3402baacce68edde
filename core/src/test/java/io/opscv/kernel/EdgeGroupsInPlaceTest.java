package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.opscv.runtime.DataType;
import io.opscv.runtime.PinnedScopes;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The windowed in-place forms' edges with many rows per call (the vector provider's {@code linearBackwardInPlace} at
 * ratios up to 2, called directly, as the driver calls it for rows shorter than its blocks): the group with the
 * last input and the groups whose windows do not fit (the first, whose clamped sources give the first inputs a
 * third term) take the short form's step table once per call (FLOAT) or through FLOAT scratch ({@code
 * edgeGroup16}, BF16 and FP16; more rows than one pass of its scratch too), and a partial last group is summed as
 * the whole group that ends where it does; runs of groups of periodic tables go across a few rows at a time
 * ({@code ROW_BAND}). Calls of whole rows and of blocks inside rows, ending at the last input
 * or not, shorter than two vectors (no whole group before the last one), 7 rows (below the step table's minimum)
 * to 70; NaN, infinities, -0, and for the 16-bit types values whose sums round past the largest finite one. Bit for
 * bit against the scalar provider (NaNs made canonical), and out untouched between rows.
 */
class EdgeGroupsInPlaceTest {
    @ParameterizedTest
    @EnumSource(value = DataType.class, names = {"FLOAT", "BF16", "FLOAT16"})
    void edgesMatchTheScalarProvider(DataType type) {
        KernelProvider vector = KernelProviders.vector();
        assumeTrue(vector != null, "no vector provider");
        // {lin, lout, alignCorners}: periodic 2x, almost periodic (alignCorners), irregular, downsampling (periodic
        // at 2x, 4x and 1.25x: runs of groups, a few rows at a time).
        int[][] axes = {{128, 256, 0}, {256, 512, 1}, {100, 200, 0}, {57, 100, 1}, {200, 150, 0}, {300, 100, 0},
            {130, 261, 1}, {64, 128, 0}, {40, 80, 0}, {33, 66, 0}, {1000, 2000, 1}, {90, 170, 0}, {256, 128, 0},
            {512, 128, 0}, {160, 200, 0}, {512, 170, 0}};
        Random random = new Random(17 + type.ordinal());
        int size = (int) type.byteSize();
        for (int[] axis : axes) {
            int lin = axis[0];
            int lout = axis[1];
            LinearTable table = LinearTable.of(lin, lout, axis[2] != 0, 0);
            if (!vector.backwardInPlace(table, type)) {
                continue;
            }
            for (int trial = 0; trial < 10; trial++) {
                int i0;
                int i1;
                switch (trial % 5) {
                    case 0 -> {
                        i0 = 0;
                        i1 = lin;
                    }
                    case 1 -> {
                        i0 = random.nextInt(lin / 2);
                        i1 = lin;
                    }
                    case 2 -> {
                        i0 = 0;
                        i1 = lin / 2 + random.nextInt(lin / 2);
                    }
                    case 3 -> {
                        // Fewer than two vectors, ending at the last input.
                        i0 = Math.max(0, lin - 17 - random.nextInt(14));
                        i1 = lin;
                    }
                    default -> {
                        i0 = random.nextInt(lin / 3);
                        i1 = i0 + 1 + random.nextInt(lin - i0);
                    }
                }
                int count = i1 - i0;
                int rows = new int[] {7, 8, 9, 13, 40, 70}[trial % 6];
                int jLo = table.gatherFrom(i0);
                int span = table.gatherTo(i1) - jLo;
                int gRowStride = span + random.nextInt(3) * 17;
                int oRowStride = count + random.nextInt(3) * 5;
                int gElements = (rows - 1) * gRowStride + span;
                int oElements = (rows - 1) * oRowStride + count;
                String where = type + " " + lin + " -> " + lout + (axis[2] != 0 ? " ac" : "") + " [" + i0 + ", " + i1
                        + ") rows " + rows;
                try (Arena arena = Arena.ofShared(); PinnedScopes.Hold hold = PinnedScopes.hold(arena.scope())) {
                    // Half the trials leave room after the last row, the others end gradOut at its span.
                    MemorySegment gradOut = arena.allocate((long) size * (gElements + (trial % 2) * 64), 64);
                    for (int k = 0; k < gElements; k++) {
                        int pick = random.nextInt(80);
                        float v = pick == 0 ? Float.NaN : pick == 1 ? Float.POSITIVE_INFINITY
                                : pick == 2 ? Float.NEGATIVE_INFINITY : pick == 3 ? -0f
                                : pick == 4 ? 60000f : (float) random.nextGaussian();
                        ElementCodec.encode(new float[] {v}, 0, 1, gradOut, type, k, 1);
                    }
                    // The reference: the same elements widened, summed by the scalar provider, rounded back.
                    float[] g = new float[gElements];
                    ElementCodec.decode(gradOut, type, 0, 1, gElements, g, 0);
                    float[] sums = new float[oElements];
                    KernelProviders.scalar().linearBackward(table, i0, i1, rows, g, 0, gRowStride, sums, 0, oRowStride,
                            null);
                    MemorySegment expected = arena.allocate((long) size * oElements, 64);
                    ElementCodec.encode(sums, 0, oElements, expected, type, 0, 1);
                    MemorySegment out = arena.allocate((long) size * oElements, 64);
                    out.fill((byte) 0x55);
                    // gradOut's element 0 is the first row's position jLo, the first its inputs gather from.
                    vector.linearBackwardInPlace(table, i0, i1, rows, gradOut, 0, gRowStride, out, 0, oRowStride, type);
                    for (int r = 0; r < rows; r++) {
                        for (int q = 0; q < count; q++) {
                            int e = r * oRowStride + q;
                            assertEquals(KernelCase.canonical(bits(expected, e, type), type),
                                    KernelCase.canonical(bits(out, e, type), type),
                                    where + ": row " + r + ", input " + (i0 + q));
                        }
                        // Between rows, out is not touched.
                        for (int q = count; q < oRowStride && r < rows - 1; q++) {
                            assertEquals(size == 4 ? 0x55555555 : 0x5555, bits(out, r * oRowStride + q, type), where);
                        }
                    }
                }
            }
        }
    }

    private static int bits(MemorySegment segment, long element, DataType type) {
        return type.byteSize() == 4 ? segment.getAtIndex(ValueLayout.JAVA_INT, element)
                : Short.toUnsignedInt(segment.getAtIndex(ValueLayout.JAVA_SHORT, element));
    }
}
