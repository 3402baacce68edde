package io.opscv.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.npy.Npy;
import io.opscv.npy.NpyHeader;
import io.opscv.runtime.DataType;
import io.opscv.testing.Criterion;
import io.opscv.testing.GoldenCase;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The CLI: the sample, the backward on files of every encoding, exit codes, one-line errors, atomic output. */
class Linear1dBackwardCommandTest {
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

    @Test
    void exampleRunsTheSample() {
        Result r = run("example");
        assertEquals(0, r.code(), r.err());
        assertEquals("""
                result[0] is: 1.000000
                result[1] is: 0.000000
                result[2] is: 1.000000
                result[3] is: 1.000000
                result[4] is: 0.000000
                result[5] is: 3.000000
                """, r.out().replace(System.lineSeparator(), "\n"));
        assertEquals("", r.err());
    }

    static List<GoldenCase> cases() {
        return GoldenCase.of("upsample_linear1d_backward");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void goldenCasesThroughTheCli(GoldenCase c) throws IOException {
        Path in = GoldenCase.resource(c.inputFile());
        Path out = dir.resolve("out.npy");
        List<String> args = new ArrayList<>(List.of("linear1d-backward", "--grad-out", in.toString(),
                "--input-size", c.intField("n") + "," + c.intField("c") + "," + c.intField("l_in"),
                "--scales", Double.toString(c.doubleField("scales")), "--out", out.toString()));
        if (c.alignCorners()) {
            args.add("--align-corners");
        }
        DataType type = c.dataType();
        if (type == DataType.BF16) {
            args.add("--dtype");
            args.add("bfloat16");
        }
        Result r = run(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        NpyHeader h = Npy.readHeader(out);
        assertEquals(Npy.readHeader(in).descr(), h.descr(), "written in the input's encoding");
        assertArrayEquals(new long[] {c.intField("n"), c.intField("c"), c.intField("l_in")}, h.shape());
        double[] got = decode(out, h, type);
        int bad = Criterion.firstFailure(got, c.expected(), c.bound(), c.terms(), type);
        assertEquals(-1, bad, () -> "element " + bad);
    }

    private static double[] decode(Path file, NpyHeader h, DataType type) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(Math.max(h.dataBytes(), 1));
            Npy.readData(file, h, seg);
            int n = (int) h.numel();
            double[] v = new double[n];
            for (int k = 0; k < n; k++) {
                v[k] = switch (type) {
                    case FLOAT -> seg.getAtIndex(ValueLayout.JAVA_FLOAT, k);
                    case FLOAT16 -> Float.float16ToFloat(seg.getAtIndex(ValueLayout.JAVA_SHORT, k));
                    default -> io.opscv.kernel.ElementCodec.bf16ToFloat(seg.getAtIndex(ValueLayout.JAVA_SHORT, k));
                };
            }
            return v;
        }
    }

