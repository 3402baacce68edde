package io.opscv.cli;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import io.opscv.npy.Npy;

/**
 * The CLI in a JVM of its own (as {@code bin/opscv} runs it, without its build step), for what one
 * process cannot test in itself: signals, the umask, file size limits, and permissions as a user
 * without root's privileges sees them.
 */
final class CliProcess {
    private CliProcess() {}

    /**
     * How the child is started: its umask, a file size limit (in 512-byte blocks, 0 = none), unprivileged, and
     * options for its JVM.
     */
    record Setting(String umask, long fileSizeBlocks, boolean unprivileged, List<String> jvmOptions) {
        static final Setting PLAIN = new Setting(null, 0, false);

        Setting(String umask, long fileSizeBlocks, boolean unprivileged) {
            this(umask, fileSizeBlocks, unprivileged, List.of());
        }

        /** A plain child whose JVM takes {@code options}. */
        static Setting jvm(String... options) {
            return new Setting(null, 0, false, List.of(options));
        }
    }

    static Process start(Setting setting, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        if (setting.unprivileged() && isRoot()) {
            // Root with every capability dropped obeys permission bits, as any user does.
            assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "setpriv is available to drop root's capabilities");
            command.addAll(List.of("/usr/bin/setpriv", "--bounding-set=-all", "--inh-caps=-all"));
        }
        StringBuilder shell = new StringBuilder();
        if (setting.umask() != null) {
            shell.append("umask ").append(setting.umask()).append("; ");
        }
        if (setting.fileSizeBlocks() > 0) {
            shell.append("ulimit -f ").append(setting.fileSizeBlocks()).append("; ");
        }
        command.addAll(List.of("/bin/sh", "-c", shell + "exec \"$@\"", "sh"));
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(setting.jvmOptions());
        command.addAll(List.of("--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), OpscvCli.class.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        return p;
    }

    /** Exit code, stdout, stderr of a child that is left to finish. */
    record Finished(int code, String out, String err) {}

    static Finished run(Setting setting, String... args) throws IOException, InterruptedException {
        Process p = start(setting, args);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the CLI did not end in 120 s");
        }
        // The JVM's own line about the incubator module, which bin/opscv filters too.
        String err = new String(p.getErrorStream().readAllBytes()).replaceAll("(?m)^WARNING: Using incubator modules.*\\R", "");
        return new Finished(p.exitValue(), new String(p.getInputStream().readAllBytes()), err);
    }

    /** Sends {@code signal} (a name, e.g. INT) to {@code p}. */
    static void signal(Process p, String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-s", signal, Long.toString(p.pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new AssertionError("kill -s " + signal + " failed");
        }
    }

    static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /** Whether this JVM ignores {@code signal} (a child inherits an ignored signal; a background job ignores SIGINT). */
    static boolean ignores(int signal) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring(7).strip(), 16) >>> (signal - 1) & 1) != 0;
            }
        }
        return false;
    }

    /** A FLOAT .npy file of {@code shape} with the values 0, 1, 2, ... */
    static Path floats(Path file, long... shape) throws IOException {
        long numel = 1;
        for (long d : shape) {
            numel *= d;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment data = arena.allocate(numel * 4);
            for (long k = 0; k < numel; k++) {
                data.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, k, k % 1000);
            }
            Npy.write(file, "<f4", shape, data);
        }
        return file;
    }
}
