package io.opscv.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.npy.Npy;
import io.opscv.npy.NpyHeader;
import io.opscv.op.UpsampleLinear1dBackward;
import io.opscv.plan.Executor;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Tensor;
import io.opscv.testing.GoldenFiles;
import io.opscv.testing.TestDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Running cases through the operators: the golden file, the reference as golden, NHWC cases, status cases,
 * progress, and the products of SPEC §6 (refusals, the sizes-only fallback).
 */
class CheckerTest {
    @TempDir
    Path dir;

    @Test
    void theGoldenFilePassesEveryCaseOfEveryOperator() throws IOException {
        List<CheckCase> cases = CaseFiles.read(GoldenFiles.casesJson());
        List<String> progress = new ArrayList<>();
        CheckRun run = Checker.check("cases.json", cases, null, progress::add);
        assertEquals(21, run.results().size());
        for (CaseResult r : run.results()) {
            CheckCase c = r.checkCase();
            assertEquals(Verdict.PASS, r.verdict(), c.name() + ": " + r.message());
            assertEquals("operator", r.judged());
            assertEquals("expected file", r.golden());
            assertEquals(c.terms(), r.terms(), "the file's terms are used");
            assertTrue(r.maxErrorRatio() <= 1.0);
            assertEquals(0, r.workspaceSize(), "the cpu plans need no workspace");
        }
        assertEquals(Set.of("upsample_linear1d_backward", "upsample_linear1d", "upsample_bilinear2d_backward"),
                cases.stream().map(CheckCase::op).collect(Collectors.toSet()), "the golden set's operators");
        assertEquals(21, run.count(Verdict.PASS));
        assertTrue(run.passed());
        assertEquals("21 cases: 21 passed, 0 failed, 0 errors, 0 refused, 0 skipped", run.summaryLine());
        assertEquals(21, progress.size());
        assertEquals("[ 1/21] bwd_up2x_f32 PASS", progress.getFirst());
        assertEquals("[21/21] bi_bwd_up_f16 PASS", progress.getLast());
    }

    @Test
    void withoutExpectedFilesTheFloat64ReferenceIsTheGoldenAndTheGoldenCasesStillPass() throws IOException {
        for (CheckCase golden : CaseFiles.read(GoldenFiles.casesJson())) {
            CheckCase c = new CheckCase(golden.name(), golden.op(), golden.n(), golden.c(), golden.inSizes(), golden.outSizes(),
                    golden.alignCorners(), golden.scales(), golden.dataType(), null, null, golden.input(), null, null, null, null, null,
                    Standard.AUTO, null);
            CaseResult r = Checker.checkOne(c);
            assertEquals(Verdict.PASS, r.verdict(), c.name() + ": " + r.message());
            assertEquals("float64 reference", r.golden());
            assertTrue(r.terms() >= 1, c.name() + " terms " + r.terms());
        }
    }

