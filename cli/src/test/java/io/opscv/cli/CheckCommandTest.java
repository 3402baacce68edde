package io.opscv.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.npy.Npy;
import io.opscv.testing.GoldenFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code opscv check FILE.json [--platform NAME] [--report DIR]}: exit codes, table, progress, report. */
class CheckCommandTest {
    @TempDir
    Path dir;

    record Run(int code, String out, String err) {
        List<String> outLines() {
            return out.lines().toList();
        }
    }

    static Run opscv(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = OpscvCli.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theGoldenFilePassesWithATableOnStdoutAndProgressOnStderr() {
        Path golden = GoldenFiles.casesJson();
        Run run = opscv("check", golden.toString());
        assertEquals(0, run.code(), run.err());
        List<String> lines = run.outLines();
        assertEquals(23, lines.size(), run.out());
        assertTrue(lines.getFirst().matches("case +op +dtype +shape \\(input -> output\\) +max err ratio +MERE +MARE +verdict"),
                lines.getFirst());
        assertTrue(lines.get(1).matches("bwd_up2x_f32 +upsample_linear1d_backward +float32 +2x3x32 -> 2x3x16 +0\\.\\d+ +\\S+ +\\S+ +PASS"),
                lines.get(1));
        assertEquals("21 cases: 21 passed, 0 failed, 0 errors, 0 refused, 0 skipped", lines.getLast());
        assertTrue(lines.get(21).matches("bi_bwd_up_f16 +upsample_bilinear2d_backward +float16 +1x4x40x24 -> 1x4x16x16 +0\\.\\d+ +\\S+ +\\S+ "
                + "+PASS"), lines.get(21));
        List<String> progress = run.err().lines().toList();
        assertEquals("check: 21 cases from " + golden, progress.getFirst());
        assertEquals(22, progress.size(), run.err());
        assertEquals("check: [ 1/21] bwd_up2x_f32 PASS", progress.get(1));
    }

    @Test
    void aWrongActualResultMakesTheCommandFailWithExitCode4() throws IOException {
        Path file = dir.resolve("hw.json");
        try (Arena arena = Arena.ofConfined()) {
            // out of an all-ones gradOut (1, 1, 12) -> (1, 1, 6) with scales 2 is 2 everywhere; one element says 2.5.
            MemorySegment values = arena.allocate(4 * 6);
            for (int k = 0; k < 6; k++) {
                values.setAtIndex(ValueLayout.JAVA_FLOAT, k, k == 3 ? 2.5f : 2f);
            }
            Npy.write(dir.resolve("npu_out.npy"), "<f4", new long[] {1, 1, 6}, values);
        }
        Files.writeString(file, """
                {"cases": [{"op": "upsample_linear1d_backward", "name": "npu", "n": 1, "c": 1, "l_in": 6, "l_out": 12,
                  "scales": 2.0, "dtype": "float32", "values": "ones", "actual": "npu_out.npy"}]}""");
        Run run = opscv("check", file.toString(), "--report", dir.resolve("report").toString());
        assertEquals(CheckCommand.EXIT_CASES_FAILED, run.code(), run.err());
        assertTrue(run.outLines().get(1).endsWith("FAIL"), run.out());
        assertEquals("1 case: 0 passed, 1 failed, 0 errors, 0 refused, 0 skipped", run.outLines().getLast());
        assertTrue(run.err().contains("check: [1/1] npu FAIL: element 3: got 2.5, expected 2.0"), run.err());
        Path page = dir.resolve("report").resolve("index.html");
        assertTrue(Files.isRegularFile(page));
        assertTrue(run.err().contains("check: report written to " + page), run.err());
        assertTrue(Files.readString(page).contains("<td class=\"name\">npu</td>"));
    }

    @Test
    void thePlatformOptionRunsEveryCaseAsThatPlatformAndReportsItsRefusals() throws IOException {
        Path file = dir.resolve("bf16.json");
        Files.writeString(file, """
                {"cases": [{"op": "upsample_linear1d_backward", "name": "bf16_up", "n": 2, "c": 3, "l_in": 6, "l_out": 12,
                  "dtype": "bfloat16", "values": "normal"},
                 {"op": "upsample_bilinear2d", "name": "f32_frac", "n": 1, "c": 2, "h_in": 7, "w_in": 5, "h_out": 16,
                  "w_out": 11, "scales_h": 2.3, "scales_w": 2.25, "dtype": "float32", "format": "nhwc", "values": "normal"}]}""");
        Run onCpu = opscv("check", file.toString());
        assertEquals(0, onCpu.code(), onCpu.err());
        assertEquals("2 cases: 2 passed, 0 failed, 0 errors, 0 refused, 0 skipped", onCpu.outLines().getLast());
        // A2 (Ascend910B) runs BF16 only without interpolation (SPEC §6): refused as it must be, which is not a failure.
        Run onA2 = opscv("check", file.toString(), "--platform", "ascend910b");
        assertEquals(0, onA2.code(), onA2.err());
        assertTrue(onA2.err().contains("bf16_up REFUSED: SPEC §6: Ascend910B (DAV_2201) runs BF16 only when gradOut's shape "
                + "equals inputSize: ACLNN_ERR_PARAM_INVALID (161002): Tensor gradOut of dtype DT_BF16"), onA2.err());
        assertTrue(onA2.outLines().get(1).endsWith("REFUSED"), onA2.out());
        assertEquals("2 cases: 1 passed, 0 failed, 0 errors, 1 refused, 0 skipped (refused by ascend910b as SPEC §6 says)",
                onA2.outLines().getLast());
        // The training series: no BF16, and the 2-D forward takes the sizes-only fallback, which ignores scales that are
        // not the size ratio (SPEC §6): judged against the sizes-only reference, and the difference is reported.
        Run onTraining = opscv("check", file.toString(), "--platform", "ascend910");
        assertEquals(0, onTraining.code(), onTraining.err());
        assertTrue(onTraining.err().contains("bf16_up REFUSED: SPEC §6: the training series (Ascend910) has no BF16"),
                onTraining.err());
        assertEquals("2 cases: 1 passed, 0 failed, 0 errors, 1 refused, 0 skipped (refused by ascend910 as SPEC §6 says); "
                + "1 judged against the sizes-only reference (SPEC §6 fallback plan), 1 of them outside the standard against "
                + "SPEC §1 with the given scales", onTraining.outLines().getLast());
        Run onInference = opscv("check", file.toString(), "--platform", "ascend310p");
        assertEquals(0, onInference.code(), onInference.err());
        assertTrue(onInference.out().contains("2 refused"), onInference.out());
    }

    @Test
    void badArgumentsAndBadFilesAreExitCode2WithOneLine() throws IOException {
        Run missing = opscv("check", dir.resolve("absent.json").toString());
        assertEquals(OpscvCli.EXIT_USAGE, missing.code());
        assertEquals("opscv: error: " + dir.resolve("absent.json") + ": no such file\n", missing.err());

        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"cases\": [{\"op\": \"upsample_linear1d_backward\", \"name\": \"x\"}]}");
        Run invalid = opscv("check", bad.toString());
        assertEquals(OpscvCli.EXIT_USAGE, invalid.code());
        assertEquals("opscv: error: " + bad + ": case 0 ('x'): missing field 'n'\n", invalid.err());

        Run platform = opscv("check", bad.toString(), "--platform", "tpu");
        assertEquals(OpscvCli.EXIT_USAGE, platform.code());
        assertTrue(platform.err().startsWith("opscv: error: --platform: unknown platform 'tpu' (known: cpu, ascend950"),
                platform.err());
    }

    @Test
    void theHelpListsCheckAndItsOptions() {
        Run help = opscv("check", "--help");
        assertEquals(0, help.code());
        assertTrue(help.out().contains("--platform=NAME"), help.out());
        assertTrue(help.out().contains("--report=DIR"), help.out());
        assertTrue(help.out().contains("--actual=DIR"), help.out());
        assertTrue(opscv("--help").out().contains("check"));
    }
}
