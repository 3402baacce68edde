package io.opscv.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.kernel.ElementCodec;
import io.opscv.npy.Npy;
import io.opscv.npy.NpyHeader;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Platform;
import io.opscv.testing.Criterion;
import io.opscv.testing.GoldenCase;
import io.opscv.testing.Layout2d;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The subcommands linear1d, bilinear2d-backward, bilinear2d, gradcheck and the --explain option. */
class SisterCommandsTest {
    @TempDir
    Path tmp;

    record Run(int code, String out, String err) {}

    static Run cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = OpscvCli.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A .npy file's elements as doubles (bfloat16 from its <u2 bits when {@code type} is BF16). */
    static double[] read(Path file, DataType type) throws IOException {
        NpyHeader h = Npy.readHeader(file);
        MemorySegment seg = Arena.ofAuto().allocate(Math.max(h.dataBytes(), 8), 8);
        Npy.readData(file, h, seg);
        double[] v = new double[Math.toIntExact(h.numel())];
        for (int k = 0; k < v.length; k++) {
            v[k] = switch (type) {
                case FLOAT -> seg.getAtIndex(ValueLayout.JAVA_FLOAT, k);
                case FLOAT16 -> Float.float16ToFloat(seg.getAtIndex(ValueLayout.JAVA_SHORT, k));
                case BF16 -> ElementCodec.bf16ToFloat(seg.getAtIndex(ValueLayout.JAVA_SHORT, k));
                default -> throw new IllegalArgumentException(type.toString());
            };
        }
        return v;
    }

    static String dtypeOption(GoldenCase c) {
        return switch (c.dataType()) {
            case FLOAT -> "float32";
            case FLOAT16 -> "float16";
            default -> "bfloat16";
        };
    }

    static void assertMeetsCriterion(GoldenCase c, double[] got) {
        double[] e = c.expected();
        assertEquals(e.length, got.length);
        int bad = Criterion.firstFailure(got, e, c.bound(), c.terms(), c.dataType());
        assertEquals(-1, bad, () -> c.name() + ": element " + bad + " got " + got[bad] + ", expected " + e[bad]);
    }

    @ParameterizedTest
    @EnumSource(value = Platform.class, names = {"CPU", "ASCEND950", "ASCEND910B"})
    void linear1dRunsEveryForwardGoldenCase(Platform platform) throws IOException {
        for (GoldenCase c : GoldenCase.of("upsample_linear1d")) {
            Path out = tmp.resolve(c.name() + "." + platform.cliName() + ".npy");
            Run r = cli(args("linear1d", "--self", c.file(c.inputFile()).toString(), "--output-size",
                    Integer.toString(c.intField("l_out")), "--scales", Double.toString(c.doubleField("scales")),
                    "--dtype", dtypeOption(c), "--soc", platform.cliName(), "--out", out.toString(), c.alignCorners()));
            assertEquals(0, r.code(), r.err());
            assertMeetsCriterion(c, read(out, c.dataType()));
        }
    }

    @Test
    void bilinear2dBackwardRunsTheGoldenCasesInBothLayouts() throws IOException {
        for (GoldenCase c : GoldenCase.of("upsample_bilinear2d_backward")) {
            int n = c.intField("n");
            int ch = c.intField("c");
            int hin = c.intField("h_in");
            int win = c.intField("w_in");
            int hout = c.intField("h_out");
            int wout = c.intField("w_out");
            for (String soc : List.of("cpu", "ascend910b", "ascend910")) {
                Path nchw = tmp.resolve(c.name() + "." + soc + ".nchw.npy");
                Run r = cli(args("bilinear2d-backward", "--grad-out", c.file(c.inputFile()).toString(), "--input-size",
                        n + "," + ch + "," + hin + "," + win, "--output-size", hout + "," + wout, "--scales-h",
                        Double.toString(c.doubleField("scales_h")), "--scales-w", Double.toString(c.doubleField("scales_w")),
                        "--dtype", dtypeOption(c), "--soc", soc, "--out", nchw.toString(), c.alignCorners()));
                assertEquals(0, r.code(), r.err());
                assertMeetsCriterion(c, read(nchw, c.dataType()));

                // The same case with files in NHWC order and inputSize N,H,W,C.
                Path gradNhwc = tmp.resolve(c.name() + ".grad_out.nhwc.npy");
                MemorySegment raw = Layout2d.nchwToNhwc(c.inputBytes(), c.dataType().byteSize(), n, ch, hout, wout);
                Npy.write(gradNhwc, Npy.readHeader(c.file(c.inputFile())).descr(), new long[] {n, hout, wout, ch}, raw);
                Path nhwc = tmp.resolve(c.name() + "." + soc + ".nhwc.npy");
                r = cli(args("bilinear2d-backward", "--grad-out", gradNhwc.toString(), "--format", "nhwc", "--input-size",
                        n + "," + hin + "," + win + "," + ch, "--scales-h", Double.toString(c.doubleField("scales_h")),
                        "--scales-w", Double.toString(c.doubleField("scales_w")), "--dtype", dtypeOption(c), "--soc", soc,
                        "--out", nhwc.toString(), c.alignCorners()));
                assertEquals(0, r.code(), r.err());
                assertEquals(List.of((long) n, (long) hin, (long) win, (long) ch),
                        java.util.Arrays.stream(Npy.readHeader(nhwc).shape()).boxed().toList());
                assertMeetsCriterion(c, Layout2d.nhwcToNchw(read(nhwc, c.dataType()), n, ch, hin, win));
            }
        }
    }

