package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.opscv.runtime.DataType;
import io.opscv.runtime.PinnedScopes;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The wide form's steps kept with the table (the vector provider's {@code WideSteps}), called directly at ratios
 * from 2.5 to 4 and at irregular ones between 1 and 2: blocks from a multiple of the vector's lanes (the kept steps,
 * runs of groups across chunks of 32 groups, cut by the block's end) and from elsewhere (steps made per group), 1 to
 * 11 rows (four at a time and the rest one by one), row strides wider than the rows, gradOut ending at the last
 * row's span (its last groups then read from lower positions, with steps of their own) or with room after it, calls
 * on one table from several threads at once, NaN, infinities and -0 in gradOut, and infinities at each row's last
 * positions; FLOAT, BF16 and FP16 (whose groups take the same steps from gradOut widened in registers; FP16 rows
 * with an infinity or a NaN are redone by the buffered form; groups the kept steps do not take, at ratios from about
 * 3.75 to 4, go through FLOAT scratch and the FLOAT wide form, more than one pass of rows at 4x). Bit for bit
 * against the scalar provider, NaNs made canonical; out between rows untouched.
 */
class WideStepsTest {
    /**
     * {lin, lout, alignCorners, scales x 10}: 3.7x, 2.5x, 3.5x alignCorners, 4x, explicit scales, just under 4x, and
     * ratios between 1 and 2 that repeat no pattern (the vector provider takes the wide form for them too).
     */
    private static final int[][] AXES = {{1200, 4440, 0, 0}, {1200, 3000, 0, 0}, {1100, 3850, 1, 0},
        {1030, 4120, 0, 0}, {700, 2590, 0, 37}, {1000, 3990, 0, 0}, {1200, 1441, 0, 0}, {1100, 2013, 0, 0},
        {1000, 1301, 1, 0}};

    @Test
    void keptStepsMatchTheScalarProvider() {
        KernelProvider vector = KernelProviders.vector();
        assumeTrue(vector != null, "no vector provider");
        Random random = new Random(29);
        for (DataType type : new DataType[] {DataType.FLOAT, DataType.BF16, DataType.FLOAT16}) {
            for (int[] axis : AXES) {
                LinearTable table = LinearTable.of(axis[0], axis[1], axis[2] != 0, axis[3] / 10.0);
                for (int[] block : blocks(axis[0])) {
                    // 20 rows: more than one pass of the 16-bit calls' FLOAT scratch at 4x (15 rows of 512 inputs).
                    for (int rows : new int[] {1, 3, 4, 5, 8, 11, 20}) {
                        check(vector, table, type, axis, block[0], block[1], rows, random.nextLong(), rows % 2 == 0,
                                false);
                    }
                    // Infinities at each row's last positions, the last input's clamped outputs, whose two taps
                    // both land on it (the doubled terms the kept steps do not take; the group holding it has
                    // steps of its own).
                    check(vector, table, type, axis, block[0], block[1], 4, random.nextLong(), true, true);
                }
            }
        }
    }