    /** The golden 2-D cases with every file reordered to NHWC: same verdicts, through NHWC tensors. */
    @Test
    void twoDimensionalCasesRunChannelsLastWithFilesInNhwcOrder() throws IOException {
        int count = 0;
        for (CheckCase golden : CaseFiles.read(GoldenFiles.casesJson())) {
            if (!golden.op().startsWith("upsample_bilinear2d")) {
                continue;
            }
            OperatorAdapter adapter = OperatorAdapters.forOp(golden.op());
            CheckCase shapes = golden.withFormat(Format.NHWC);
            Path input = nhwcCopy(((InputSource.File) golden.input()).path(), golden, adapter.inputShape(shapes), golden.dataType());
            Path expected = nhwcCopy(golden.expected(), golden, adapter.outputShape(shapes), DataType.DOUBLE);
            Path bound = nhwcCopy(golden.bound(), golden, adapter.outputShape(shapes), DataType.DOUBLE);
            CheckCase nhwc = new CheckCase(golden.name(), golden.op(), golden.n(), golden.c(), golden.inSizes(), golden.outSizes(),
                    golden.alignCorners(), golden.scales(), golden.dataType(), Format.NHWC, null, new InputSource.File(input),
                    expected, bound, golden.terms(), null, null, Standard.AUTO, null);
            assertTrue(nhwc.channelsLast());
            assertEquals(golden.c(), nhwc.forwardInputShape()[3], "C is last");
            CaseResult r = Checker.checkOne(nhwc);
            assertEquals(Verdict.PASS, r.verdict(), nhwc.name() + ": " + r.message());
            assertEquals("expected file", r.golden());
            // The float64 reference, reordered by the adapter, agrees with the reordered expected file.
            CheckCase drawnGolden = new CheckCase(nhwc.name(), nhwc.op(), nhwc.n(), nhwc.c(), nhwc.inSizes(), nhwc.outSizes(),
                    nhwc.alignCorners(), nhwc.scales(), nhwc.dataType(), Format.NHWC, null, nhwc.input(), null, null, null, null,
                    null, Standard.AUTO, null);
            assertEquals(Verdict.PASS, Checker.checkOne(drawnGolden).verdict());
            count++;
        }
        assertEquals(3, count);
    }

