package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.opscv.runtime.DataType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The vector provider's rows moved straight between a tensor and the lanes ({@link KernelProvider#rowsToLanes},
 * {@link KernelProvider#lanesToRows}; at 8 lanes, and for FLOAT and BF16 at 16, {@link RowTransposes}) give the codec's
 * element-by-element bits ({@link ElementCodec}), for whole groups of rows and partial ones (the lanes past the rows
 * start outside the segment: they must be neither read nor written), counts of whole blocks and of partial ones, rows
 * that end the segment or not, on random bit patterns (NaNs, infinities and subnormals among them; FP16 also without
 * them, which its widening in registers handles apart), and write nothing outside the rows' positions; where the provider
 * declines (FP16 writes and partial groups, other widths), nothing is moved.
 */
class RowsToLanesTest {
    private static final KernelProvider VECTOR = KernelProviders.vector();
    private static final int[] COUNTS = {1, 5, 8, 13, 16, 24, 37, 64, 71, 128, 141, 173};

    @ParameterizedTest
    @EnumSource(value = DataType.class, names = {"FLOAT", "BF16", "FLOAT16"})
    void rowsReadIntoTheLanesAreTheCodecsWidening(DataType type) {
        assumeTrue(VECTOR != null);
        Random random = new Random(41);
        for (int rows : rowCounts()) {
            for (int count : COUNTS) {
                // Rows with room after them for a whole last vector (FP16 then without specials), and rows that end
                // the segment.
                readsLikeTheCodec(type, rows, count, 3 * VECTOR.lanes(), random);
                readsLikeTheCodec(type, rows, count, 0, random);
            }
        }
    }

    private static void readsLikeTheCodec(DataType type, int rows, int count, int slack, Random random) {
        int lanes = VECTOR.lanes();
        try (Arena arena = Arena.ofConfined()) {
            long[] starts = starts(lanes, rows, count, random);
            long from = 2;
            MemorySegment seg = randomBits(arena, type, starts[rows - 1] + from + count + slack, random);
            if (slack > 0) {
                finite(seg, type);
            }
            float[] actual = new float[roundUp(count, lanes) * lanes + lanes];
            boolean moved = VECTOR.rowsToLanes(seg, type, starts, rows, from, count, actual, new float[2 * lanes * lanes]);
            assertTrue(moved || lanes != 8 || type == DataType.FLOAT16 && rows < lanes,
                    type + " at 8 lanes moves in registers");
            assertTrue(moved || lanes != 16 || type == DataType.FLOAT16, type + " at 16 lanes moves in registers");
            if (!moved) {
                assertTrue(java.util.Arrays.equals(actual, new float[actual.length]), "declined, yet read");
                return;
            }
            float[] row = new float[count];
            for (int l = 0; l < rows; l++) {
                ElementCodec.decode(seg, type, starts[l] + from, 1, count, row, 0);
                for (int k = 0; k < count; k++) {
                    assertEquals(KernelCase.canonical(Float.floatToRawIntBits(row[k]), DataType.FLOAT),
                            KernelCase.canonical(Float.floatToRawIntBits(actual[k * lanes + l]), DataType.FLOAT),
                            type + " rows " + rows + " count " + count + " slack " + slack + " row " + l
                                    + " position " + k);
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = DataType.class, names = {"FLOAT", "BF16", "FLOAT16"})
    void lanesWrittenToRowsAreTheCodecsRoundingAndNothingElse(DataType type) {
        assumeTrue(VECTOR != null);
        Random random = new Random(43);
        for (int rows : rowCounts()) {
            for (int count : COUNTS) {
                writesLikeTheCodec(type, rows, count, random);
            }
        }
    }

    private static void writesLikeTheCodec(DataType type, int rows, int count, Random random) {
        int lanes = VECTOR.lanes();
        try (Arena arena = Arena.ofConfined()) {
            long[] starts = starts(lanes, rows, count, random);
            long from = 3;
            long elements = starts[rows - 1] + from + count + (count % 2) * 3 * lanes;
            MemorySegment actual = randomBits(arena, type, elements, random);
            MemorySegment original = arena.allocate(actual.byteSize(), 4).copyFrom(actual);
            MemorySegment expected = arena.allocate(actual.byteSize(), 4).copyFrom(actual);
            int tileStride = roundUp(count, lanes);
            float[] values = new float[tileStride * lanes + lanes];
            for (int k = 0; k < values.length; k++) {
                // Random bits: ties, NaNs, infinities, subnormals and values past FP16's range all occur.
                values[k] = random.nextInt(4) == 0 ? Float.intBitsToFloat(random.nextInt())
                        : (float) (random.nextGaussian() * Math.pow(2, random.nextInt(40) - 20));
            }
            float[] row = new float[count];
            for (int l = 0; l < rows; l++) {
                for (int k = 0; k < count; k++) {
                    row[k] = values[k * lanes + l];
                }
                ElementCodec.encode(row, 0, count, expected, type, starts[l] + from, 1);
            }
            boolean moved = VECTOR.lanesToRows(values, count, actual, type, starts, rows, from,
                    new float[2 * lanes * lanes]);
            assertTrue(moved || lanes != 8 || type == DataType.FLOAT16, type + " at 8 lanes moves in registers");
            assertTrue(moved || lanes != 16 || type == DataType.FLOAT16, type + " at 16 lanes moves in registers");
            if (!moved) {
                // Declined: nothing may have been written.
                expected.copyFrom(original);
            }
            for (long e = 0; e < elements; e++) {
                int want = bits(expected, type, e);
                int got = bits(actual, type, e);
                assertEquals(KernelCase.canonical(want, type), KernelCase.canonical(got, type),
                        type + " rows " + rows + " count " + count + " element " + e);
            }
        }
    }

    /** A whole group, and partial ones (a last group of fewer rows than lanes). */
    private static int[] rowCounts() {
        int lanes = VECTOR.lanes();
        return java.util.stream.IntStream.of(lanes, lanes - 1, 3, 1).filter(r -> r >= 1 && r <= lanes).distinct()
                .toArray();
    }

    /**
     * Row starts a little more than a row apart, unevenly, none aligned to a vector; the lanes past {@code rows}
     * start far outside any segment, so that a read or write of them fails.
     */
    private static long[] starts(int lanes, int rows, int count, Random random) {
        long[] starts = new long[lanes];
        long at = 1 + random.nextInt(5);
        for (int l = 0; l < lanes; l++) {
            starts[l] = l < rows ? at : 1L << 40;
            at += count + 1 + random.nextInt(7);
        }
        return starts;
    }

    private static MemorySegment randomBits(Arena arena, DataType type, long elements, Random random) {
        MemorySegment seg = arena.allocate(elements * type.byteSize(), 4);
        for (long b = 0; b < seg.byteSize(); b++) {
            seg.set(java.lang.foreign.ValueLayout.JAVA_BYTE, b, (byte) random.nextInt());
        }
        return seg;
    }

    /** FP16 infinities and NaNs made finite: blocks without them skip the widening's branch for them. */
    private static void finite(MemorySegment seg, DataType type) {
        if (type != DataType.FLOAT16) {
            return;
        }
        for (long at = 0; at < seg.byteSize(); at += 2) {
            short h = seg.get(ElementCodec.U16, at);
            if ((h & 0x7c00) == 0x7c00) {
                seg.set(ElementCodec.U16, at, (short) (h & ~0x4000));
            }
        }
    }

    private static int bits(MemorySegment seg, DataType type, long e) {
        return type == DataType.FLOAT ? Float.floatToRawIntBits(seg.get(ElementCodec.F32, e * 4))
                : seg.get(ElementCodec.U16, e * 2) & 0xffff;
    }

    private static int roundUp(int count, int lanes) {
        return (count + lanes - 1) / lanes * lanes;
    }
}