    static String[] args(String command, Object... rest) {
        List<String> a = new ArrayList<>();
        a.add(command);
        for (Object o : rest) {
            if (o instanceof Boolean alignCorners) {
                if (alignCorners) {
                    a.add("--align-corners");
                }
            } else {
                a.add(o.toString());
            }
        }
        return a.toArray(String[]::new);
    }

    @Test
    void bilinear2dRunsTheExtraForwardCases() throws IOException {
        for (GoldenCase c : GoldenCase.extraOf("upsample_bilinear2d")) {
            if (!c.reference().equals("pytorch")) {
                continue;
            }
            Path out = tmp.resolve(c.name() + ".npy");
            Run r = cli(args("bilinear2d", "--self", c.file(c.inputFile()).toString(), "--output-size",
                    c.intField("h_out") + "," + c.intField("w_out"), "--scales-h", Double.toString(c.doubleField("scales_h")),
                    "--scales-w", Double.toString(c.doubleField("scales_w")), "--dtype", dtypeOption(c), "--out",
                    out.toString(), c.alignCorners()));
            assertEquals(0, r.code(), r.err());
            assertMeetsCriterion(c, read(out, c.dataType()));
        }
    }

    @Test
    void explainPrintsThePlanThenRuns() throws IOException {
        GoldenCase c = GoldenCase.of("upsample_linear1d_backward").get(0);
        Path out = tmp.resolve("explained.npy");
        Run r = cli("linear1d-backward", "--grad-out", c.file(c.inputFile()).toString(), "--input-size",
                c.intField("n") + "," + c.intField("c") + "," + c.intField("l_in"), "--scales",
                Double.toString(c.doubleField("scales")), "--soc", "ascend910", "--explain", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("aclnnUpsampleLinear1dBackward plan on Ascend910 (DAV_1001), workspace "), r.out());
        assertTrue(r.out().contains("ResizeBilinearV2Grad5Hd"), r.out());
        assertMeetsCriterion(c, read(out, c.dataType()));

        Path forward = tmp.resolve("forward.npy");
        GoldenCase f = GoldenCase.of("upsample_linear1d").get(0);
        r = cli("linear1d", "--self", f.file(f.inputFile()).toString(), "--output-size", Integer.toString(f.intField("l_out")),
                "--soc", "ascend950", "--explain", "--out", forward.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("2. ResizeLinear:") && r.out().contains("deterministic=false"), r.out());
    }