    private Path write(String name, String descr, long[] shape, int itemSize) throws IOException {
        Path p = dir.resolve(name);
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment data = arena.allocate(Math.max(n * itemSize, 1));
            for (long k = 0; k < n * itemSize / 4; k++) {
                data.setAtIndex(ValueLayout.JAVA_FLOAT, k, 1f);
            }
            Npy.write(p, descr, shape, data.asSlice(0, n * itemSize));
        }
        return p;
    }

    @Test
    void operatorStatusGoesToStderrWithNameAndCode() throws IOException {
        Path in = write("g.npy", "<f8", new long[] {1, 1, 3}, 8);
        Path out = dir.resolve("out.npy");
        Result r = run("linear1d-backward", "--grad-out", in.toString(), "--input-size", "1,1,6", "--out", out.toString());
        assertEquals(OpscvCli.EXIT_STATUS, r.code());
        assertTrue(r.err().startsWith("ACLNN_ERR_PARAM_INVALID (161002): Tensor gradOut not implemented for DT_DOUBLE, "
                + "should be in dtype support list [DT_FLOAT16, DT_FLOAT, DT_BF16]."), r.err());
        assertEquals(1, r.err().lines().count());
        assertFalse(Files.exists(out), "no output on failure");
    }

    @Test
    void uint16WithoutDtypeReachesTheOperatorAsDtUint16() throws IOException {
        Path in = write("g.npy", "<u2", new long[] {1, 1, 4}, 2);
        Result r = run("linear1d-backward", "--grad-out", in.toString(), "--input-size", "1,1,8", "--out",
                dir.resolve("o.npy").toString());
        assertEquals(OpscvCli.EXIT_STATUS, r.code());
        assertTrue(r.err().contains("not implemented for DT_UINT16"), r.err());
    }

    @Test
    void scalesAndPlatformRulesComeFromTheOperator() throws IOException {
        Path in = write("g.npy", "<f4", new long[] {1, 1, 3}, 4);
        Path out = dir.resolve("out.npy");
        Result floor = run("linear1d-backward", "--grad-out", in.toString(), "--input-size", "1,1,6", "--scales", "2",
                "--out", out.toString());
        assertEquals(OpscvCli.EXIT_STATUS, floor.code());
        assertTrue(floor.err().contains("should equal floor(inputSize[2] (6) * scales (2.0)) = 12"), floor.err());
        Result soc = run("linear1d-backward", "--grad-out", in.toString(), "--input-size", "1,1,6", "--soc", "ascend310p",
                "--out", out.toString());
        assertEquals(OpscvCli.EXIT_STATUS, soc.code());
        assertTrue(soc.err().startsWith("ACLNN_ERR_PARAM_INVALID (161002): the operator doesn't support Ascend310P"), soc.err());
        Result size = run("linear1d-backward", "--grad-out", in.toString(), "--input-size", "1,1,3,3,3", "--out",
                out.toString());
        assertTrue(size.err().contains("It is expected input_size equals to 3, but got size 5"), size.err());
        Result huge = run("linear1d-backward", "--grad-out", in.toString(), "--input-size", "1,1,4000000000", "--out",
                out.toString());
        assertEquals(OpscvCli.EXIT_STATUS, huge.code(), huge.err());
        assertTrue(huge.err().contains("Every dimension of out should be <= 1048576"), huge.err());
        assertFalse(Files.exists(out));
    }

    @Test
    void successWritesTheSampleResultInTheInputEncoding() throws IOException {
        Path in = dir.resolve("sample.npy");
        try (Arena arena = Arena.ofConfined()) {
            Npy.write(in, "<f4", new long[] {1, 1, 3}, arena.allocateFrom(ValueLayout.JAVA_FLOAT, 1f, 2f, 3f));
        }
        Path out = dir.resolve("grad.npy");
        Result r = run("linear1d-backward", "--grad-out", in.toString(), "--input-size", "1,1,6", "--align-corners",
                "--scales", "0.5", "--soc", "ascend910b", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals("", r.err());
        assertArrayEquals(new double[] {1, 0, 1, 1, 0, 3}, decode(out, Npy.readHeader(out), DataType.FLOAT));
    }

    @Test
    void badArgumentsGiveOneLineAndExit2() throws IOException {
        Path in = write("g.npy", "<f4", new long[] {1, 1, 3}, 4);
        Path out = dir.resolve("out.npy");
        Result sizes = run("linear1d-backward", "--grad-out", in.toString(), "--input-size", "1,x,6", "--out", out.toString());
        assertEquals(OpscvCli.EXIT_USAGE, sizes.code());
        assertEquals("opscv: error: --input-size expects comma-separated integers, but got '1,x,6'", sizes.err().strip());
        Result soc = run("linear1d-backward", "--grad-out", in.toString(), "--input-size", "1,1,6", "--soc", "tpu",
                "--out", out.toString());
        assertEquals(OpscvCli.EXIT_USAGE, soc.code());
        assertTrue(soc.err().startsWith("opscv: error: --soc: unknown platform 'tpu'"), soc.err());
        Result missing = run("linear1d-backward", "--grad-out", dir.resolve("nope.npy").toString(), "--input-size", "1,1,6",
                "--out", out.toString());
        assertEquals(OpscvCli.EXIT_USAGE, missing.code());
        assertTrue(missing.err().contains("no such file"), missing.err());
        Result dtype = run("linear1d-backward", "--grad-out", in.toString(), "--input-size", "1,1,6", "--dtype", "float16",
                "--out", out.toString());
        assertEquals(OpscvCli.EXIT_USAGE, dtype.code());
        assertTrue(dtype.err().contains("--dtype float16 does not match the file's dtype '<f4'"), dtype.err());
        Result noOut = run("linear1d-backward", "--grad-out", in.toString(), "--input-size", "1,1,6");
        assertEquals(OpscvCli.EXIT_USAGE, noOut.code());
        assertTrue(noOut.err().contains("Missing required option: '--out=OUT.npy'"), noOut.err());
        Result unknown = run("linear1d-backward", "--grad-out", in.toString(), "--input-size", "1,1,6", "--bogus",
                "--out", out.toString());
        assertEquals(OpscvCli.EXIT_USAGE, unknown.code());
        assertTrue(unknown.err().startsWith("opscv: error: Unknown option: '--bogus'"), unknown.err());
        Result badScales = run("linear1d-backward", "--grad-out", in.toString(), "--input-size", "1,1,6", "--scales", "abc",
                "--out", out.toString());
        assertEquals(OpscvCli.EXIT_USAGE, badScales.code());
        for (Result r : List.of(sizes, soc, missing, dtype, noOut, unknown, badScales)) {
            assertEquals(1, r.err().lines().count(), r.err());
            assertFalse(r.err().contains("Exception"), r.err());
        }
        assertFalse(Files.exists(out));
    }

    @Test
    void theInputIsNeverTheOutputAndIsLeftUntouched() throws IOException {
        Path in = write("g.npy", "<f4", new long[] {1, 1, 3}, 4);
        byte[] before = Files.readAllBytes(in);
        Result r = run("linear1d-backward", "--grad-out", in.toString(), "--input-size", "1,1,6", "--out", in.toString());
        assertEquals(OpscvCli.EXIT_USAGE, r.code());
        assertTrue(r.err().contains("the output path is the input file"), r.err());
        assertArrayEquals(before, Files.readAllBytes(in));
    }

    @Test
    void aFailedRunLeavesAnEarlierOutputInPlace() throws IOException {
        Path in = write("g.npy", "<f4", new long[] {1, 1, 3}, 4);
        Path out = dir.resolve("out.npy");
        Files.writeString(out, "previous");
        Result r = run("linear1d-backward", "--grad-out", in.toString(), "--input-size", "1,1,6", "--scales", "3",
                "--out", out.toString());
        assertEquals(OpscvCli.EXIT_STATUS, r.code());
        assertEquals("previous", Files.readString(out));
        try (var files = Files.list(dir)) {
            assertEquals(2, files.count(), "no temporary file left behind");
        }
    }

    @Test
    void helpListsTheSubcommands() {
        Result r = run("--help");
        assertEquals(0, r.code());
        assertTrue(r.out().contains("example"));
        assertTrue(r.out().contains("linear1d-backward"));
        Result sub = run("linear1d-backward", "--help");
        assertTrue(sub.out().contains("--align-corners"));
        assertTrue(sub.out().contains("ascend910_93"));
        for (String command : List.of("example", "linear1d-backward", "linear1d", "bilinear2d-backward", "bilinear2d",
                "gradcheck", "check", "bench")) {
            Result help = run(command, "--help");
            assertEquals(0, help.code(), command + ": " + help.err());
            assertTrue(help.out().startsWith("Usage: opscv " + command), command + ": " + help.out());
        }
    }
}
