package io.opscv.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, item 3: the memory a process may still use is the smallest of its cgroup's limit (v2 or v1,
 * the cgroups above it included), the JVM's container-aware view and MemAvailable; fake trees of
 * /proc and /sys/fs/cgroup files stand for the machine.
 */
class AvailableMemoryTest {
    private static final long GIB = 1L << 30;
    private static final String V2_MOUNT = "30 22 0:27 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw";
    private static final String V1_MOUNT = "34 30 0:31 / /sys/fs/cgroup/memory rw,relatime shared:9 - cgroup cgroup rw,memory";

    @TempDir
    Path root;

    @AfterEach
    void restore() {
        AvailableMemory.override(null);
    }

    private void write(String relative, String content) throws IOException {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }

    private void meminfo(long availableKib) throws IOException {
        write("proc/meminfo", "MemTotal:       24683548 kB\nMemFree:        1000000 kB\nMemAvailable:   " + availableKib
                + " kB\n");
    }

    private AvailableMemory.Figure measure() {
        return new AvailableMemory(root, Optional::empty).measure();
    }

    @Test
    void cgroupV2LimitLessUsageWins() throws IOException {
        meminfo(20L << 20);
        write("proc/self/cgroup", "0::/user.slice/app\n");
        write("proc/self/mountinfo", V2_MOUNT + "\n");
        write("sys/fs/cgroup/user.slice/app/memory.max", "402653184\n");
        write("sys/fs/cgroup/user.slice/app/memory.current", "100000000\n");
        write("sys/fs/cgroup/user.slice/memory.max", "max\n");
        write("sys/fs/cgroup/user.slice/memory.current", "5000000000\n");
        AvailableMemory.Figure f = measure();
        assertEquals(402653184L - 100000000L, f.bytes());
        assertEquals("cgroup v2 memory.max 402653184 less memory.current 100000000 of /sys/fs/cgroup/user.slice/app",
                f.source());
    }

    @Test
    void aParentCgroupsTighterLimitBindsItsChildren() throws IOException {
        meminfo(20L << 20);
        write("proc/self/cgroup", "0::/a/b\n");
        write("proc/self/mountinfo", V2_MOUNT + "\n");
        write("sys/fs/cgroup/a/b/memory.max", "max\n");
        write("sys/fs/cgroup/a/b/memory.current", "1000\n");
        write("sys/fs/cgroup/a/memory.max", "200000000\n");
        write("sys/fs/cgroup/a/memory.current", "150000000\n");
        assertEquals(50_000_000L, measure().bytes());
    }

    @Test
    void cgroupV2WithoutALimitLeavesMemAvailable() throws IOException {
        meminfo(3L << 20);
        write("proc/self/cgroup", "0::/\n");
        write("proc/self/mountinfo", V2_MOUNT + "\n");
        write("sys/fs/cgroup/memory.max", "max\n");
        write("sys/fs/cgroup/memory.current", "123\n");
        AvailableMemory.Figure f = measure();
        assertEquals(3 * GIB, f.bytes());
        assertEquals("MemAvailable of /proc/meminfo", f.source());
    }