    @Test
    void operatorStatusesAndBadArguments() {
        GoldenCase c = GoldenCase.extraNamed("bi_fwd_up2x_f32");
        Run r = cli("bilinear2d", "--self", c.file(c.inputFile()).toString(), "--output-size", "8,10", "--soc", "ascend310p",
                "--out", tmp.resolve("x.npy").toString());
        assertEquals(1, r.code());
        assertEquals("ACLNN_ERR_PARAM_INVALID (161002): the operator doesn't support Ascend310P npuArch", r.err().strip());

        r = cli("bilinear2d", "--self", c.file(c.inputFile()).toString(), "--output-size", "8,10", "--scales-h", "-1",
                "--out", tmp.resolve("x.npy").toString());
        assertEquals(1, r.code());
        assertTrue(r.err().contains("scalesH and scalesW cannot be negative"), r.err());

        GoldenCase b = GoldenCase.of("upsample_bilinear2d_backward").get(0);
        r = cli("bilinear2d-backward", "--grad-out", b.file(b.inputFile()).toString(), "--input-size", "1,2,4",
                "--out", tmp.resolve("y.npy").toString());
        assertEquals(1, r.code());
        assertTrue(r.err().contains("It is expected input_size equals to 4, but got size 3"), r.err());

        r = cli("bilinear2d-backward", "--grad-out", b.file(b.inputFile()).toString(), "--input-size", "1,2,4,x",
                "--out", tmp.resolve("y.npy").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("opscv: error: --input-size expects comma-separated integers"), r.err());

        r = cli("linear1d", "--self", c.file(c.inputFile()).toString(), "--output-size", "12", "--out",
                tmp.resolve("z.npy").toString());
        assertEquals(1, r.code());
        assertTrue(r.err().contains("Expected 3 dimension input, but got self with sizes [1, 2, 4, 5]."), r.err());
    }

    @Test
    void gradcheckPassesOnTheCpuAndShowsTheFallbacksScalesException() {
        Run pass = cli("gradcheck", "--input-size", "2,3,7", "--output-size", "16", "--scales", "2.3");
        assertEquals(0, pass.code(), pass.err());
        assertTrue(pass.out().contains("aclnnUpsampleLinear1d / aclnnUpsampleLinear1dBackward on cpu"), pass.out());
        assertTrue(pass.out().strip().endsWith("PASS"), pass.out());

        Run twoD = cli("gradcheck", "--input-size", "1,2,9,6", "--output-size", "4,13", "--align-corners", "--soc",
                "ascend910b");
        assertEquals(0, twoD.code(), twoD.err());
        assertTrue(twoD.out().contains("aclnnUpsampleBilinear2d / aclnnUpsampleBilinear2dBackwardV2 on ascend910b"));

        Run fail = cli("gradcheck", "--input-size", "2,3,7", "--output-size", "16", "--scales", "2.3", "--soc", "ascend910");
        assertEquals(GradcheckCommand.EXIT_NOT_ADJOINT, fail.code(), fail.out());
        assertTrue(fail.out().strip().endsWith("FAIL"), fail.out());

        Run bad = cli("gradcheck", "--input-size", "2,3,7", "--output-size", "16,2");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("--input-size N,C,L goes with --output-size L"), bad.err());
    }

    @Test
    void gradcheckRefusesSizesBeyondItsBoundsWithOneLineAndExitCode2() {
        // The first overflowed an int (ArithmeticException, exit 3); the second ran for half an hour.
        List<String[]> tooLarge = List.of(
                new String[] {"--input-size", "1,1,60000,60000", "--output-size", "2,2"},
                new String[] {"--input-size", "1000,1000,1000", "--output-size", "2000"},
                new String[] {"--input-size", "1,1,2147483647", "--output-size", "2147483647"},
                new String[] {"--input-size", "2147483647,2147483647,2147483647,2147483647", "--output-size", "2147483647,2147483647"},
                new String[] {"--input-size", "1,1,6000", "--output-size", "6000"},
                new String[] {"--input-size", "65,1,4096", "--output-size", "4096"});
        for (String[] sizes : tooLarge) {
            List<String> argv = new java.util.ArrayList<>(List.of("gradcheck"));
            argv.addAll(List.of(sizes));
            Run r = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(60),
                    () -> cli(argv.toArray(new String[0])));
            assertEquals(2, r.code(), String.join(" ", sizes) + ": " + r.err());
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().startsWith("opscv: error: gradcheck") && r.err().contains("limit of"), r.err());
        }
        Run help = cli("gradcheck", "--help");
        assertTrue(help.out().contains("2^27") && help.out().contains("2^25") && help.out().contains("2^30"), help.out());
    }

    @Test
    void helpListsTheNewSubcommands() {
        Run r = cli("--help");
        assertEquals(0, r.code());
        for (String name : List.of("linear1d", "bilinear2d-backward", "bilinear2d", "gradcheck")) {
            assertTrue(r.out().contains(name), name + " in " + r.out());
        }
        Run sub = cli("bilinear2d-backward", "--help");
        assertTrue(sub.out().contains("--format") && sub.out().contains("N,Hin,Win,C"), sub.out());
    }
}