    /** A copy of the (n, c, h, w) .npy {@code file} reordered as (n, h, w, c) = {@code nhwcShape}. */
    private Path nhwcCopy(Path file, CheckCase c, long[] nhwcShape, DataType type) throws IOException {
        NpyHeader header = Npy.readHeader(file);
        int size = type.byteSize();
        int h = Math.toIntExact(header.shape()[2]);
        int w = Math.toIntExact(header.shape()[3]);
        Path copy = dir.resolve(file.getFileName().toString().replace(".npy", ".nhwc.npy"));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nchw = arena.allocate(header.dataBytes());
            Npy.readData(file, header, nchw);
            MemorySegment nhwc = arena.allocate(header.dataBytes());
            for (int i = 0; i < c.n(); i++) {
                for (int k = 0; k < c.c(); k++) {
                    for (int s = 0; s < h * w; s++) {
                        MemorySegment.copy(nchw, ((long) (i * c.c() + k) * h * w + s) * size, nhwc,
                                ((long) (i * h * w + s) * c.c() + k) * size, size);
                    }
                }
            }
            Npy.write(copy, header.descr(), nhwcShape, nhwc);
        }
        return copy;
    }

    @Test
    void statusCasesAreRefusedOnTheExpectedStatusOnly() throws IOException {
        Path file = dir.resolve("status.json");
        Files.writeString(file, """
                {"cases": [
                  {"op": "upsample_linear1d_backward", "name": "scale501", "n": 1, "c": 1, "l_in": 6, "l_out": 3300,
                   "scales": 550, "dtype": "float32", "expect_status": 161002},
                  {"op": "upsample_linear1d_backward", "name": "scale400", "n": 1, "c": 1, "l_in": 6, "l_out": 2400,
                   "scales": 400, "dtype": "float32", "values": "ones"},
                  {"op": "upsample_linear1d_backward", "name": "013_empty", "n": 0, "c": 1, "l_in": 6, "l_out": 12,
                   "scales": 2, "dtype": "float32", "values": "ones"},
                  {"op": "upsample_linear1d_backward", "name": "019_output_size_0", "n": 1, "c": 1, "l_in": 6, "l_out": 0,
                   "dtype": "float32", "expect_status": 161002},
                  {"op": "upsample_linear1d_backward", "name": "bf16_on_training_series", "n": 1, "c": 1, "l_in": 6, "l_out": 12,
                   "dtype": "bfloat16", "platform": "ascend910", "expect_status": 161002},
                  {"op": "upsample_linear1d_backward", "name": "wrongly_expects_refusal", "n": 1, "c": 1, "l_in": 6, "l_out": 12,
                   "dtype": "float32", "expect_status": 161002},
                  {"op": "upsample_linear1d_backward", "name": "wrong_status", "n": 1, "c": 1, "l_in": 6, "l_out": 3300,
                   "scales": 550, "dtype": "float32", "expect_status": 161001}
                ]}""");
        CheckRun run = Checker.check("status.json", CaseFiles.read(file), null, line -> { });
        Map<String, CaseResult> byName = run.results().stream().collect(Collectors.toMap(r -> r.checkCase().name(),
                Function.identity()));
        // Phase 1 refusing as the case expects is REFUSED, the verdict of a product's refusal too: one notion of refused.
        assertEquals(Verdict.REFUSED, byName.get("scale501").verdict());
        assertEquals("status", byName.get("scale501").judged());
        assertTrue(byName.get("scale501").message().startsWith("refused with the status the case expects: ACLNN_ERR_PARAM_INVALID "
                + "(161002)"), byName.get("scale501").message());
        assertEquals(Verdict.PASS, byName.get("scale400").verdict(), byName.get("scale400").message());
        assertEquals(6, byName.get("scale400").elements(), "out (1, 1, 6) is judged");
        assertEquals(Verdict.PASS, byName.get("013_empty").verdict());
        assertEquals(0, byName.get("013_empty").elements());
        assertEquals(Verdict.REFUSED, byName.get("019_output_size_0").verdict());
        assertEquals(Verdict.REFUSED, byName.get("bf16_on_training_series").verdict());
        assertTrue(byName.get("bf16_on_training_series").message().contains("DT_BF16"), byName.get("bf16_on_training_series").message());
        assertEquals(Verdict.FAIL, byName.get("wrongly_expects_refusal").verdict());
        assertEquals("expected status 161002, but phase 1 succeeded", byName.get("wrongly_expects_refusal").message());
        assertEquals(Verdict.FAIL, byName.get("wrong_status").verdict());
        assertTrue(byName.get("wrong_status").message().startsWith("expected status 161001, got ACLNN_ERR_PARAM_INVALID (161002): "
                + "scales should be <= 500"), byName.get("wrong_status").message());
        assertEquals(2, run.count(Verdict.FAIL));
        assertEquals(3, run.count(Verdict.REFUSED));
        assertTrue(run.summaryLine().startsWith("7 cases: 2 passed, 2 failed, 0 errors, 3 refused, 0 skipped (3 with the status the "
                + "case expects)"), run.summaryLine());
        assertTrue(!run.passed());
    }

    @Test
    void thePlatformOverrideReplacesEveryCasesPlatformAndAProductRefusalIsReportedAsRefused() throws IOException {
        Path file = dir.resolve("platform.json");
        Files.writeString(file, """
                {"cases": [{"op": "upsample_linear1d_backward", "name": "bf16_up", "n": 1, "c": 3, "l_in": 6, "l_out": 12,
                   "dtype": "bfloat16", "values": "normal", "platform": "cpu"}]}""");
        List<CheckCase> cases = CaseFiles.read(file);
        assertEquals(Verdict.PASS, Checker.check("p", cases, null, line -> { }).results().getFirst().verdict());
        // A2 (Ascend910B) runs BF16 only without interpolation (SPEC §6): phase 1 refuses, as it must.
        CheckRun onA2 = Checker.check("p", cases, Platform.ASCEND910B, line -> { });
        CaseResult refused = onA2.results().getFirst();
        assertEquals(Verdict.REFUSED, refused.verdict());
        assertEquals(Platform.ASCEND910B, refused.checkCase().platform());
        assertTrue(refused.message().startsWith("SPEC §6: Ascend910B (DAV_2201) runs BF16 only when gradOut's shape equals "
                + "inputSize: ACLNN_ERR_PARAM_INVALID (161002): Tensor gradOut of dtype DT_BF16 is supported on Ascend910B only "
                + "when"), refused.message());
        assertTrue(onA2.passed(), "a refusal SPEC §6 asks for is not a failure");
        assertEquals("1 case: 0 passed, 0 failed, 0 errors, 1 refused, 0 skipped (refused by ascend910b as SPEC §6 says)",
                onA2.summaryLine());
        assertTrue(!refused.judgedNumerically());
    }

    @Test
    void everyProductRefusalOfSpecSection6IsRefusedAndNothingElse() throws IOException {
        Path file = dir.resolve("products.json");
        Files.writeString(file, """
                {"cases": [
                  {"op": "upsample_linear1d_backward", "name": "bwd_bf16_same", "n": 1, "c": 2, "l_in": 6, "l_out": 6,
                   "dtype": "bfloat16", "values": "normal"},
                  {"op": "upsample_linear1d_backward", "name": "bwd_bf16_up", "n": 1, "c": 2, "l_in": 6, "l_out": 12,
                   "dtype": "bfloat16", "values": "normal"},
                  {"op": "upsample_linear1d", "name": "fwd_bf16_up", "n": 1, "c": 2, "l_in": 6, "l_out": 12,
                   "dtype": "bfloat16", "values": "normal"},
                  {"op": "upsample_bilinear2d_backward", "name": "bi_bwd_bf16", "n": 1, "c": 2, "h_in": 3, "w_in": 4,
                   "h_out": 6, "w_out": 5, "dtype": "bfloat16", "values": "normal"},
                  {"op": "upsample_bilinear2d", "name": "bi_fwd_f16", "n": 1, "c": 2, "h_in": 3, "w_in": 4,
                   "h_out": 6, "w_out": 5, "dtype": "float16", "values": "normal"}
                ]}""");
        List<CheckCase> cases = CaseFiles.read(file);
        Map<Platform, List<Verdict>> expected = Map.of(
                Platform.CPU, List.of(Verdict.PASS, Verdict.PASS, Verdict.PASS, Verdict.PASS, Verdict.PASS),
                Platform.ASCEND950, List.of(Verdict.PASS, Verdict.PASS, Verdict.PASS, Verdict.PASS, Verdict.PASS),
                // DAV_2201: BF16 in the 1-D backward only without interpolation; the sister operators take BF16.
                Platform.ASCEND910B, List.of(Verdict.PASS, Verdict.REFUSED, Verdict.PASS, Verdict.PASS, Verdict.PASS),
                Platform.ASCEND910_93, List.of(Verdict.PASS, Verdict.REFUSED, Verdict.PASS, Verdict.PASS, Verdict.PASS),
                // The training series has no BF16 at all.
                Platform.ASCEND910, List.of(Verdict.REFUSED, Verdict.REFUSED, Verdict.REFUSED, Verdict.REFUSED, Verdict.PASS),
                Platform.ASCEND310B, List.of(Verdict.REFUSED, Verdict.REFUSED, Verdict.REFUSED, Verdict.REFUSED, Verdict.REFUSED),
                Platform.ASCEND310P, List.of(Verdict.REFUSED, Verdict.REFUSED, Verdict.REFUSED, Verdict.REFUSED, Verdict.REFUSED));
        for (Platform p : Platform.values()) {
            CheckRun run = Checker.check("products", cases, p, line -> { });
            assertEquals(expected.get(p), run.results().stream().map(CaseResult::verdict).toList(), p + ": " + run.summaryLine());
            assertTrue(run.passed(), p.toString());
        }
    }

    @Test
    void aSizesOnlyPlanIsJudgedAgainstTheSizesOnlyReferenceAndItsDifferenceFromSpec1IsReported() throws IOException {
        // bwd_frac_scales_f32: Lin 7, Lout 16, scales 2.3 != 16 / 7. The training series' fallback ignores the scales.
        CheckCase golden = CaseFiles.read(GoldenFiles.casesJson()).stream().filter(c -> c.name().equals("bwd_frac_scales_f32"))
                .findFirst().orElseThrow();
        CaseResult onCpu = Checker.checkOne(golden);
        assertEquals("expected file", onCpu.golden());
        assertEquals(null, onCpu.withScales());
        CaseResult onTraining = Checker.checkOne(golden.onPlatform(Platform.ASCEND910));
        assertEquals(Verdict.PASS, onTraining.verdict(), onTraining.message());
        assertEquals(CaseResult.SIZES_ONLY_GOLDEN, onTraining.golden());
        assertEquals(Verdict.FAIL, onTraining.withScales(), "SPEC §6: the fallback's result differs from PyTorch's with scales");
        assertTrue(onTraining.message().startsWith("the plan takes the sizes only (SPEC §6); against the expected file with the "
                + "given scales: differs, error ratio "), onTraining.message());
        // With the scales not given, the two goldens agree.
        CheckCase derived = new CheckCase("derived", golden.op(), golden.n(), golden.c(), golden.inSizes(), golden.outSizes(),
                false, new double[] {0.0}, golden.dataType(), null, Platform.ASCEND910, golden.input(), null, null, null, null,
                null, Standard.AUTO, null);
        CaseResult agree = Checker.checkOne(derived);
        assertEquals(Verdict.PASS, agree.verdict(), agree.message());
        assertEquals(Verdict.PASS, agree.withScales());
    }

    @Test
    void aSizesOnlyStepCountsOnlyOnTheArchitecturesWhoseFallbackSpecSection6Describes() {
        try (TestDevice dev = new TestDevice();
             Tensor gradOut = dev.tensor(new long[] {1, 1, 16}, DataType.FLOAT, new float[16]);
             Tensor out = dev.tensor(new long[] {1, 1, 7}, DataType.FLOAT, new float[7]);
             IntArray outputSize = IntArray.of(16);
             IntArray inputSize = IntArray.of(1, 1, 7)) {
            Executor fallback = UpsampleLinear1dBackward.getWorkspaceSize(Platform.ASCEND910, gradOut, outputSize, inputSize, false,
                    2.3, out).executor();
            Executor fused = UpsampleLinear1dBackward.getWorkspaceSize(Platform.CPU, gradOut, outputSize, inputSize, false, 2.3, out)
                    .executor();
            assertTrue(PlatformRules.sizesOnlyPlan(Platform.ASCEND910, fallback));
            assertTrue(!PlatformRules.sizesOnlyPlan(Platform.ASCEND910, fused));
            // A sizes-only step on the cpu or Ascend950 would be a wrong plan: it is judged by SPEC §1 and fails there.
            assertTrue(!PlatformRules.sizesOnlyPlan(Platform.CPU, fallback));
            assertTrue(!PlatformRules.sizesOnlyPlan(Platform.ASCEND950, fallback));
        }
    }

    @Test
    void aMissingInputFileIsAnErrorOfThatCaseOnly() throws IOException {
        Path file = dir.resolve("missing.json");
        Files.writeString(file, """
                {"cases": [
                  {"op": "upsample_linear1d_backward", "name": "missing", "n": 1, "c": 1, "l_in": 6, "l_out": 12,
                   "dtype": "float32", "grad_out": "nowhere.npy"},
                  {"op": "upsample_linear1d_backward", "name": "fine", "n": 1, "c": 1, "l_in": 6, "l_out": 12,
                   "dtype": "float32", "values": "ones"}
                ]}""");
        CheckRun run = Checker.check("missing.json", CaseFiles.read(file), null, line -> { });
        assertEquals(Verdict.ERROR, run.results().get(0).verdict());
        assertEquals(dir.resolve("nowhere.npy") + ": no such file", run.results().get(0).message());
        assertEquals(Verdict.PASS, run.results().get(1).verdict());
        assertTrue(!run.passed());
        assertEquals("2 cases: 1 passed, 0 failed, 1 errors, 0 refused, 0 skipped", run.summaryLine());
    }
}
