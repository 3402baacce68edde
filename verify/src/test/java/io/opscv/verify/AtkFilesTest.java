package io.opscv.verify;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.npy.Npy;
import io.opscv.npy.NpyDtype;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Platform;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upstream ATK case files: the sample written for this project and files the tests write (every operator, dtype and
 * alignCorners, downsampling, size 1, input length 1, special values) run on every platform with the verdicts SPEC §6
 * gives; hardware results named by case id are judged; unknown operators are skipped; bad files are one-line errors.
 */
class AtkFilesTest {
    @TempDir
    Path dir;

    @Test
    void theSampleIsReadAsTheUpstreamExecutorDerivesEachCall() throws IOException {
        List<CheckCase> cases = CaseFiles.read(AtkCases.sample());
        assertEquals(10, cases.size());
        assertEquals(List.of("id 0", "id 1", "id 2", "id 3", "id 4", "id 5", "id 6", "id 7", "id 8", "id 9"),
                cases.stream().map(CheckCase::name).toList());
        CheckCase bwd = cases.get(0);
        assertEquals("upsample_linear1d_backward", bwd.op());
        assertEquals(2, bwd.n());
        assertEquals(3, bwd.c());
        assertArrayEquals(new int[] {5}, bwd.inSizes());
        assertArrayEquals(new int[] {12}, bwd.outSizes(), "size is the forward output size; outputSize_int is a placeholder");
        assertArrayEquals(new double[] {0.0}, bwd.scales(), "the executor derives scales 0, not scalesH_double 2");
        assertTrue(bwd.alignCorners());
        assertEquals(DataType.FLOAT, bwd.dataType());
        assertEquals(new InputSource.Drawn(ValueSpec.ONES, 0), bwd.input(), "gradOut = ones, whatever the input's range");
        assertEquals(Standard.BOTH, bwd.standard());
        assertEquals(new InputSource.Drawn(ValueSpec.ONES, 0), cases.get(2).input(), "a backward's special values do not matter");
        CheckCase fwd = cases.get(3);
        assertEquals("upsample_linear1d", fwd.op());
        assertArrayEquals(new double[] {-1.0}, fwd.scales(), "the 1-D forward is called with scales -1 (not given)");
        InputSource.Drawn drawn = (InputSource.Drawn) fwd.input();
        assertEquals(ValueSpec.Kind.NORMAL, drawn.values().kind());
        assertTrue(drawn.values().a() >= -10 && drawn.values().a() <= 10, "mean drawn from [-10, 10]");
        assertTrue(drawn.values().b() >= 1 && drawn.values().b() <= 4, "std drawn from [1, 4]");
        assertArrayEquals(new double[] {Double.NEGATIVE_INFINITY}, ((InputSource.Listed) cases.get(5).input()).fill(1));
        CheckCase bi = cases.get(6);
        assertEquals("upsample_bilinear2d_backward", bi.op());
        assertArrayEquals(new int[] {5, 7}, bi.inSizes());
        assertArrayEquals(new int[] {9, 4}, bi.outSizes());
        assertArrayEquals(new double[] {0.0, 0.0}, bi.scales());
        assertEquals("upsample_bilinear2d", cases.get(9).op());
        assertEquals(DataType.BF16, cases.get(9).dataType());
        // Reproducible: the same file gives the same draws; the seed is the id, so cases of equal ranges differ.
        assertEquals(cases.stream().map(c -> c.input().describe()).toList(),
                CaseFiles.read(AtkCases.sample()).stream().map(c -> c.input().describe()).toList());
        assertTrue(!cases.get(3).input().equals(cases.get(4).input()));
    }

    @Test
    void theSamplePassesOnTheCpu() throws IOException {
        CheckRun run = Checker.check("sample_atk.json", CaseFiles.read(AtkCases.sample()), null, l -> { });
        assertEquals("10 cases: 10 passed, 0 failed, 0 errors, 0 refused, 0 skipped", run.summaryLine());
        for (CaseResult r : run.results()) {
            assertTrue(r.upstreamPass() && r.criterionPass(), r.checkCase().name() + ": both standards decide");
            assertEquals("float64 reference", r.golden());
        }
    }

