package io.opscv.runtime;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * How many bytes of memory the machine can still give, so that {@code aclrtMalloc} can refuse an
 * allocation with a status instead of letting the kernel's out-of-memory killer end the process.
 *
 * <p>Why a check is needed at all: Linux overcommits, so a request below physical memory but above
 * what is free succeeds, and the zeroing {@link java.lang.foreign.Arena#allocate} does then touches
 * every page: the process (or a neighbour) is killed, no exception is ever thrown. The figure is
 * {@code MemAvailable} of {@code /proc/meminfo} (free memory plus what the kernel can reclaim, such
 * as the page cache); elsewhere the JVM's view of free physical memory.
 */
final class AvailableMemory {
    private static final Path MEMINFO = Path.of("/proc/meminfo");
    private static volatile LongSupplier source = AvailableMemory::measure;

    private AvailableMemory() {}

    /** Bytes that can be allocated and touched now. */
    static long bytes() {
        return source.getAsLong();
    }

    /** Tests: replaces the measurement (so that the refusal can be checked without exhausting memory). */
    static void override(LongSupplier fake) {
        source = fake == null ? AvailableMemory::measure : fake;
    }

    private static long measure() {
        try {
            for (String line : Files.readAllLines(MEMINFO)) {
                if (line.startsWith("MemAvailable:")) {
                    String kib = line.substring("MemAvailable:".length()).replace("kB", "").strip();
                    return Math.multiplyExact(Long.parseLong(kib), 1024L);
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux, or an unexpected format: fall back to the JVM's figure.
        }
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getFreeMemorySize();
        }
        return Long.MAX_VALUE;
    }
}
