package io.opscv.runtime;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * How many bytes of memory this process can still get, so that {@code aclrtMalloc} can refuse an
 * allocation with a status instead of letting the kernel's out-of-memory killer end the process.
 *
 * <p>Why a check is needed at all: Linux overcommits, so a request below physical memory but above
 * what is free succeeds, and the zeroing {@link java.lang.foreign.Arena#allocate} does then touches
 * every page: the process (or a neighbour) is killed, no exception is ever thrown. A container's
 * memory limit kills the same way, below what the machine has free. The figure is the smallest of:
 * <ul>
 *   <li>cgroup v2: {@code memory.max - memory.current} of the process's cgroup ({@code 0::} in
 *       {@code /proc/self/cgroup}) and of each cgroup above it that has a limit;</li>
 *   <li>cgroup v1: {@code memory.limit_in_bytes - memory.usage_in_bytes} of the memory controller's
 *       cgroup and of those above it;</li>
 *   <li>the JVM's view ({@code com.sun.management.OperatingSystemMXBean}'s free memory, container
 *       aware) when it sees a limit below the machine's memory, or when there is no
 *       {@code /proc/meminfo}: on a host without a limit it is {@code MemFree}, which leaves out the
 *       page cache the kernel reclaims on demand, and would refuse what the machine can give;</li>
 *   <li>{@code MemAvailable} of {@code /proc/meminfo}: free memory plus what the kernel can reclaim.</li>
 * </ul>
 * The cgroup hierarchies are found through {@code /proc/self/mountinfo} (at {@code /sys/fs/cgroup}
 * and {@code /sys/fs/cgroup/memory} when it does not say). A file that is missing or unreadable, or a
 * value that is not a number ({@code max}, garbage), contributes no figure.
 */
final class AvailableMemory {
    /** A v1 limit this large means none (the kernel's "unlimited" is 2^63 rounded down to a page). */
    private static final long V1_UNLIMITED = 1L << 62;
    private static final AvailableMemory SYSTEM = new AvailableMemory(Path.of("/"), AvailableMemory::jvmView);
    private static volatile Supplier<Figure> source = SYSTEM::measure;

    /** A number of bytes and where it comes from, for the refusal's message. */
    record Figure(long bytes, String source) {}

    /** The JVM's free and total memory (both container aware). */
    record JvmView(long free, long total) {}

    private final Path root;
    private final Supplier<Optional<JvmView>> jvm;

    /**
     * @param root the directory that stands for {@code /}: {@code proc/self/cgroup}, {@code proc/self/mountinfo},
     *             {@code proc/meminfo} and the cgroup files are read below it (tests give a fake tree)
     * @param jvm  the JVM's view, or empty where the JVM has none
     */
    AvailableMemory(Path root, Supplier<Optional<JvmView>> jvm) {
        this.root = root;
        this.jvm = jvm;
    }

    /** Bytes that can be allocated and touched now. */
    static long bytes() {
        return figure().bytes();
    }

    /** {@link #bytes()} with the limit it comes from. */
    static Figure figure() {
        return source.get();
    }

    /** Tests: replaces the measurement (so that the refusal can be checked without exhausting memory). */
    static void override(java.util.function.LongSupplier fake) {
        source = fake == null ? SYSTEM::measure : () -> new Figure(fake.getAsLong(), "a test's figure");
    }

    /** Tests: measures {@code fake} (a tree of fake cgroup files) instead of this machine. */
    static void overrideWith(AvailableMemory fake) {
        source = fake::measure;
    }

    /** The smallest of the figures that can be read; {@link Long#MAX_VALUE} ("no limit known") when none can. */
    Figure measure() {
        List<Figure> figures = new ArrayList<>();
        cgroupV2(figures);
        cgroupV1(figures);
        Optional<Long> memTotal = meminfo("MemTotal:");
        Optional<Long> memAvailable = meminfo("MemAvailable:");
        memAvailable.ifPresent(b -> figures.add(new Figure(b, "MemAvailable of /proc/meminfo")));
        jvm.get().ifPresent(view -> {
            if (memTotal.isEmpty() || view.total() < memTotal.get()) {
                figures.add(new Figure(view.free(), "the JVM's free memory (of " + view.total() + " bytes)"));
            }
        });
        Figure smallest = new Figure(Long.MAX_VALUE, "no limit could be read");
        for (Figure f : figures) {
            if (f.bytes() < smallest.bytes()) {
                smallest = f;
            }
        }
        return new Figure(Math.max(smallest.bytes(), 0), smallest.source());
    }