    @Test
    void generatedFilesOfEveryKindPassOnTheCpuAndAreRefusedByAProductOnlyWhereSpec6Says() throws IOException {
        Path file = AtkCases.write(dir.resolve("atk_every_kind.json"), AtkCases.everyKind());
        List<CheckCase> cases = CaseFiles.read(file);
        assertEquals(4 * 3 * 2 * 4 + 2 * 3 * 4, cases.size());
        CheckRun onCpu = Checker.check(file.toString(), cases, null, l -> { });
        for (CaseResult r : onCpu.results()) {
            assertEquals(Verdict.PASS, r.verdict(), () -> r.checkCase().describe() + ": " + r.message());
        }
        // Every product on every third case (all of them would take long in the default build).
        List<CheckCase> sample = new ArrayList<>();
        for (int i = 0; i < cases.size(); i += 3) {
            sample.add(cases.get(i));
        }
        for (Platform p : Platform.values()) {
            CheckRun run = Checker.check(file.toString(), sample, p, l -> { });
            assertTrue(run.passed(), p + ": " + run.summaryLine());
            for (CaseResult r : run.results()) {
                Verdict expected = PlatformRules.refusal(p, r.checkCase()) != null ? Verdict.REFUSED : Verdict.PASS;
                assertEquals(expected, r.verdict(), () -> p + " " + r.checkCase().describe() + ": " + r.message());
            }
        }
    }

    @Test
    void specialValuesFillTheForwardsInput() throws IOException {
        Path file = AtkCases.write(dir.resolve("specials.json"), List.of(
                AtkCases.atkCase(1, "UpsampleLinear1d", "fp32", new int[] {1, 1, 3}, new int[] {7}, false, "[\"nan\", \"inf\", 2]")));
        CheckCase c = CaseFiles.read(file).getFirst();
        try (Arena arena = Arena.ofConfined()) {
            double[] input = CaseData.decode(CaseData.input(c, new long[] {1, 1, 3}, arena), DataType.FLOAT, 3);
            assertTrue(Double.isNaN(input[0]));
            assertEquals(Double.POSITIVE_INFINITY, input[1]);
            assertEquals(2.0, input[2]);
        }
        assertEquals("filled with nan, inf, 2.0", c.input().describe());
    }

    @Test
    void hardwareResultsNamedByCaseIdAreJudgedByTheUpstreamStandardInsteadOfRunning() throws IOException {
        Path file = AtkCases.write(dir.resolve("hw.json"), List.of(
                AtkCases.atkCase(7, "UpsampleLinear1d", "fp16", new int[] {2, 3, 40}, new int[] {100}, false, AtkCases.NORMAL),
                AtkCases.atkCase(8, "UpsampleBilinear2dBackwardV2", "bf16", new int[] {1, 2, 6, 5}, new int[] {12, 3}, true,
                        AtkCases.NORMAL),
                AtkCases.atkCase(9, "UpsampleLinear1dBackward", "fp32", new int[] {1, 1, 4}, new int[] {8}, false, AtkCases.NORMAL),
                AtkCases.atkCase(10, "UpsampleNearest2d", "fp32", new int[] {1, 1, 4, 4}, new int[] {8, 8}, false, AtkCases.NORMAL)));
        Path results = Files.createDirectory(dir.resolve("npu"));
        List<CheckCase> plain = CaseFiles.read(file);
        writeResult(results, plain.get(0), reference(plain.get(0)));
        double[] off = reference(plain.get(1));
        off[5] += 0.5 * Math.abs(off[5]) + 1;
        writeResult(results, plain.get(1), off);
        // No result for id 9: an error of that case only.
        CheckRun run = Checker.check(file.toString(), CaseFiles.readWithResults(file, results), null, l -> { });
        assertEquals("actual", run.results().get(0).judged());
        assertEquals(results.resolve("7.npy"), run.results().get(0).checkCase().actual());
        assertEquals(Standard.UPSTREAM, run.results().get(0).checkCase().standard());
        assertEquals(Verdict.PASS, run.results().get(0).verdict(), run.results().get(0).message());
        assertEquals(-1, run.results().get(0).workspaceSize(), "the operator did not run");
        assertEquals(Verdict.FAIL, run.results().get(1).verdict());
        assertTrue(run.results().get(1).message().startsWith("MERE "), run.results().get(1).message());
        assertEquals(Verdict.ERROR, run.results().get(2).verdict());
        assertTrue(run.results().get(2).message().contains("9.npy"), run.results().get(2).message());
        assertEquals(Verdict.SKIP, run.results().get(3).verdict());
        CaseFileException notAtk = assertThrows(CaseFileException.class, () -> CaseFiles.readWithResults(
                Files.writeString(dir.resolve("own.json"), "{\"cases\": []}"), results));
        assertTrue(notAtk.getMessage().contains("hardware results from a folder are for ATK files"), notAtk.getMessage());
        CaseFileException noFolder = assertThrows(CaseFileException.class, () -> CaseFiles.readWithResults(file,
                dir.resolve("absent")));
        assertTrue(noFolder.getMessage().endsWith("absent: not a folder of hardware results (<id>.npy per case)"),
                noFolder.getMessage());
    }

