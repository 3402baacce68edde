package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.opscv.runtime.DataType;
import io.opscv.runtime.PinnedScopes;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The in-place forms read gradOut at raw addresses, whole vectors at a time: every read must stay inside
 * gradOut's memory. Here gradOut and out end exactly where a page that may not be read or written begins
 * (mmap, then mprotect PROT_NONE), so a read past the last row's last position faults and ends the test JVM:
 * the per-group checks of each form (and of each run of groups, for periodic tables) are what prevent it.
 * Linux only.
 */
class GuardPageTest {
    private static final long PAGE = 4096;

    private static MethodHandle function(String name, FunctionDescriptor descriptor) {
        Linker linker = Linker.nativeLinker();
        return linker.downcallHandle(linker.defaultLookup().find(name).orElseThrow(), descriptor);
    }

    /** {@code bytes} of memory (rounded up to pages) that end where an unreadable page starts, freed with the arena. */
    private static MemorySegment beforeGuard(Arena arena, long bytes) throws Throwable {
        return guarded(arena, bytes, true);
    }

    /** {@code bytes} of memory next to an unreadable page: the page after them, or the one before. */
    private static MemorySegment guarded(Arena arena, long bytes, boolean guardAfter) throws Throwable {
        MethodHandle mmap = function("mmap", FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS,
                ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                ValueLayout.JAVA_LONG));
        MethodHandle mprotect = function("mprotect", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
        MethodHandle munmap = function("munmap", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                ValueLayout.JAVA_LONG));
        long pages = (bytes + PAGE - 1) / PAGE;
        long length = (pages + 1) * PAGE;
        // PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS.
        MemorySegment at = (MemorySegment) mmap.invokeExact(MemorySegment.NULL, length, 3, 0x22, -1, 0L);
        assertEquals(0, at.address() % PAGE, "mmap failed");
        MemorySegment mapping = at.reinterpret(length, arena, m -> {
            try {
                int unused = (int) munmap.invokeExact(m, length);
            } catch (Throwable e) {
                throw new AssertionError(e);
            }
        });
        int protect = (int) mprotect.invokeExact(mapping.asSlice(guardAfter ? pages * PAGE : 0), PAGE, 0);
        assertEquals(0, protect, "mprotect failed");
        return guardAfter ? mapping.asSlice(pages * PAGE - bytes, bytes) : mapping.asSlice(PAGE, bytes);
    }

    /**
     * {@code rows} whole rows of random gradOut through the vector provider's in-place form, in gradOut and out
     * that end where an unreadable page starts ({@code guardAfter}) or start where one ends, against the scalar
     * provider, byte for byte in the tensors' dtype.
     */
    private static void assertWholeRows(KernelProvider vector, LinearTable table, DataType type, int rows,
                                        boolean guardAfter, Random random, String where) throws Throwable {
        int lin = table.lin();
        int lout = table.lout();
        int size = type.byteSize();
        try (Arena arena = Arena.ofShared(); PinnedScopes.Hold hold = PinnedScopes.hold(arena.scope())) {
            MemorySegment gradOut = guarded(arena, (long) rows * lout * size, guardAfter);
            MemorySegment out = guarded(arena, (long) rows * lin * size, guardAfter);
            float[] g = new float[rows * lout];
            for (int k = 0; k < g.length; k++) {
                g[k] = random.nextFloat() - 0.5f;
            }
            ElementCodec.encode(g, 0, g.length, gradOut, type, 0, 1);
            ElementCodec.decode(gradOut, type, 0, 1, g.length, g, 0);
            vector.linearBackwardInPlace(table, 0, lin, rows, gradOut, 0, lout, out, 0, lin, type);
            float[] sums = new float[rows * lin];
            KernelProviders.scalar().linearBackward(table, 0, lin, rows, g, 0, lout, sums, 0, lin, null);
            MemorySegment expected = arena.allocate((long) rows * lin * size);
            ElementCodec.encode(sums, 0, sums.length, expected, type, 0, 1);
            assertArrayEquals(expected.toArray(ValueLayout.JAVA_BYTE), out.toArray(ValueLayout.JAVA_BYTE), where);
        }
    }

    @Test
    void noFormReadsOrWritesPastTheEndOfItsTensors() throws Throwable {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "mmap/mprotect of Linux");
        KernelProvider vector = KernelProviders.vector();
        assumeTrue(vector != null, "no vector provider");
        // {lin, lout, alignCorners}: 2x (periodic runs), 2x alignCorners (periodic), 1.5x, down4x (periodic), and
        // ratios from 2 to 4 (the wide form), with last groups of several lengths, exactly 4x and 8x.
        int[][] axes = {{1000, 2000, 0}, {1000, 1999, 1}, {1000, 1500, 0}, {4000, 1000, 0}, {48, 96, 0},
            {4096, 8192, 0}, {1001, 3003, 0}, {1000, 2500, 0}, {1000, 2200, 0}, {1003, 3900, 0}, {999, 2100, 1},
            {1010, 2600, 0}, {1020, 2700, 0}, {500, 2000, 0}, {300, 2400, 0},
            // Rows of at most a vector's inputs, many per call: whole vectors of gradOut past a row's span (40 of 48
            // positions, 33 of 48, 20 of 32) would reach past the last row; rows of one vector of gradOut, whose
            // second vector is never read.
            {16, 40, 0}, {10, 33, 0}, {8, 20, 1}, {16, 64, 0}, {4, 16, 0}, {8, 16, 0}};
        Random random = new Random(7);
        for (int[] axis : axes) {
            LinearTable table = LinearTable.of(axis[0], axis[1], axis[2] != 0, 0);
            for (DataType type : new DataType[] {DataType.FLOAT, DataType.BF16, DataType.FLOAT16}) {
                if (!vector.backwardInPlace(table, type)) {
                    continue;
                }
                // The short rows' form takes rows four at a time, then one by one: 8 rows end with a four.
                for (int rows : new int[] {1, 3, 8, 9, 10}) {
                    String where = axis[0] + " -> " + axis[1] + (axis[2] != 0 ? " ac " : " ") + type + " rows " + rows;
                    assertWholeRows(vector, table, type, rows, true, random, where);
                }
            }
        }
    }

    /**
     * A block of inputs [i0, i1) inside a row, as the driver's tasks hand them over: out holds the block's
     * outputs only, and gradOut whole rows or, the least the contract allows, the last row's positions only as
     * far as the block's span ({@code gatherTo(i1)}); each ends at a guard page. A run of groups carried past
     * i1 (a run of similar groups that the search let through the block's end) writes into the next row's
     * outputs, which the comparison catches, or faults at the last row; so does a run whose windows would read
     * past the last row's positions, and a run of the wide form's groups whose kept steps read from positions the
     * call's last row does not hold.
     */
    @Test
    void noFormReadsOrWritesPastTheEndOfItsBlock() throws Throwable {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "mmap/mprotect of Linux");
        KernelProvider vector = KernelProviders.vector();
        assumeTrue(vector != null, "no vector provider");
        // {lin, lout, alignCorners, i0, i1}: almost periodic tables (alignCorners at about 2x), whose runs of
        // similar groups go on past the block, a periodic one, downsampling; blocks that end with the row; ratios
        // whose runs reach the block's end with windows wider than the group's span.
        int[][] blocks = {{1000, 2000, 1, 96, 480}, {1000, 2000, 1, 512, 800}, {4096, 8192, 1, 1024, 2048},
            {1000, 1999, 1, 128, 512}, {1000, 2000, 0, 256, 512}, {4000, 1000, 0, 1024, 2048},
            {1000, 2000, 1, 0, 1000}, {4096, 8192, 1, 2048, 4096}, {1000, 2001, 1, 512, 1000}, {999, 1990, 1, 0, 999},
            // Ratios between 1 and 2: a group's terms span fewer positions than the two vectors its windows load.
            {1000, 1499, 1, 0, 1000}, {1000, 1499, 1, 200, 600}, {997, 1500, 1, 0, 997},
            // Ratios between 2 and 4 (the wide form's steps kept with the table, in runs of groups from a multiple of
            // the lanes): blocks that end inside a group, at the row's end, or with a group just short of 4x.
            {1200, 4440, 0, 512, 1000}, {1200, 4440, 0, 0, 700}, {1100, 3850, 1, 512, 1100}, {1200, 3000, 0, 256, 1200},
            {1000, 3990, 0, 496, 1000}};
        Random random = new Random(11);
        for (int[] b : blocks) {
            LinearTable table = LinearTable.of(b[0], b[1], b[2] != 0, 0);
            if (!vector.backwardInPlace(table, DataType.FLOAT)) {
                continue;
            }
            int lout = b[1];
            int i0 = b[3];
            int i1 = b[4];
            int count = i1 - i0;
            int span = table.gatherTo(i1) - table.gatherFrom(i0);
            for (int rows : new int[] {1, 2, 5, 8}) {
                // gradOut holds whole rows, or the last row's positions only as far as the block's span.
                for (boolean wholeRows : new boolean[] {true, false}) {
                    String where = b[0] + " -> " + lout + (b[2] != 0 ? " ac" : "") + " inputs [" + i0 + ", " + i1
                            + ") rows " + rows + (wholeRows ? " whole gradOut rows" : " gradOut ends with the span");
                    try (Arena arena = Arena.ofShared(); PinnedScopes.Hold hold = PinnedScopes.hold(arena.scope())) {
                        // Row r's position gatherFrom(i0) at r·lout + first.
                        int first = wholeRows ? table.gatherFrom(i0) : 0;
                        int positions = wholeRows ? rows * lout : (rows - 1) * lout + span;
                        MemorySegment gradOut = beforeGuard(arena, 4L * positions);
                        MemorySegment out = beforeGuard(arena, 4L * rows * count);
                        float[] g = new float[positions];
                        for (int k = 0; k < g.length; k++) {
                            g[k] = random.nextFloat() - 0.5f;
                        }
                        MemorySegment.copy(g, 0, gradOut, ValueLayout.JAVA_FLOAT, 0, g.length);
                        vector.linearBackwardInPlace(table, i0, i1, rows, gradOut, first, lout, out, 0, count,
                                DataType.FLOAT);
                        float[] sums = new float[rows * count];
                        KernelProviders.scalar().linearBackward(table, i0, i1, rows, g, first, lout, sums, 0, count,
                                null);
                        assertArrayEquals(sums, out.toArray(ValueLayout.JAVA_FLOAT), where);
                    }
                }
            }
        }
    }

    /**
     * Every read stays after gradOut's start too: gradOut and out begin right after a page that may not be read.
     * The wide form's step-table form moves its window back from a group's first position where the window would
     * reach past gradOut's end, but never before the block's first position: without that bound, the first group
     * of a row of more than L inputs and fewer than 4L outputs, in a call of one to three rows, reads before
     * gradOut (at 512 bits: 20 → 50, 24 → 60, 17 → 40).
     */
    @Test
    void noFormReadsBeforeTheStartOfItsTensors() throws Throwable {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "mmap/mprotect of Linux");
        KernelProvider vector = KernelProviders.vector();
        assumeTrue(vector != null, "no vector provider");
        // {lin, lout, alignCorners}: rows of more than L inputs but fewer than 4L outputs at ratios 2 to 4 (the wide
        // form's first group would move its window before gradOut), short rows (the wide form below 8 rows, the
        // short-rows form from 8), long rows of the wide form, and the windowed form.
        int[][] axes = {{20, 50, 0}, {24, 60, 0}, {17, 40, 1}, {10, 33, 0}, {16, 40, 0}, {5, 17, 0}, {16, 60, 1},
            {1000, 3700, 0}, {300, 1000, 1}, {1000, 2000, 0}, {16, 64, 0}};
        Random random = new Random(5);
        for (int[] axis : axes) {
            LinearTable table = LinearTable.of(axis[0], axis[1], axis[2] != 0, 0);
            if (!vector.backwardInPlace(table, DataType.FLOAT)) {
                continue;
            }
            for (int rows : new int[] {1, 2, 3, 9}) {
                String where = axis[0] + " -> " + axis[1] + (axis[2] != 0 ? " ac" : "") + " rows " + rows;
                assertWholeRows(vector, table, DataType.FLOAT, rows, false, random, where);
            }
        }
    }
}
