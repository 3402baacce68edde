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
        int protect = (int) mprotect.invokeExact(mapping.asSlice(pages * PAGE), PAGE, 0);
        assertEquals(0, protect, "mprotect failed");
        return mapping.asSlice(pages * PAGE - bytes, bytes);
    }

    @Test
    void noFormReadsOrWritesPastTheEndOfItsTensors() throws Throwable {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "mmap/mprotect of Linux");
        KernelProvider vector = KernelProviders.vector();
        assumeTrue(vector != null, "no vector provider");
        // {lin, lout, alignCorners}: 2x (periodic runs), 2x alignCorners (periodic), 1.5x, down4x (periodic), and
        // ratios from 2 to 4 (the wide form), with last groups of several lengths.
        int[][] axes = {{1000, 2000, 0}, {1000, 1999, 1}, {1000, 1500, 0}, {4000, 1000, 0}, {48, 96, 0},
            {4096, 8192, 0}, {1001, 3003, 0}, {1000, 2500, 0}, {1000, 2200, 0}, {1003, 3900, 0}, {999, 2100, 1},
            {1010, 2600, 0}, {1020, 2700, 0},
            // Rows of at most a vector's inputs, many per call: whole vectors of gradOut past a row's span (40 of 48
            // positions, 33 of 48, 20 of 32) would reach past the last row.
            {16, 40, 0}, {10, 33, 0}, {8, 20, 1}, {16, 64, 0}};
        Random random = new Random(7);
        for (int[] axis : axes) {
            LinearTable table = LinearTable.of(axis[0], axis[1], axis[2] != 0, 0);
            for (DataType type : new DataType[] {DataType.FLOAT, DataType.BF16, DataType.FLOAT16}) {
                if (!vector.backwardInPlace(table, type)) {
                    continue;
                }
                for (int rows : new int[] {1, 3, 9, 10}) {
                    String where = axis[0] + " -> " + axis[1] + (axis[2] != 0 ? " ac " : " ") + type + " rows " + rows;
                    int lin = axis[0];
                    int lout = axis[1];
                    int size = type.byteSize();
                    try (Arena arena = Arena.ofShared(); PinnedScopes.Hold hold = PinnedScopes.hold(arena.scope())) {
                        MemorySegment gradOut = beforeGuard(arena, (long) rows * lout * size);
                        MemorySegment out = beforeGuard(arena, (long) rows * lin * size);
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
                        assertArrayEquals(expected.toArray(ValueLayout.JAVA_BYTE), out.toArray(ValueLayout.JAVA_BYTE),
                                where);
                    }
                }
            }
        }
    }
}