    @Test
    void anOperatorOfAnotherProjectIsSkippedWithItsName() throws IOException {
        Path file = AtkCases.write(dir.resolve("foreign_op.json"), List.of(
                "{\"id\": 3, \"aclnn_name\": \"UpsampleNearest2d\", \"inputs\": \"anything\"}",
                AtkCases.atkCase(4, "UpsampleLinear1d", "fp32", new int[] {1, 1, 4}, new int[] {8}, false, AtkCases.NORMAL)));
        CheckRun run = Checker.check(file.toString(), CaseFiles.read(file), null, l -> { });
        CaseResult skipped = run.results().getFirst();
        assertEquals(Verdict.SKIP, skipped.verdict());
        assertTrue(skipped.message().startsWith("aclnnUpsampleNearest2d is not an operator of this project"), skipped.message());
        assertEquals("-", SummaryTable.shape(skipped));
        assertEquals("2 cases: 1 passed, 0 failed, 0 errors, 0 refused, 1 skipped (operator not in this build: UpsampleNearest2d)",
                run.summaryLine());
        assertTrue(run.passed());
    }

    @Test
    void aBadOrForeignFileIsOneLineNamingTheCaseIdAndWhatIsWrong() throws IOException {
        String good = AtkCases.atkCase(5, "UpsampleLinear1d", "fp32", new int[] {1, 2, 4}, new int[] {8}, false, AtkCases.NORMAL);
        assertBad("case at index 0: expected an ATK case (an object with 'aclnn_name'), but got number 1", "[1, 2]");
        assertBad("case at index 0: expected an ATK case (an object with 'aclnn_name'), but got object", "[{\"op\": \"x\"}]");
        assertBad("an ATK file (a JSON array of cases) with no cases", "[]");
        assertBad("case at index 0: field 'id' should be an integer >= 0, but got string \"a\"",
                "[" + good.replace("\"id\": 5", "\"id\": \"a\"") + "]");
        assertBad("case id 5: two cases have this id; ids must be unique", "[" + good + ", " + good + "]");
        assertBad("case id 5, argument 'input': field 'dtype' should be fp32, fp16 or bf16, but got \"int8\"",
                "[" + good.replace("\"dtype\": \"fp32\"", "\"dtype\": \"int8\"") + "]");
        assertBad("case id 5, argument 'input': field 'shape' should be 3 sizes (N, C, L), but got array [1,2]",
                "[" + good.replace("[1, 2, 4]", "[1, 2]") + "]");
        assertBad("case id 5, argument 'input': field 'shape' should be an integer >= 1, but got 0",
                "[" + good.replace("[1, 2, 4]", "[1, 0, 4]") + "]");
        assertBad("case id 5: argument 'mode' is \"nearest\", but UpsampleLinear1d is 'linear' interpolation",
                "[" + good.replace("\"range_values\": \"linear\"", "\"range_values\": \"nearest\"") + "]");
        assertBad("case id 5, inputs[1]: unknown argument 'align_corner'", "[" + good.replace("\"mode\"", "\"align_corner\"") + "]");
        assertBad("case id 5: missing argument 'align_corners'", "[" + good.replace("\"align_corners\"", "\"other\"")
                .replace("\"other\"", "\"mode\"") + "]");
        assertBad("case id 5, field 'standard': 'acc' is \"double_bm\"; this harness judges by \"single_bm\" (SPEC §9)",
                "[" + good.replace("single_bm", "double_bm") + "]");
        assertBad("case id 5, argument 'input', field 'range_values': field 'std' should be [lo, hi] with finite lo <= hi, lo >= 0,"
                + " but got [-1,4]", "[" + good.replace("[1, 4]", "[-1, 4]") + "]");
        assertBad("case id 5, argument 'input': field 'range_values' should be special values \"inf\", \"-inf\", \"nan\" or numbers,"
                + " but got \"big\"", "[" + good.replace(AtkCases.NORMAL, "[\"big\"]") + "]");
        assertBad("case id 5, argument 'size': field 'range_values' should be an integer >= 1, but got 0",
                "[" + good.replace("\"range_values\": 8", "\"range_values\": 0") + "]");
        String twoD = AtkCases.atkCase(6, "UpsampleBilinear2d", "fp16", new int[] {1, 1, 3, 3}, new int[] {5, 5}, false,
                AtkCases.NORMAL);
        assertBad("case id 6: argument 'antialias' is true, but UpsampleBilinear2d has no antialiasing",
                "[" + twoD.replace("\"range_values\": false, \"backward\": false", "\"range_values\": true, \"backward\": false") + "]");
        assertBad("case id 6: argument 'size' should give 2 lengths (H, W), but gives 1",
                "[" + twoD.replaceFirst(", \\{\"name\": \"size\"[^}]*}\\]", "]") + "]");
        assertBad("case id 6: a tensor of 100000000 elements is larger than the harness takes",
                "[" + twoD.replace("[1, 1, 3, 3]", "[1, 1, 10000, 10000]") + "]");
    }

