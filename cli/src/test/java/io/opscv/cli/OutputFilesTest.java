package io.opscv.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.opscv.npy.Npy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CLI writes its result as Unix tools do: through a symbolic link, with the umask's permissions,
 * via a short temporary that no signal but SIGKILL leaves behind and that the next run removes, and
 * with errors that name the path the user gave and the system's reason.
 */
class OutputFilesTest {
    @TempDir
    Path dir;

    private Path input() throws IOException {
        return CliProcess.floats(dir.resolve("g.npy"), 1, 1, 3);
    }

    private static HostileNpyFilesTest.Result run(Path input, Path out) {
        return HostileNpyFilesTest.run("linear1d-backward", "--grad-out", input.toString(), "--input-size", "1,1,6",
                "--out", out.toString());
    }

    private static String[] args(Path input, Path out) {
        return new String[] {"linear1d-backward", "--grad-out", input.toString(), "--input-size", "1,1,6",
            "--out", out.toString()};
    }

    private List<String> temporaries() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tmp")).sorted().toList();
        }
    }

    /** The documented key of a target's temporaries: SHA-256 of its file name, first 8 hex digits. */
    static String key(String fileName) throws Exception {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(fileName.getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(digest, 0, 4);
    }

    private static String mode(Path file) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
    }

    @Test
    void anOutputThatIsASymlinkIsWrittenThroughAndStaysALink() throws IOException {
        Path input = input();
        Path target = dir.resolve("target.npy");
        Files.writeString(target, "stale");
        Path link = Files.createSymbolicLink(dir.resolve("link.npy"), Path.of("target.npy"));
        HostileNpyFilesTest.Result r = run(input, link);
        assertEquals(0, r.code(), r.err());
        assertTrue(Files.isSymbolicLink(link), "the link is still a link");
        assertEquals(Path.of("target.npy"), Files.readSymbolicLink(link));
        assertArrayEquals(new long[] {1, 1, 6}, Npy.readHeader(target).shape(), "the target has the result");
        // A chain of links, and a dangling one: the final target is created, as open(2) through a link does.
        Path sub = Files.createDirectory(dir.resolve("sub"));
        Path chain = Files.createSymbolicLink(dir.resolve("chain.npy"), link);
        Path dangling = Files.createSymbolicLink(dir.resolve("dangling.npy"), sub.resolve("new.npy"));
        assertEquals(0, run(input, chain).code());
        assertEquals(0, run(input, dangling).code());
        assertTrue(Files.isSymbolicLink(chain) && Files.isSymbolicLink(dangling));
        assertArrayEquals(new long[] {1, 1, 6}, Npy.readHeader(sub.resolve("new.npy")).shape());
        assertEquals(List.of(), temporaries());
    }

    @Test
    void aLegal244CharacterOutputNameWorks() throws IOException {
        Path out = dir.resolve("o".repeat(240) + ".npy");
        HostileNpyFilesTest.Result r = run(input(), out);
        assertEquals(0, r.code(), r.err());
        assertArrayEquals(new long[] {1, 1, 6}, Npy.readHeader(out).shape());
    }

    @Test
    void newFilesHonourTheUmaskAndAReplacedFileKeepsItsMode() throws Exception {
        Path input = input();
        Path strict = dir.resolve("strict.npy");
        CliProcess.Finished r = CliProcess.run(new CliProcess.Setting("077", 0, false), args(input, strict));
        assertEquals(0, r.code(), r.err());
        assertEquals("rw-------", mode(strict));
        Path group = dir.resolve("group.npy");
        assertEquals(0, CliProcess.run(new CliProcess.Setting("027", 0, false), args(input, group)).code());
        assertEquals("rw-r-----", mode(group));
        Path existing = dir.resolve("existing.npy");
        Files.writeString(existing, "old");
        Files.setPosixFilePermissions(existing, PosixFilePermissions.fromString("rw-rw-r--"));
        assertEquals(0, CliProcess.run(new CliProcess.Setting("077", 0, false), args(input, existing)).code());
        assertEquals("rw-rw-r--", mode(existing));
        assertArrayEquals(new long[] {1, 1, 6}, Npy.readHeader(existing).shape());
    }

    @Test
    void aStaleTemporaryOfTheSameOutputIsRemovedAndOthersAreLeftAlone() throws Exception {
        Path out = dir.resolve("out.npy");
        String stale = ".opscv-" + key("out.npy") + "-0badc0de.tmp";
        String otherOutput = ".opscv-" + key("other.npy") + "-0badc0de.tmp";
        String notOurs = ".out.npy.12345.tmp";
        for (String name : List.of(stale, otherOutput, notOurs)) {
            Files.writeString(dir.resolve(name), "left by a killed run");
        }
        assertEquals(0, run(input(), out).code());
        assertEquals(List.of(otherOutput, notOurs).stream().sorted().toList(), temporaries());
    }

    @Test
    void aReadOnlyDirectoryNamesTheOutputWithTheReason() throws Exception {
        Path input = input();
        Path readOnly = Files.createDirectory(dir.resolve("ro"));
        Path out = readOnly.resolve("o.npy");
        Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            CliProcess.Finished r = CliProcess.run(new CliProcess.Setting(null, 0, true), args(input, out));
            assertEquals(2, r.code(), r.err());
            assertEquals("opscv: error: cannot write " + out + ": Permission denied", r.err().strip());
            try (Stream<Path> files = Files.list(readOnly)) {
                assertEquals(0, files.count());
            }
        } finally {
            Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    @Test
    void anExistingOutputWithoutWritePermissionIsRefusedAndKept() throws Exception {
        // As cp and np.save: the rename alone could replace it, but its mode says it is not to be written.
        Path out = dir.resolve("o.npy");
        Files.writeString(out, "kept");
        Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("r--r--r--"));
        CliProcess.Finished r = CliProcess.run(new CliProcess.Setting(null, 0, true), args(input(), out));
        assertEquals(2, r.code(), r.err());
        assertEquals("opscv: error: cannot write " + out + ": Permission denied", r.err().strip());
        assertEquals("kept", Files.readString(out));
        assertEquals(List.of(), temporaries());
    }

    @Test
    void aReplacedFileKeepsItsGroupWhereTheWriterMayKeepIt() throws Exception {
        assumeTrue(CliProcess.isRoot(), "only root may give a file any group");
        Path out = dir.resolve("o.npy");
        Files.writeString(out, "old");
        var daemon = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByGroupName("daemon");
        Files.getFileAttributeView(out, java.nio.file.attribute.PosixFileAttributeView.class).setGroup(daemon);
        assertEquals(0, run(input(), out).code());
        assertEquals(daemon, Files.readAttributes(out, java.nio.file.attribute.PosixFileAttributes.class).group());
        assertArrayEquals(new long[] {1, 1, 6}, Npy.readHeader(out).shape());
    }

    @Test
    void anUnreadableInputNamesTheInputWithTheReason() throws Exception {
        Path input = input();
        Files.setPosixFilePermissions(input, PosixFilePermissions.fromString("-w-------"));
        Path out = dir.resolve("out.npy");
        CliProcess.Finished r = CliProcess.run(new CliProcess.Setting(null, 0, true), args(input, out));
        assertEquals(2, r.code(), r.err());
        assertEquals("opscv: error: cannot read " + input + ": Permission denied", r.err().strip());
        assertFalse(Files.exists(out));
    }

    @Test
    void aWriteThatFailsHalfWayNamesTheOutputAndLeavesNothing() throws Exception {
        // A file size limit (ulimit -f, 64 KiB) fails the write as a full disk does, with the system's reason.
        Path input = CliProcess.floats(dir.resolve("g.npy"), 1, 64, 1024);
        Path out = dir.resolve("out.npy");
        CliProcess.Finished r = CliProcess.run(new CliProcess.Setting(null, 128, false), "linear1d-backward",
                "--grad-out", input.toString(), "--input-size", "1,64,512", "--out", out.toString());
        assertEquals(2, r.code(), r.err());
        assertEquals("opscv: error: cannot write " + out + ": File too large", r.err().strip());
        assertFalse(Files.exists(out));
        assertEquals(List.of(), temporaries());
    }

    /** A child writing 128 MiB (32 x 2^20 floats): long enough to be caught in the middle of the write. */
    private Process bigWrite(Path out) throws IOException {
        Path self = CliProcess.floats(dir.resolve("x.npy"), 32, 1, 4096);
        return CliProcess.start(CliProcess.Setting.PLAIN, "linear1d", "--self", self.toString(), "--output-size", "1048576",
                "--out", out.toString());
    }

    /** Waits until the child's temporary appears (it is then writing), and returns its name. */
    private String awaitTemporary(Process p) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            List<String> tmp = temporaries();
            if (!tmp.isEmpty()) {
                return tmp.get(0);
            }
            if (!p.isAlive()) {
                throw new AssertionError("the CLI ended before it wrote: " + new String(p.getErrorStream().readAllBytes()));
            }
            Thread.sleep(2);
        }
        p.destroyForcibly();
        throw new AssertionError("no temporary appeared");
    }

    @ParameterizedTest(name = "SIG{0}")
    @ValueSource(strings = {"TERM", "INT"})
    void aSignalDuringTheWriteLeavesNoTemporaryAndNoOutput(String signal) throws Exception {
        assumeFalse(signal.equals("INT") && CliProcess.ignores(2), "SIGINT is not ignored here (it is in background jobs)");
        Path out = dir.resolve("out.npy");
        Process p = bigWrite(out);
        String tmp = awaitTemporary(p);
        assertTrue(tmp.matches("\\.opscv-" + key("out.npy") + "-[0-9a-f]{8}\\.tmp"), tmp);
        CliProcess.signal(p, signal);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the CLI ends");
        assertEquals(128 + (signal.equals("TERM") ? 15 : 2), p.exitValue());
        assertEquals(List.of(), temporaries());
        assertFalse(Files.exists(out));
    }

    @Test
    void aTemporaryLeftBySigkillIsRemovedByTheNextRunOfTheSameOutput() throws Exception {
        Path out = dir.resolve("out.npy");
        Process p = bigWrite(out);
        String tmp = awaitTemporary(p);
        CliProcess.signal(p, "KILL");
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(List.of(tmp), temporaries(), "SIGKILL cannot be caught: the temporary stays");
        assertEquals(0, run(input(), out).code());
        assertEquals(List.of(), temporaries());
        assertArrayEquals(new long[] {1, 1, 6}, Npy.readHeader(out).shape());
    }

    @Test
    void aTemporaryThatAnotherRunIsWritingIsNotRemoved() throws Exception {
        Path out = dir.resolve("out.npy");
        Process p = bigWrite(out);
        String tmp = awaitTemporary(p);
        CliProcess.signal(p, "STOP");
        // The writer may finish between the temporary's appearance and the signal (a `kill` process takes a few
        // ms to start): then there was no run being written, so the scene is set again.
        for (int attempt = 1; !temporaries().contains(tmp); attempt++) {
            CliProcess.signal(p, "CONT");
            assertTrue(p.waitFor(120, TimeUnit.SECONDS));
            assertTrue(attempt < 5, "the writer finished before it could be stopped, " + attempt + " times");
            Files.deleteIfExists(out);
            p = bigWrite(out);
            tmp = awaitTemporary(p);
            CliProcess.signal(p, "STOP");
        }
        try {
            assertEquals(0, run(input(), out).code());
            assertEquals(List.of(tmp), temporaries(), "the stopped writer's temporary is still there");
        } finally {
            CliProcess.signal(p, "CONT");
        }
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), new String(p.getErrorStream().readAllBytes()));
        assertArrayEquals(new long[] {32, 1, 1048576}, Npy.readHeader(out).shape(), "the other run's result landed");
        assertEquals(List.of(), temporaries());
    }
}