    @Test
    void cgroupV1LimitLessUsage() throws IOException {
        meminfo(20L << 20);
        write("proc/self/cgroup", "9:name=systemd:/\n4:memory:/process_api/x\n0::/\n");
        write("proc/self/mountinfo", V1_MOUNT + "\n");
        write("sys/fs/cgroup/memory/process_api/x/memory.limit_in_bytes", String.valueOf(384L << 20));
        write("sys/fs/cgroup/memory/process_api/x/memory.usage_in_bytes", String.valueOf(84L << 20));
        write("sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
        write("sys/fs/cgroup/memory/memory.usage_in_bytes", "1097310208\n");
        AvailableMemory.Figure f = measure();
        assertEquals(300L << 20, f.bytes());
        assertTrue(f.source().startsWith("cgroup v1 memory.limit_in_bytes 402653184"), f.source());
    }

    @Test
    void theV1UnlimitedValueIsNoLimit() throws IOException {
        meminfo(5L << 20);
        write("proc/self/cgroup", "4:memory,cpuacct:/\n");
        // No mountinfo: the usual places.
        write("sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
        write("sys/fs/cgroup/memory/memory.usage_in_bytes", "1097310208\n");
        assertEquals(5 * GIB, measure().bytes());
        write("sys/fs/cgroup/memory/memory.limit_in_bytes", String.valueOf(2 * GIB));
        assertEquals(2 * GIB - 1097310208L, measure().bytes());
    }

    @Test
    void aCgroupPathTheMountDoesNotShowFallsBackToTheMountsOwnFiles() throws IOException {
        meminfo(20L << 20);
        // In a container without a cgroup namespace: the host's path, the container's cgroup at the mount point.
        write("proc/self/cgroup", "0::/docker/0123abcd\n");
        write("proc/self/mountinfo", "30 22 0:27 /docker/0123abcd /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n");
        write("sys/fs/cgroup/memory.max", String.valueOf(GIB));
        write("sys/fs/cgroup/memory.current", String.valueOf(GIB / 4));
        assertEquals(3 * GIB / 4, measure().bytes());
        write("proc/self/cgroup", "0::/elsewhere\n");
        assertEquals(3 * GIB / 4, measure().bytes());
    }

    @Test
    void missingFilesGiveNoFigure() throws IOException {
        assertEquals(Long.MAX_VALUE, measure().bytes());
        write("proc/self/cgroup", "0::/gone\n");
        assertEquals(Long.MAX_VALUE, measure().bytes());
        meminfo(7L << 20);
        assertEquals(7 * GIB, measure().bytes());
    }

    @Test
    void garbageGivesNoFigure() throws IOException {
        write("proc/meminfo", "MemAvailable:   lots kB\nMemTotal: 99999999999999999999999 kB\n");
        write("proc/self/cgroup", "0::/x\nnonsense\n4:memory\n");
        write("proc/self/mountinfo", "garbage\n" + V2_MOUNT + "\n");
        write("sys/fs/cgroup/x/memory.max", "banana\n");
        write("sys/fs/cgroup/x/memory.current", "12\n");
        write("sys/fs/cgroup/memory.max", "100\n");
        write("sys/fs/cgroup/memory.current", "-5\n");
        assertEquals(Long.MAX_VALUE, measure().bytes());
    }

    @Test
    void usageAboveTheLimitIsNothingAvailable() throws IOException {
        write("proc/self/cgroup", "0::/\n");
        write("sys/fs/cgroup/memory.max", "1000\n");
        write("sys/fs/cgroup/memory.current", "4096\n");
        assertEquals(0, measure().bytes());
    }

    @Test
    void theJvmsViewCountsWhenItSeesALimitBelowTheMachine() throws IOException {
        meminfo(20L << 20);
        long machine = 24683548L * 1024;
        AvailableMemory contained = new AvailableMemory(root, () -> Optional.of(new AvailableMemory.JvmView(GIB, 2 * GIB)));
        assertEquals(GIB, contained.measure().bytes());
        assertTrue(contained.measure().source().startsWith("the JVM's free memory"));
        // On the host its free memory is MemFree, below MemAvailable: not a limit.
        AvailableMemory host = new AvailableMemory(root, () -> Optional.of(new AvailableMemory.JvmView(GIB, machine)));
        assertEquals(20 * GIB, host.measure().bytes());
        // Without /proc/meminfo it is the only figure.
        Files.delete(root.resolve("proc/meminfo"));
        assertEquals(GIB, host.measure().bytes());
    }

    @Test
    void thisMachinesFigureIsPositive() {
        AvailableMemory.Figure f = AvailableMemory.figure();
        assertTrue(f.bytes() > 0 && f.bytes() < Long.MAX_VALUE, f.toString());
    }

    @Test
    void aMallocAboveTheCgroupLimitIs361001WithTheFigure() throws IOException {
        meminfo(20L << 20);
        write("proc/self/cgroup", "0::/\n");
        write("sys/fs/cgroup/memory.max", String.valueOf(384L << 20));
        write("sys/fs/cgroup/memory.current", String.valueOf(284L << 20));
        AvailableMemory.overrideWith(new AvailableMemory(root, Optional::empty));
        try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0)) {
            AclnnException e = assertThrows(AclnnException.class, () -> device.malloc(512L << 20));
            assertEquals(AclnnStatus.ERR_RUNTIME_ERROR, e.status());
            assertEquals("aclrtMalloc could not allocate 536870912 bytes (104857600 available to this process: cgroup v2"
                    + " memory.max 402653184 less memory.current 297795584 of /sys/fs/cgroup).", e.getMessage());
            device.malloc(100L << 20).close();
        }
    }
}