    @Test
    void threadsSharingATableGetTheSameSums() throws Exception {
        KernelProvider vector = KernelProviders.vector();
        assumeTrue(vector != null, "no vector provider");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int[] axis : AXES) {
                // A new table: the threads make its chunks of steps between them.
                LinearTable table = LinearTable.of(axis[0], axis[1], axis[2] != 0, axis[3] / 10.0);
                List<Future<?>> calls = new ArrayList<>();
                for (int thread = 0; thread < 4; thread++) {
                    long seed = 1000L * thread + axis[0];
                    DataType type = new DataType[] {DataType.FLOAT, DataType.BF16, DataType.FLOAT16}[thread % 3];
                    calls.add(pool.submit(() -> {
                        for (int[] block : blocks(axis[0])) {
                            check(vector, table, type, axis, block[0], block[1], 6, seed + block[0], false, false);
                        }
                    }));
                }
                for (Future<?> call : calls) {
                    call.get();
                }
            }
        } finally {
            pool.shutdown();
        }
    }

    /**
     * Steps are kept across calls for equal axes (every call has a table of its own): two axes with the same inputs,
     * outputs and step but another shift (alignCorners against half-pixel with scales 3, both a step of 1/3) must
     * not share them. New tables each time, the two axes in turn.
     */
    @Test
    void keptStepsAreNotSharedAcrossShifts() {
        KernelProvider vector = KernelProviders.vector();
        assumeTrue(vector != null, "no vector provider");
        int[][] axes = {{1201, 3601, 1, 0}, {1201, 3601, 0, 30}};
        assertEquals(LinearTable.scale(1201, 3601, true, 0), LinearTable.scale(1201, 3601, false, 3.0));
        Random random = new Random(3);
        for (int round = 0; round < 4; round++) {
            for (int[] axis : axes) {
                LinearTable table = LinearTable.of(axis[0], axis[1], axis[2] != 0, axis[3] / 10.0);
                DataType type = new DataType[] {DataType.FLOAT, DataType.BF16, DataType.FLOAT16}[round % 3];
                check(vector, table, type, axis, 0, axis[0], 5, random.nextLong(), false, false);
            }
        }
    }

    /**
     * Exactly 4x and 8x (the fourfold and eightfold forms: a run's groups in registers, FP16 rows with an infinity or
     * a NaN summed again through FLOAT scratch): one infinity or NaN at each of a row's first 200 positions in turn
     * (at 8x also around the end of the run), among finite values, in calls from input 0 and from input 16.
     */
    @Test
    void aLoneInfinityOrNaNAtExactly4xAnd8x() {
        KernelProvider vector = KernelProviders.vector();
        assumeTrue(vector != null, "no vector provider");
        for (int[] axis : new int[][] {{300, 1200, 0, 0}, {100, 800, 0, 0}}) {
            LinearTable table = LinearTable.of(axis[0], axis[1], false, 0);
            int[] positions = axis[1] == 1200 ? java.util.stream.IntStream.range(0, 200).toArray()
                    : java.util.stream.IntStream.concat(java.util.stream.IntStream.range(0, 200),
                    java.util.stream.IntStream.range(axis[1] - 200, axis[1] - 1)).toArray();
            for (DataType type : new DataType[] {DataType.FLOAT, DataType.BF16, DataType.FLOAT16}) {
                for (int lone : positions) {
                    check(vector, table, type, axis, lone % 3 == 0 ? 16 : 0, axis[0], 3, lone, lone % 2 == 0, false,
                            lone);
                }
            }
        }
    }

    /** Blocks of a row of {@code lin} inputs: whole, from multiples of 16 and 512, from elsewhere, to the end. */
    private static int[][] blocks(int lin) {
        int tail = (lin - 300) / 16 * 16;
        return new int[][] {{0, lin}, {512, lin}, {0, 560}, {16, 700}, {8, 600}, {tail, lin}, {tail + 5, lin - 1},
            {32, 48}};
    }

    private static void check(KernelProvider vector, LinearTable table, DataType type, int[] axis, int i0, int i1,
                              int rows, long seed, boolean room, boolean infiniteEnds) {
        check(vector, table, type, axis, i0, i1, rows, seed, room, infiniteEnds, -1);
    }

    /**
     * As above; with {@code lone} at least 0, gradOut is finite but for one infinity (a NaN for odd {@code lone}) at
     * position {@code lone} of row {@code lone % rows}.
     */
    private static void check(KernelProvider vector, LinearTable table, DataType type, int[] axis, int i0, int i1,
                              int rows, long seed, boolean room, boolean infiniteEnds, int lone) {
        Random random = new Random(seed);
        int count = i1 - i0;
        int jLo = table.gatherFrom(i0);
        int span = table.gatherTo(i1) - jLo;
        int gRowStride = span + random.nextInt(3) * 17;
        int oRowStride = count + random.nextInt(3) * 5;
        int gFloats = (rows - 1) * gRowStride + span;
        int oFloats = (rows - 1) * oRowStride + count;
        int size = type.byteSize();
        float[] g = new float[gFloats];
        for (int k = 0; k < gFloats; k++) {
            int pick = lone >= 0 ? 200 : random.nextInt(200);
            g[k] = pick == 0 ? Float.NaN : pick == 1 ? Float.POSITIVE_INFINITY
                    : pick == 2 ? Float.NEGATIVE_INFINITY : pick == 3 ? -0f : (float) random.nextGaussian();
        }
        for (int r = 0; r < rows && infiniteEnds; r++) {
            for (int k = Math.max(0, span - 4); k < span; k++) {
                g[r * gRowStride + k] = Float.POSITIVE_INFINITY;
            }
        }
        if (lone >= 0) {
            g[lone % rows * gRowStride + lone % span] = lone % 2 == 0 ? Float.POSITIVE_INFINITY : Float.NaN;
        }
        String where = (lone >= 0 ? "lone special at " + lone + ", " : "") + type + " " + axis[0] + " -> " + axis[1] + (axis[2] != 0 ? " ac" : "") + " scales "
                + axis[3] / 10.0 + " [" + i0 + ", " + i1 + ") rows " + rows + (room ? " with room" : "")
                + (infiniteEnds ? " infinities at the ends" : "");
        try (Arena arena = Arena.ofShared(); PinnedScopes.Hold hold = PinnedScopes.hold(arena.scope())) {
            MemorySegment gradOut = arena.allocate((long) size * (gFloats + (room ? 64 : 0)), 64);
            // The reference sums gradOut as the dtype holds it, and its sums are rounded to the dtype.
            ElementCodec.encode(g, 0, gFloats, gradOut, type, 0, 1);
            ElementCodec.decode(gradOut, type, 0, 1, gFloats, g, 0);
            float[] sums = new float[oFloats];
            KernelProviders.scalar().linearBackward(table, i0, i1, rows, g, 0, gRowStride, sums, 0, oRowStride, null);
            MemorySegment expected = arena.allocate((long) size * oFloats, 64);
            ElementCodec.encode(sums, 0, oFloats, expected, type, 0, 1);
            MemorySegment out = arena.allocate((long) size * oFloats, 64);
            out.fill((byte) 0x55);
            vector.linearBackwardInPlace(table, i0, i1, rows, gradOut, 0, gRowStride, out, 0, oRowStride, type);
            for (int r = 0; r < rows; r++) {
                for (int q = 0; q < count; q++) {
                    int e = r * oRowStride + q;
                    assertEquals(KernelCase.canonical(bits(expected, type, e), type),
                            KernelCase.canonical(bits(out, type, e), type), where + ": row " + r + ", input " + (i0 + q));
                }
                for (int q = count; q < oRowStride && r < rows - 1; q++) {
                    assertEquals(type == DataType.FLOAT ? 0x55555555 : 0x5555, bits(out, type, r * oRowStride + q),
                            where);
                }
            }
        }
    }

    private static int bits(MemorySegment segment, DataType type, int element) {
        return type == DataType.FLOAT ? segment.getAtIndex(ValueLayout.JAVA_INT, element)
                : Short.toUnsignedInt(segment.getAtIndex(ValueLayout.JAVA_SHORT, element));
    }
}
