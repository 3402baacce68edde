package io.opscv.cli;

import static io.opscv.cli.CheckCommandTest.opscv;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.cli.CheckCommandTest.Run;
import io.opscv.npy.Npy;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code opscv check} on upstream ATK case files (the sample of the verify module's test resources), with
 * {@code --platform}, {@code --report} and {@code --actual DIR}; and hostile case files: each is exit 2 with one line.
 */
class CheckAtkCommandTest {
    @TempDir
    Path dir;

    private static Path sample() {
        return Path.of("../verify/src/test/resources/atk/sample_atk.json").toAbsolutePath().normalize();
    }

    @Test
    void theSampleRunsOnEveryPlatformWithAReport() throws IOException {
        Run run = opscv("check", sample().toString(), "--report", dir.resolve("report").toString());
        assertEquals(0, run.code(), run.err());
        assertEquals("10 cases: 10 passed, 0 failed, 0 errors, 0 refused, 0 skipped", run.outLines().getLast());
        assertTrue(run.outLines().get(1).matches("id 0 +upsample_linear1d_backward +float32 +2x3x12 -> 2x3x5 .* PASS"),
                run.outLines().get(1));
        assertTrue(run.err().contains("check: [ 1/10] id 0 PASS"), run.err());
        assertTrue(Files.readString(dir.resolve("report").resolve("index.html")).contains("<td class=\"name\">id 9</td>"));
        // The training series has no BF16 (ids 2, 4, 9); A2 runs BF16 1-D backward only without interpolation (id 2).
        Run training = opscv("check", sample().toString(), "--platform", "ascend910");
        assertEquals(0, training.code(), training.err());
        assertTrue(training.outLines().getLast().startsWith("10 cases: 7 passed, 0 failed, 0 errors, 3 refused, 0 skipped (refused "
                + "by ascend910 as SPEC §6 says)"), training.out());
        Run a2 = opscv("check", sample().toString(), "--platform", "ascend910b");
        assertEquals(0, a2.code(), a2.err());
        assertTrue(a2.outLines().getLast().startsWith("10 cases: 9 passed, 0 failed, 0 errors, 1 refused"), a2.out());
        Run inference = opscv("check", sample().toString(), "--platform", "ascend310p");
        assertEquals("10 cases: 0 passed, 0 failed, 0 errors, 10 refused, 0 skipped (refused by ascend310p as SPEC §6 says)",
                inference.outLines().getLast());
    }

    @Test
    void hardwareResultsInAFolderAreJudgedByCaseId() throws IOException {
        Path file = Files.writeString(dir.resolve("atk.json"), "[" + Files.readString(sample()).substring(1).split("}, \\{\"id\": 1,")[0]
                + "}]");
        Path results = Files.createDirectory(dir.resolve("npu"));
        // Case 0 is the backward of (2, 3, 5) -> 12 with alignCorners, gradOut ones: a result of zeros is wrong everywhere.
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment zeros = arena.allocate(4 * 30);
            Npy.write(results.resolve("0.npy"), "<f4", new long[] {2, 3, 5}, zeros);
        }
        Run run = opscv("check", file.toString(), "--actual", results.toString());
        assertEquals(CheckCommand.EXIT_CASES_FAILED, run.code(), run.err());
        assertTrue(run.err().contains("check: [1/1] id 0 FAIL: MERE 0.99"), run.err());
        // The same folder holding the right result, computed here by hand and rounded to float32: it passes.
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment exact = arena.allocate(4 * 30);
            float[] row = {gathered(0), gathered(1), gathered(2), gathered(3), gathered(4)};
            for (int k = 0; k < 30; k++) {
                exact.setAtIndex(ValueLayout.JAVA_FLOAT, k, row[k % 5]);
            }
            Npy.write(results.resolve("0.npy"), "<f4", new long[] {2, 3, 5}, exact);
        }
        Run pass = opscv("check", file.toString(), "--actual", results.toString());
        assertEquals(0, pass.code(), pass.err() + pass.out());
        assertTrue(pass.outLines().get(1).endsWith("PASS"), pass.out());
        Run notAtk = opscv("check", Files.writeString(dir.resolve("own.json"), "{\"cases\": []}").toString(), "--actual",
                results.toString());
        assertEquals(OpscvCli.EXIT_USAGE, notAtk.code());
        assertEquals(1, notAtk.err().lines().count(), notAtk.err());
    }

    /**
     * The backward of linear interpolation with alignCorners from 5 to 12 with all-ones gradOut: output j sits at
     * j · 4/11 in the input, and input {@code i} gathers the weights of every j that touches it.
     */
    private static float gathered(int i) {
        double sum = 0;
        for (int j = 0; j < 12; j++) {
            double x = j * 4.0 / 11;
            int left = (int) Math.floor(x);
            double w = x - left;
            if (left == i) {
                sum += 1 - w;
            }
            if (left + 1 == i && left + 1 <= 4) {
                sum += w;
            }
        }
        return (float) sum;
    }

    @Test
    void aBadAtkFileIsExitCode2WithOneLineNamingTheCaseId() throws IOException {
        Path file = Files.writeString(dir.resolve("bad_atk.json"), Files.readString(sample()).replace("\"dtype\": \"fp16\"",
                "\"dtype\": \"int8\""));
        Run run = opscv("check", file.toString());
        assertEquals(OpscvCli.EXIT_USAGE, run.code());
        assertEquals("opscv: error: " + file + ": case id 1, argument 'input': field 'dtype' should be fp32, fp16 or bf16, but got "
                + "\"int8\"\n", run.err());
    }

    @Test
    void deeplyNestedFilesAndAbsurdSweepCountsAreExitCode2WithOneLine() throws IOException {
        for (String open : List.of("[", "{\"a\": ")) {
            Path deep = Files.writeString(dir.resolve("deep.json"), open.repeat(5000));
            Run run = opscv("check", deep.toString());
            assertEquals(OpscvCli.EXIT_USAGE, run.code(), run.err());
            assertTrue(run.err().startsWith("opscv: error: " + deep + ": not valid JSON: Document nesting depth (65) exceeds"),
                    run.err());
            assertEquals(1, run.err().lines().count(), run.err());
        }
        Path sweep = Files.writeString(dir.resolve("sweep.json"), """
                {"sweeps": [{"name": "s", "op": "upsample_linear1d_backward", "count": 2147483647, "seed": 1, "l_in": 4,
                  "ratio": 2, "dtype": "float32"}]}""");
        Run run = opscv("check", sweep.toString());
        assertEquals(OpscvCli.EXIT_USAGE, run.code(), run.err());
        assertEquals("opscv: error: " + sweep + ": sweep 0 ('s'): field 'count' should be at most 100000 (each case's result is "
                + "kept for the table and the report), but got 2147483647\n", run.err());
    }
}