    private void assertBad(String expected, String json) throws IOException {
        Path file = Files.writeString(dir.resolve("bad.json"), json);
        CaseFileException e = assertThrows(CaseFileException.class, () -> CaseFiles.read(file), json);
        assertTrue(e.getMessage().startsWith(file + ": " + expected), () -> "expected <" + expected + "> in <" + e.getMessage() + ">");
        assertTrue(!e.getMessage().contains("\n"), "one line");
    }

    private static double[] reference(CheckCase c) throws IOException {
        OperatorAdapter adapter = OperatorAdapters.forOp(c.op());
        try (Arena arena = Arena.ofConfined()) {
            long[] shape = adapter.inputShape(c);
            double[] input = CaseData.decode(CaseData.input(c, shape, arena), c.dataType(), Math.toIntExact(CaseData.numel(shape)));
            return adapter.reference(c, input);
        }
    }

    /** A result as an NPU would write it: the values rounded once to the case's dtype, in {@code <id>.npy}. */
    private static void writeResult(Path results, CheckCase c, double[] values) throws IOException {
        MemorySegment bytes = Arena.ofAuto().allocate((long) values.length * c.dataType().byteSize());
        CaseData.encode(values, c.dataType(), bytes);
        Npy.write(results.resolve(AtkFiles.resultFileName(c)), NpyDtype.toDescr(c.dataType()),
                OperatorAdapters.forOp(c.op()).outputShape(c), bytes);
    }
}