    private void cgroupV2(List<Figure> figures) {
        for (String line : lines("proc/self/cgroup")) {
            if (line.startsWith("0::")) {
                Mount mount = mount(true).orElse(new Mount("/sys/fs/cgroup", "/"));
                walk(mount, line.substring(3), "memory.max", "memory.current", Long.MAX_VALUE, figures, "cgroup v2");
            }
        }
    }

    private void cgroupV1(List<Figure> figures) {
        for (String line : lines("proc/self/cgroup")) {
            String[] fields = line.split(":", 3);
            if (fields.length == 3 && List.of(fields[1].split(",")).contains("memory")) {
                Mount mount = mount(false).orElse(new Mount("/sys/fs/cgroup/memory", "/"));
                walk(mount, fields[2], "memory.limit_in_bytes", "memory.usage_in_bytes", V1_UNLIMITED, figures, "cgroup v1");
            }
        }
    }

    /** A cgroup hierarchy's mount point and the cgroup it shows there (mountinfo's fields 5 and 4). */
    private record Mount(String point, String cgroupRoot) {}

    /** The cgroup2 mount, or the cgroup (v1) mount of the memory controller, from mountinfo. */
    private Optional<Mount> mount(boolean v2) {
        for (String line : lines("proc/self/mountinfo")) {
            // id parent major:minor root point options [optional...] - fstype source superoptions
            String[] halves = line.split(" - ", 2);
            String[] head = halves[0].split(" ");
            if (halves.length < 2 || head.length < 5) {
                continue;
            }
            String[] tail = halves[1].split(" ");
            boolean match = v2 ? tail[0].equals("cgroup2")
                    : tail[0].equals("cgroup") && tail.length >= 3 && List.of(tail[2].split(",")).contains("memory");
            if (match) {
                return Optional.of(new Mount(head[4], head[3]));
            }
        }
        return Optional.empty();
    }

    /**
     * From the process's cgroup up to the hierarchy's root, each level's limit less its usage (a limit at or
     * above {@code unlimited}, or {@code max}, is none): a parent's limit binds its children too.
     */
    private void walk(Mount mount, String cgroup, String limitFile, String usageFile, long unlimited,
                      List<Figure> figures, String kind) {
        // The cgroup as seen from the mount: its path below the mount's root (in a namespace both are "/").
        String base = mount.cgroupRoot().endsWith("/") ? mount.cgroupRoot() : mount.cgroupRoot() + "/";
        String relative = cgroup.equals(mount.cgroupRoot()) ? ""
                : cgroup.startsWith(base) ? cgroup.substring(base.length()) : "";
        Path top = under(mount.point());
        Path dir = top.resolve(relative.replaceFirst("^/+", "")).normalize();
        if (!dir.startsWith(top)) {
            dir = top;
        }
        while (true) {
            Optional<Long> limit = number(dir.resolve(limitFile));
            Optional<Long> usage = number(dir.resolve(usageFile));
            if (limit.isPresent() && limit.get() < unlimited && usage.isPresent()) {
                figures.add(new Figure(limit.get() - usage.get(), kind + " " + limitFile + " " + limit.get() + " less "
                        + usageFile + " " + usage.get() + " of /" + root.relativize(dir)));
            }
            if (dir.equals(top)) {
                return;
            }
            dir = dir.getParent();
        }
    }

    /** {@code absolute} (a path of the machine) below {@link #root}. */
    private Path under(String absolute) {
        return root.resolve(absolute.replaceFirst("^/+", ""));
    }

    private Optional<Long> meminfo(String key) {
        for (String line : lines("proc/meminfo")) {
            if (line.startsWith(key)) {
                String kib = line.substring(key.length()).replace("kB", "").strip();
                try {
                    return Optional.of(Math.multiplyExact(Long.parseLong(kib), 1024L));
                } catch (ArithmeticException | NumberFormatException e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    /** The file's lines, or none when it cannot be read. */
    private List<String> lines(String relative) {
        try {
            return Files.readAllLines(root.resolve(relative));
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /** A file holding one non-negative number, or empty ({@code max}, missing, garbage). */
    private static Optional<Long> number(Path file) {
        try {
            long value = Long.parseLong(Files.readString(file).strip());
            return value >= 0 ? Optional.of(value) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Optional<JvmView> jvmView() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return Optional.of(new JvmView(os.getFreeMemorySize(), os.getTotalMemorySize()));
        }
        return Optional.empty();
    }
}
