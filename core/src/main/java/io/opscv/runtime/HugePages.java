package io.opscv.runtime;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Large device memory on Linux: an anonymous {@code mmap} (zeroed by the kernel, so the allocation
 * writes nothing), aligned to 2 MiB, with {@code madvise(MADV_HUGEPAGE)} on its whole 2 MiB pages, so
 * that the kernel backs it with transparent huge pages where it can (the machines here run THP in
 * {@code madvise} mode: nothing gets huge pages unless it asks). The kernels stream many rows at
 * once; with 4 KiB pages each stream crosses a page, and its TLB entry and the prefetchers' page
 * boundary, every 4 KiB. Measured with {@code bin/opscv bench}, five rounds alternating with and
 * without.
 *
 * <p>Used only when it can be used quietly: on Linux, with native access enabled for this module
 * ({@code --enable-native-access}; otherwise the JDK would print a warning at the first downcall),
 * and when {@code mmap} succeeds; {@link #allocate} returns null otherwise and the caller takes the
 * arena's memory. A {@code madvise} the kernel refuses (no THP) leaves ordinary pages. The mapping
 * ends with the arena ({@code munmap} as its cleanup).
 */
final class HugePages {
    /** Allocations from this size on are mapped (below it, the tail's small pages would be most of it). */
    static final long THRESHOLD = 16L << 20;
    private static final long HUGE_PAGE = 2L << 20;
    private static final int PROT_READ_WRITE = 0x1 | 0x2;
    private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
    private static final int MADV_HUGEPAGE = 14;
    private static final MethodHandle MMAP;
    private static final MethodHandle MADVISE;
    private static final MethodHandle MUNMAP;

    static {
        MethodHandle mmap = null;
        MethodHandle madvise = null;
        MethodHandle munmap = null;
        if (System.getProperty("os.name", "").startsWith("Linux") && HugePages.class.getModule().isNativeAccessEnabled()) {
            try {
                Linker linker = Linker.nativeLinker();
                SymbolLookup libc = linker.defaultLookup();
                mmap = linker.downcallHandle(libc.find("mmap").orElseThrow(), FunctionDescriptor.of(ValueLayout.ADDRESS,
                        ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                        ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
                madvise = linker.downcallHandle(libc.find("madvise").orElseThrow(), FunctionDescriptor.of(
                        ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
                munmap = linker.downcallHandle(libc.find("munmap").orElseThrow(), FunctionDescriptor.of(
                        ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
            } catch (RuntimeException | LinkageError e) {
                mmap = null;
            }
        }
        MMAP = mmap;
        MADVISE = madvise;
        MUNMAP = munmap;
    }

    private HugePages() {}

    /** Whether large allocations are mapped here. */
    static boolean available() {
        return MMAP != null;
    }

    /**
     * {@code size} zeroed bytes, 2 MiB-aligned, unmapped when {@code arena} closes; null when not
     * available here or the kernel refuses the mapping.
     */
    static MemorySegment allocate(long size, Arena arena) {
        if (MMAP == null || size < THRESHOLD) {
            return null;
        }
        // One huge page more than needed, so that an aligned start lies inside; untouched pages cost nothing.
        long mapped = (size + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE + HUGE_PAGE;
        long base;
        try {
            base = ((MemorySegment) MMAP.invokeExact(MemorySegment.NULL, mapped, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS,
                    -1, 0L)).address();
        } catch (Throwable e) {
            return null;
        }
        if (base == -1L || base == 0L) {
            // MAP_FAILED: no address space or memory for it.
            return null;
        }
        long start = (base + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
        try {
            // The whole huge pages of the segment only: the tail keeps small pages, so no page is mostly unused.
            int ignored = (int) MADVISE.invokeExact(MemorySegment.ofAddress(start), size / HUGE_PAGE * HUGE_PAGE,
                    MADV_HUGEPAGE);
        } catch (Throwable e) {
            // Ordinary pages, then.
        }
        return MemorySegment.ofAddress(start).reinterpret(size, arena, segment -> unmap(base, mapped));
    }

    private static void unmap(long base, long length) {
        try {
            int ignored = (int) MUNMAP.invokeExact(MemorySegment.ofAddress(base), length);
        } catch (Throwable e) {
            throw new IllegalStateException("munmap failed", e);
        }
    }
}
