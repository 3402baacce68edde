package io.opscv.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile files for the CLI (issue 6, item 6): each gets one clear line on stderr and a non-zero
 * exit, and leaves no output file, no temporary file, and the input unchanged; nothing is
 * allocated for what a header claims before the claim is checked against the file's size (and
 * against the operator's limits: the CLI validates with placeholders before loading).
 */
class HostileNpyFilesTest {
    private static final Duration LIMIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    record Result(int code, String out, String err) {}

    static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = OpscvCli.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A .npy file: magic, version 1.0, the header text padded as NumPy pads it, then {@code data} bytes. */
    static byte[] npy(String header, int dataBytes) {
        byte[] text = header.getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer b = ByteBuffer.allocate(10 + text.length + dataBytes).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0}).putShort((short) text.length).put(text);
        for (int k = 0; k < dataBytes; k++) {
            b.put((byte) (k * 37));
        }
        return b.array();
    }

    /** A version 3.0 .npy file: as {@link #npy} with a 4-byte header length and a UTF-8 header. */
    static byte[] npyVersion3(String header, int dataBytes) {
        byte[] text = header.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(12 + text.length + dataBytes).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 3, 0}).putInt(text.length).put(text);
        return b.array();
    }

    static String header(String descr, String fortran, String shape) {
        return "{'descr': '" + descr + "', 'fortran_order': " + fortran + ", 'shape': " + shape + ", }\n";
    }

    /** A hostile input, what the CLI must exit with, and a piece of the one line it must print. */
    record Hostile(String name, byte[] bytes, int exitCode, String message) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Hostile> hostileFiles() {
        byte[] valid = npy(header("<f4", "False", "(1, 1, 3)"), 12);
        List<Hostile> files = new ArrayList<>();
        files.add(new Hostile("empty file", new byte[0], 2, "not a .npy file (only 0 bytes)"));
        files.add(new Hostile("truncated data", java.util.Arrays.copyOf(valid, valid.length - 4), 2,
                "needs 12 data bytes, but the file has 8"));
        files.add(new Hostile("truncated header", java.util.Arrays.copyOf(valid, 40), 2, "reaches beyond the end of the file"));
        files.add(new Hostile("trailing bytes", java.util.Arrays.copyOf(valid, valid.length + 4), 2,
                "needs 12 data bytes, but the file has 16"));
        byte[] magic = valid.clone();
        magic[1] = 'n';
        files.add(new Hostile("wrong magic", magic, 2, "wrong magic string"));
        files.add(new Hostile("text file", "hello, world\n".getBytes(StandardCharsets.US_ASCII), 2, "wrong magic string"));
        byte[] version = valid.clone();
        version[6] = 9;
        files.add(new Hostile("format version 9", version, 2, "unsupported .npy format version 9.0"));
        byte[] longHeader = valid.clone();
        longHeader[8] = (byte) 0xff;
        longHeader[9] = (byte) 0xff;
        files.add(new Hostile("header length beyond the file", longHeader, 2, "header length 65535 reaches beyond the end"));
        ByteBuffer v2 = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        v2.put(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 2, 0}).putInt(-1).putInt(0);
        files.add(new Hostile("4 GiB header length", v2.array(), 2, "header length 4294967295 is larger than 1048576 bytes"));
        files.add(new Hostile("header claiming 2^40 elements", npy(header("<f2", "False", "(1, 1, 1099511627776)"), 6), 2,
                "needs 2199023255552 data bytes, but the file has 6"));
        files.add(new Hostile("header claiming 2^70 elements", npy(header("<f4", "False", "(1073741824, 1073741824, 1024)"), 4), 2,
                "is too large"));
        files.add(new Hostile("integer beyond a long", npy(header("<f4", "False", "(99999999999999999999,)"), 4), 2,
                "out of range"));
        files.add(new Hostile("negative dimension", npy(header("<f4", "False", "(1, -1, 3)"), 12), 2,
                "must hold non-negative integers"));
        files.add(new Hostile("float dimension", npy(header("<f4", "False", "(1.5,)"), 4), 2, "not a Python dict literal"));
        files.add(new Hostile("Fortran order", npy(header("<f4", "True", "(1, 1, 3)"), 12), 2, "Fortran-ordered arrays"));
        files.add(new Hostile("big-endian", npy(header(">f4", "False", "(1, 1, 3)"), 12), 2, "big-endian dtype '>f4'"));
        files.add(new Hostile("object dtype", npy(header("|O", "False", "(1, 1, 3)"), 24), 2, "unsupported dtype '|O'"));
        files.add(new Hostile("string dtype", npy(header("<U8", "False", "(1, 1, 3)"), 96), 2, "unsupported dtype '<U8'"));
        files.add(new Hostile("structured dtype", npy("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1, 1, 3), }\n", 12),
                2, "exactly the keys"));
        files.add(new Hostile("not a Python literal",
                npy("__import__('os').system('touch pwned')\n", 12), 2, "not a Python dict literal"));
        files.add(new Hostile("code after the dict", npy(header("<f4", "False", "(1, 1, 3)").strip() + " + exec('x')\n", 12), 2,
                "unexpected text after the dict"));
        files.add(new Hostile("unterminated string", npy("{'descr': '<f4, 'fortran_order': False}\n", 12), 2,
                "not a Python dict literal"));
        files.add(new Hostile("duplicate key", npy("{'descr': '<f4', 'descr': '<f2', 'fortran_order': False, 'shape': (3,)}\n", 12),
                2, "duplicate key"));
        files.add(new Hostile("nested sixty thousand deep", npy("{'descr': " + "[".repeat(60_000) + "}\n", 0), 2,
                "nesting deeper than 8 levels"));
        // U+0663 is ARABIC-INDIC DIGIT THREE: Character.isDigit and Long.parseLong take it, Python's literals do not.
        files.add(new Hostile("non-ASCII digit", npyVersion3(header("<f4", "False", "(1, 1, \u0663)"), 12), 2,
                "not a Python dict literal"));
        // What numpy.lib.format's reader refuses (ast.literal_eval, then its checks), this reader refuses too.
        byte[] minor = valid.clone();
        minor[7] = 1;
        files.add(new Hostile("format version 1.1", minor, 2, "unsupported .npy format version 1.1"));
        files.add(new Hostile("list shape", npy(header("<f4", "False", "[1, 1, 3]"), 12), 2,
                "shape [1, 1, 3] must be a tuple"));
        files.add(new Hostile("parenthesised integer shape", npy(header("<f4", "False", "(3)"), 12), 2,
                "shape 3 must be a tuple"));
        files.add(new Hostile("U+2003 as whitespace", npyVersion3(header("<f4", "False", "(1,\u20031, 3)"), 12), 2,
                "not a Python dict literal"));
        files.add(new Hostile("U+00A0 as whitespace", npy(header("<f4", "False", "(1,\u00a01, 3)"), 12), 2,
                "not a Python dict literal"));
        files.add(new Hostile("vertical tab as whitespace", npy(header("<f4", "False", "(1,\u000b1, 3)"), 12), 2,
                "not a Python dict literal"));
        files.add(new Hostile("leading zero", npy(header("<f4", "False", "(1, 1, 03)"), 12), 2, "leading zeros"));
        files.add(new Hostile("long suffix in version 3", npyVersion3(header("<f4", "False", "(1, 1, 3L)"), 12), 2,
                "not a Python dict literal"));
        files.add(new Hostile("nine dimensions", npy(header("<f4", "False", "(1, 1, 1, 1, 1, 1, 1, 1, 3)"), 12), 1,
                "ACLNN_ERR_PARAM_INVALID (161002): A tensor has at most 8 dimensions"));
        files.add(new Hostile("integer dtype", npy(header("<i4", "False", "(1, 1, 3)"), 12), 1,
                "Tensor gradOut not implemented for DT_INT32"));
        return files;
    }

    private Set<String> listing() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return new TreeSet<>(files.map(p -> p.getFileName().toString()).toList());
        }
    }

    /** A regular file's size, modification time and content (its first MiB for a huge sparse file); else its kind. */
    private static String fingerprint(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return Files.isDirectory(file) ? "directory" : "not a regular file";
        }
        byte[] head;
        try (var in = Files.newInputStream(file)) {
            head = in.readNBytes(1 << 20);
        }
        return Files.size(file) + " bytes, modified " + Files.getLastModifiedTime(file) + ", content "
                + java.util.Arrays.hashCode(head) + " " + java.util.HexFormat.of().formatHex(head, 0, Math.min(head.length, 64));
    }

    /** The CLI on {@code input}, writing {@code output}: checks exit code, one line, the input unchanged, nothing new. */
    private void refused(Path input, Path output, int exitCode, String message, String... args) throws IOException {
        String before = fingerprint(input);
        Set<String> listing = listing();
        List<String> argv = new ArrayList<>(List.of("linear1d-backward", "--grad-out", input.toString(), "--input-size", "1,1,6",
                "--out", output.toString()));
        argv.addAll(List.of(args));
        Result r = assertTimeoutPreemptively(LIMIT, () -> run(argv.toArray(new String[0])));
        assertEquals(exitCode, r.code(), r.err());
        assertEquals(1, r.err().lines().count(), () -> "one line on stderr: " + r.err());
        assertTrue(r.err().contains(message), () -> "'" + r.err().strip() + "' lacks '" + message + "'");
        assertTrue(r.err().startsWith(exitCode == 1 ? "ACLNN_" : "opscv: error: "), r.err());
        assertEquals("", r.out());
        assertEquals(before, fingerprint(input), "the input is unchanged");
        assertEquals(listing, listing(), "no output and no temporary file");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileFiles")
    void aHostileInputGetsOneLineANonZeroExitAndNoOutput(Hostile hostile) throws IOException {
        Path input = dir.resolve("gradOut.npy");
        Files.write(input, hostile.bytes());
        refused(input, dir.resolve("out.npy"), hostile.exitCode(), hostile.message());
        assertFalse(Files.exists(Path.of("pwned")) || Files.exists(dir.resolve("pwned")));
    }

    private Path validInput() throws IOException {
        Path input = dir.resolve("gradOut.npy");
        ByteBuffer data = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).putFloat(1).putFloat(2).putFloat(3);
        byte[] file = npy(header("<f4", "False", "(1, 1, 3)"), 12);
        System.arraycopy(data.array(), 0, file, file.length - 12, 12);
        Files.write(input, file);
        return input;
    }

    @Test
    void anOutputPathInAMissingDirectoryIsRefused() throws IOException {
        refused(validInput(), dir.resolve("missing/out.npy"), 2, "the output directory does not exist");
        assertFalse(Files.exists(dir.resolve("missing")));
    }

    @Test
    void anOutputPathThatIsTheInputIsRefusedHoweverItIsSpelled() throws IOException {
        Path input = validInput();
        refused(input, input, 2, "the output path is the input file");
        refused(input, dir.resolve(".").resolve("gradOut.npy"), 2, "the output path is the input file");
        Path symlink = Files.createSymbolicLink(dir.resolve("link.npy"), input);
        refused(input, symlink, 2, "the output path is the input file");
        Path hardLink = Files.createLink(dir.resolve("hard.npy"), input);
        refused(input, hardLink, 2, "the output path is the input file");
    }

    @Test
    void anOutputPathThatIsNotARegularFileIsNeitherReplacedNorWritten() throws IOException, InterruptedException {
        Path input = validInput();
        Path directory = Files.createDirectory(dir.resolve("out.npy"));
        refused(input, directory, 2, "is a directory");
        assertTrue(Files.isDirectory(directory));
        Path fifo = mkfifo("fifo.npy");
        refused(input, fifo, 2, "exists and is not a regular file");
        assertFalse(Files.isRegularFile(fifo), "the FIFO is still a FIFO");
    }

    @Test
    void aFifoOrDirectoryAsInputIsRefusedWithoutBlocking() throws IOException, InterruptedException {
        refused(mkfifo("in.npy"), dir.resolve("out.npy"), 2, "not a regular file");
        refused(Files.createDirectory(dir.resolve("indir.npy")), dir.resolve("out.npy"), 2, "not a regular file");
    }

    private Path mkfifo(String name) throws IOException, InterruptedException {
        Path fifo = dir.resolve(name);
        Process p = new ProcessBuilder("mkfifo", fifo.toString()).redirectErrorStream(true).start();
        assumeTrue(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0, "mkfifo is available");
        return fifo;
    }

    @Test
    void aHugeButConsistentFileIsRefusedByTheOperatorBeforeAnythingIsAllocated() throws IOException {
        // A sparse 2 TiB file whose header (1, 1, 2^40) FLOAT16 matches its size: the header is honest, but gradOut
        // breaks SPEC §5 (dimension <= 2^20). The CLI validates with placeholders first, so the operator's status comes
        // out; loading first would have tried to allocate 2 TiB (361001).
        Path input = dir.resolve("huge.npy");
        byte[] head = npy(header("<f2", "False", "(1, 1, 1099511627776)"), 0);
        Files.write(input, head);
        try (RandomAccessFile f = new RandomAccessFile(input.toFile(), "rw")) {
            f.setLength(head.length + (1L << 41));
        } catch (IOException e) {
            assumeTrue(false, "the file system has no sparse files: " + e);
        }
        refused(input, dir.resolve("out.npy"), 1, "ACLNN_ERR_PARAM_INVALID (161002): Every dimension of gradOut should be <= 1048576",
                "--output-size", "1099511627776");
    }

    @Test
    void absurdSizesAreRefusedByTheOperatorNotByTheAllocator() throws IOException {
        Path input = validInput();
        Path out = dir.resolve("out.npy");
        Set<String> listing = listing();
        Result r = run("linear1d-backward", "--grad-out", input.toString(), "--input-size", "1048576,1048576,1048576",
                "--output-size", "3", "--out", out.toString());
        assertEquals(OpscvCli.EXIT_STATUS, r.code(), r.err());
        assertTrue(r.err().startsWith("ACLNN_ERR_PARAM_INVALID (161002): "), r.err());
        assertEquals(1, r.err().lines().count());
        assertEquals(listing, listing());
    }

    @Test
    void theLauncherProcessPrintsOneLineAndExits2OnAHostileFile() throws Exception {
        // End to end: a JVM of its own running the CLI's main class (as bin/opscv does, without its build step).
        Path input = dir.resolve("gradOut.npy");
        Files.write(input, npy(header(">f4", "False", "(1, 1, 3)"), 12));
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), OpscvCli.class.getName(), "linear1d-backward", "--grad-out", input.toString(),
                "--input-size", "1,1,6", "--out", dir.resolve("out.npy").toString()).start();
        p.getOutputStream().close();
        assertTrue(p.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS), "the process ends");
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(2, p.exitValue(), err);
        assertEquals("", out);
        assertEquals(1, err.lines().count(), err);
        assertTrue(err.startsWith("opscv: error: ") && err.contains("big-endian dtype '>f4'"), err);
        assertFalse(Files.exists(dir.resolve("out.npy")));
    }
}
