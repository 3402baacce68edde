package io.opscv.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Large device memory is mapped for huge pages on Linux, zeroed, aligned, and unmapped on free. */
class HugePagesTest {
    private static final long HUGE_PAGE = 2L << 20;

    /** The VmFlags of the mapping of /proc/self/smaps that holds {@code address}, or null. */
    private static String vmFlags(long address) throws IOException {
        List<String> lines = Files.readAllLines(Path.of("/proc/self/smaps"));
        boolean inside = false;
        for (String line : lines) {
            int dash = line.indexOf('-');
            int space = line.indexOf(' ');
            if (dash > 0 && space > dash && line.substring(0, dash).matches("[0-9a-f]+")) {
                long start = Long.parseUnsignedLong(line.substring(0, dash), 16);
                long end = Long.parseUnsignedLong(line.substring(dash + 1, space), 16);
                inside = Long.compareUnsigned(address, start) >= 0 && Long.compareUnsigned(address, end) < 0;
            } else if (inside && line.startsWith("VmFlags:")) {
                return line;
            }
        }
        return null;
    }

    @Test
    void largeBlocksAreMappedZeroedAlignedAndAdvisedForHugePages() throws IOException {
        assumeTrue(HugePages.available(), "no mmap here (not Linux, or no native access)");
        try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0)) {
            long size = HugePages.THRESHOLD + 12345;
            DeviceMemory memory = device.malloc(size);
            MemorySegment segment = memory.segment();
            assertEquals(size, segment.byteSize());
            assertEquals(0, segment.address() % HUGE_PAGE, "not on a huge page boundary");
            try (Arena arena = Arena.ofConfined()) {
                assertEquals(-1, MemorySegment.mismatch(segment, 0, size, arena.allocate(size), 0, size), "not zeroed");
            }
            segment.set(ValueLayout.JAVA_BYTE, 0, (byte) 7);
            segment.set(ValueLayout.JAVA_BYTE, size - 1, (byte) 9);
            assertEquals(7, segment.get(ValueLayout.JAVA_BYTE, 0));
            assertEquals(9, segment.get(ValueLayout.JAVA_BYTE, size - 1));
            if (Files.isDirectory(Path.of("/sys/kernel/mm/transparent_hugepage"))) {
                // "hg": madvise(MADV_HUGEPAGE) was applied to the mapping (whether the kernel found huge pages or not).
                String flags = vmFlags(segment.address());
                assertTrue(flags != null && flags.contains(" hg"), "no huge page advice on the mapping: " + flags);
            }
            long address = segment.address();
            memory.close();
            assertThrows(AclnnException.class, memory::segment);
            assertEquals(null, vmFlags(address), "still mapped after aclrtFree");
        }
    }

    @Test
    void smallBlocksComeFromTheArena() {
        assumeTrue(HugePages.available(), "no mmap here (not Linux, or no native access)");
        try (Arena arena = Arena.ofConfined()) {
            assertEquals(null, HugePages.allocate(HugePages.THRESHOLD - 1, arena));
        }
    }
}
