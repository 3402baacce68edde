package io.opscv.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.plan.Executor;
import io.opscv.plan.PlanStep;
import io.opscv.plan.WorkspacePlan;
import io.opscv.runtime.AclnnException;
import io.opscv.runtime.DataType;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Platform;
import io.opscv.runtime.SysParamOpt;
import io.opscv.runtime.Tensor;
import io.opscv.testing.Criterion;
import io.opscv.testing.GoldenCase;
import io.opscv.testing.Phase2;
import io.opscv.testing.Reference;
import io.opscv.testing.TestDevice;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The execution plans of {@code aclnnUpsampleLinear1dBackward} on every platform (SPEC §6): their
 * steps, their exact workspace, and their results on every public golden case.
 */
class UpsampleLinear1dBackwardPlansTest {

    /** What SPEC §6 says each platform accepts. */
    static boolean accepts(Platform platform, DataType type, boolean sizesDiffer) {
        return platform.supported() && DtypeSupport.of(platform).contains(type)
                && !(type == DataType.BF16 && platform.arch() == Platform.Arch.DAV_2201 && sizesDiffer);
    }

    /** Whether SPEC §6 sends this call to the fallback plan (sizes only). */
    static boolean fallback(Platform platform, long lin, long lout) {
        return lin != lout && (platform.arch() == Platform.Arch.DAV_1001
                || (platform.arch() == Platform.Arch.DAV_2201 && lout >= UpsampleLinear1dBackward.FALLBACK_MIN_LOUT));
    }

    record Result(double[] values, WorkspaceAndExecutor phase1) {}

    static Result run(Platform platform, GoldenCase c) {
        int n = c.intField("n");
        int ch = c.intField("c");
        int lin = c.intField("l_in");
        int lout = c.intField("l_out");
        try (TestDevice dev = new TestDevice(platform);
             Tensor gradOut = dev.fromRaw(new long[] {n, ch, lout}, c.dataType(), c.inputBytes());
             Tensor out = dev.tensor(new long[] {n, ch, lin}, c.dataType(), new float[n * ch * lin]);
             IntArray outputSize = IntArray.of(lout);
             IntArray inputSize = IntArray.of(n, ch, lin)) {
            WorkspaceAndExecutor p = UpsampleLinear1dBackward.getWorkspaceSize(gradOut, outputSize, inputSize,
                    c.alignCorners(), c.doubleField("scales"), out);
            Phase2.run(dev, p, UpsampleLinear1dBackward::run);
            return new Result(TestDevice.read(out), p);
        }
    }

    static Stream<Arguments> goldenCasesOnEveryPlatform() {
        List<Arguments> args = new ArrayList<>();
        for (GoldenCase c : GoldenCase.of("upsample_linear1d_backward")) {
            for (Platform p : Platform.values()) {
                args.add(Arguments.of(c, p));
            }
        }
        return args.stream();
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("goldenCasesOnEveryPlatform")
    void everyGoldenCaseRunsOnEveryPlatformThatAcceptsItAndAgreesWithTheCpu(GoldenCase c, Platform platform) {
        int lin = c.intField("l_in");
        int lout = c.intField("l_out");
        if (!accepts(platform, c.dataType(), lin != lout)) {
            AclnnException e = assertThrows(AclnnException.class, () -> run(platform, c));
            assertEquals(161002, e.code());
            return;
        }
        double[] got = run(platform, c).values();
        double scales = c.doubleField("scales");
        boolean scalesIgnored = fallback(platform, lin, lout) && !c.alignCorners() && scales > 0
                && 1.0 / scales != (double) lin / lout;
        if (fallback(platform, lin, lout) && c.json().has("nonfinite")) {
            assertFallbackPropagatesNonFiniteValuesAsTensorFlow(c, got);
            return;
        }
        GoldenCase reference = scalesIgnored ? GoldenCase.extraNamed(c.name() + "_sizes_only") : c;
        assertMeetsCriterion(reference, got);

        double[] cpu = run(Platform.CPU, c).values();
        if (fallback(platform, lin, lout)) {
            if (!scalesIgnored) {
                // Another coordinate rule (TensorFlow's), the same gradient: within one criterion width of the cpu.
                double[] e = c.expected();
                double[] b = c.bound();
                for (int k = 0; k < got.length; k++) {
                    if (Double.isFinite(e[k]) && Math.abs(e[k]) < Criterion.overflowThreshold(c.dataType())) {
                        assertTrue(Math.abs(got[k] - cpu[k]) <= allowedError(e[k], b[k], c),
                                c.name() + " element " + k + ": " + got[k] + " vs cpu " + cpu[k]);
                    }
                }
            }
        } else {
            // Same coordinates, same adding order on every plan: bit-identical.
            assertArrayEquals(cpu, got, 0.0, c.name() + " on " + platform + " vs cpu");
        }
    }

    /**
     * With ±Inf or NaN in gradOut, the fallback's TensorFlow taps differ from PyTorch's zero-weight
     * taps: where PyTorch clamps the source at 0 it still adds 0·g to element 1 (NaN for an infinite
     * g); TensorFlow puts both taps on element 0. So the fallback is judged against a float64 model of
     * its own rule, and it may differ from PyTorch only where PyTorch has a NaN.
     */
    static void assertFallbackPropagatesNonFiniteValuesAsTensorFlow(GoldenCase c, double[] got) {
        int rows = c.intField("n") * c.intField("c");
        int lin = c.intField("l_in");
        int lout = c.intField("l_out");
        double[] g = new double[rows * lout];
        java.lang.foreign.MemorySegment raw = c.inputBytes();
        for (int k = 0; k < g.length; k++) {
            g[k] = raw.getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, k);
        }
        double[] expected = Reference.halfPixelLinear1dBackward(g, rows, lin, lout, c.alignCorners());
        double[] bound = Reference.halfPixelLinear1dBackward(Reference.abs(g), rows, lin, lout, c.alignCorners());
        int bad = Criterion.firstFailure(got, expected, bound, c.terms(), c.dataType());
        assertEquals(-1, bad, () -> c.name() + ": element " + bad + " got " + got[bad] + ", expected " + expected[bad]);
        double[] pytorch = c.expected();
        int differences = 0;
        for (int k = 0; k < got.length; k++) {
            if (Criterion.errorRatio(got[k], pytorch[k], c.bound()[k], c.terms(), c.dataType()) > 1) {
                assertTrue(Double.isNaN(pytorch[k]), c.name() + " element " + k + ": " + got[k] + " vs PyTorch " + pytorch[k]);
                differences++;
            }
        }
        assertTrue(differences > 0, "the golden case should show the zero-weight-tap difference");
    }

    /** The criterion's allowed error for one element. */
    static double allowedError(double e, double bound, GoldenCase c) {
        double a = c.dataType() == DataType.FLOAT16 ? Math.scalb(1.0, -24) : Math.scalb(1.0, -126);
        return (c.terms() + 2) * Math.scalb(1.0, -24) * bound
                + Math.scalb(1.0, -Criterion.precisionBits(c.dataType())) * Math.abs(e) + a;
    }

    static void assertMeetsCriterion(GoldenCase c, double[] got) {
        double[] expected = c.expected();
        double[] bound = c.bound();
        assertEquals(expected.length, got.length);
        int bad = Criterion.firstFailure(got, expected, bound, c.terms(), c.dataType());
        assertEquals(-1, bad, () -> c.name() + ": element " + bad + " got " + got[bad] + ", expected " + expected[bad]);
    }

    @Test
    void theFallbackIgnoresAScalesThatDiffersFromTheSizesAsTheHardwareDoes() {
        GoldenCase withScales = GoldenCase.of("upsample_linear1d_backward").stream()
                .filter(k -> k.name().equals("bwd_frac_scales_f32")).findFirst().orElseThrow();
        GoldenCase sizesOnly = GoldenCase.extraNamed("bwd_frac_scales_f32_sizes_only");
        double[] fallback = run(Platform.ASCEND910, withScales).values();
        assertMeetsCriterion(sizesOnly, fallback);
        // ... and that is really another result than PyTorch's with scales 2.3.
        assertTrue(Criterion.firstFailure(fallback, withScales.expected(), withScales.bound(), withScales.terms(),
                DataType.FLOAT) >= 0);
        assertMeetsCriterion(withScales, run(Platform.ASCEND910B, withScales).values());
        assertMeetsCriterion(withScales, run(Platform.ASCEND950, withScales).values());
    }

    static List<String> stepNames(Executor executor) {
        return executor.steps().stream().map(PlanStep::name).toList();
    }

    static WorkspaceAndExecutor plan(TestDevice dev, Platform platform, DataType type, long[] gradShape, long lin,
                                     boolean alignCorners, double scales, boolean stridedGradOut) {
        long n = gradShape[0];
        long c = gradShape[1];
        long lout = gradShape[2];
        float[] values = new float[Math.toIntExact(n * c * lout)];
        Tensor gradOut = stridedGradOut
                ? dev.strided(gradShape, type, new long[] {c * lout * 2, lout * 2, 2}, 1, values)
                : dev.tensor(gradShape, type, values);
        Tensor out = dev.tensor(new long[] {n, c, lin}, type, new float[Math.toIntExact(n * c * lin)]);
        return UpsampleLinear1dBackward.getWorkspaceSize(platform, gradOut, IntArray.of(lout), IntArray.of(n, c, lin),
                alignCorners, scales, out);
    }

    static long aligned(long bytes) {
        return WorkspacePlan.alignUp(bytes);
    }

    @Test
    void cpuRunsOneFusedStepWithoutWorkspace() {
        try (TestDevice dev = new TestDevice()) {
            WorkspaceAndExecutor p = plan(dev, Platform.CPU, DataType.FLOAT16, new long[] {2, 3, 32}, 16, false, 2.0, true);
            assertEquals(List.of("UpsampleLinear1dBackwardFused"), stepNames(p.executor()));
            assertEquals(0, p.workspaceSize());
        }
    }

    @ParameterizedTest
    @EnumSource(value = Platform.class, names = {"CPU", "ASCEND950", "ASCEND910B", "ASCEND910_93", "ASCEND910"})
    void equalLengthsAreOneViewCopyOnEveryPlatform(Platform platform) {
        try (TestDevice dev = new TestDevice()) {
            WorkspaceAndExecutor p = plan(dev, platform, DataType.FLOAT, new long[] {2, 3, 10}, 10, false, 0, true);
            assertEquals(List.of("ViewCopy"), stepNames(p.executor()));
            assertEquals(0, p.workspaceSize());
        }
    }

    @Test
    void ascend950IsContiguousResizeLinearGradViewCopy() {
        try (TestDevice dev = new TestDevice()) {
            WorkspaceAndExecutor contiguous = plan(dev, Platform.ASCEND950, DataType.BF16, new long[] {2, 3, 32}, 16,
                    false, 2.0, false);
            assertEquals(List.of("Contiguous", "ResizeLinearGrad", "ViewCopy"), stepNames(contiguous.executor()));
            // gradOut is contiguous: Contiguous is a view; the only intermediate is ResizeLinearGrad's BF16 result.
            assertEquals(aligned(2 * 3 * 16 * 2), contiguous.workspaceSize());

            WorkspaceAndExecutor strided = plan(dev, Platform.ASCEND950, DataType.BF16, new long[] {2, 3, 32}, 16,
                    false, 2.0, true);
            assertEquals(aligned(2 * 3 * 32 * 2) + aligned(2 * 3 * 16 * 2), strided.workspaceSize());
        }
    }

    @Test
    void a2AndA3UseTheBilinearGradKernelBetweenCasts() {
        for (Platform platform : List.of(Platform.ASCEND910B, Platform.ASCEND910_93)) {
            try (TestDevice dev = new TestDevice()) {
                WorkspaceAndExecutor p = plan(dev, platform, DataType.FLOAT16, new long[] {2, 3, 32}, 16, true, 0, true);
                assertEquals(List.of("Contiguous", "Unsqueeze(2)", "ReFormat(NCHW)", "Cast(DT_FLOAT)", "UpsampleBilinear2dGrad",
                        "Cast(DT_FLOAT16)", "View4dAs3d", "ViewCopy"), stepNames(p.executor()));
                long expected = aligned(2 * 3 * 32 * 2)   // Contiguous (gradOut is strided)
                        + aligned(2 * 3 * 32 * 4)         // Cast to FP32
                        + aligned(2 * 3 * 16 * 4)         // UpsampleBilinear2dGrad's FP32 result
                        + aligned(2 * 3 * 16 * 2);        // Cast back to FP16
                assertEquals(expected, p.workspaceSize());
                assertTrue(p.executor().explain().contains("scales_h=1.0"), p.executor().explain());
            }
        }
    }

    @Test
    void theTrainingSeriesFallsBackThroughTheBlockedLayout() {
        try (TestDevice dev = new TestDevice()) {
            WorkspaceAndExecutor p = plan(dev, Platform.ASCEND910, DataType.FLOAT16, new long[] {1, 11, 30}, 12, false,
                    2.5, false);
            assertEquals(List.of("Contiguous", "Unsqueeze(2)", "ReFormat(NCHW)", "Cast(DT_FLOAT)", "TransData(NCHW->NC1HWC0)",
                    "ResizeBilinearV2Grad5Hd", "TransData(NC1HWC0->NCHW)", "Cast(DT_FLOAT16)", "View4dAs3d", "ViewCopy"),
                    stepNames(p.executor()));
            // C = 11 is padded to C1 = 2 blocks of C0 = 8 FP32 channels.
            long expected = aligned(11 * 30 * 4)        // Cast to FP32
                    + aligned(2 * 30 * 8 * 4)            // TransData to NC1HWC0 (1, 2, 1, 30, 8)
                    + aligned(2 * 12 * 8 * 4)            // ResizeBilinearV2Grad5Hd (1, 2, 1, 12, 8)
                    + aligned(11 * 12 * 4)               // TransData back to NCHW
                    + aligned(11 * 12 * 2);              // Cast back to FP16
            assertEquals(expected, p.workspaceSize());
            String explain = p.executor().explain();
            assertTrue(explain.contains("NC1HWC0 [1, 2, 1, 30, 8]"), explain);
            assertTrue(explain.contains("sizes only"), explain);
        }
    }

    @Test
    void aMillionOutputsSendA2ToTheFallbackAndItStaysCorrect() {
        int lin = 2500;
        int lout = 1_000_000;
        float[] g = TestDevice.randomValues(lout, 7);
        try (TestDevice dev = new TestDevice(Platform.ASCEND910B);
             Tensor gradOut = dev.tensor(new long[] {1, 1, lout}, DataType.FLOAT, g);
             Tensor out = dev.tensor(new long[] {1, 1, lin}, DataType.FLOAT, new float[lin])) {
            WorkspaceAndExecutor p = UpsampleLinear1dBackward.getWorkspaceSize(gradOut, IntArray.of(lout),
                    IntArray.of(1, 1, lin), false, 400.0, out);
            assertTrue(stepNames(p.executor()).contains("ResizeBilinearV2Grad5Hd"), stepNames(p.executor()).toString());
            Phase2.run(dev, p, UpsampleLinear1dBackward::run);
            double[] got = TestDevice.read(out);
            double[] gd = new double[lout];
            for (int j = 0; j < lout; j++) {
                gd[j] = g[j];
            }
            double[] expected = Reference.linear1dBackward(gd, 1, lin, lout, false, 400.0);
            double[] bound = Reference.linear1dBackward(Reference.abs(gd), 1, lin, lout, false, 400.0);
            int bad = Criterion.firstFailure(got, expected, bound, Reference.axisTerms(lin, lout), DataType.FLOAT);
            assertEquals(-1, bad, () -> "element " + bad + ": " + got[bad] + " vs " + expected[bad]);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Platform.class, names = {"ASCEND950", "ASCEND910B", "ASCEND910"})
    void stridedGradOutAndOutGiveTheCpuResultOnEveryNpuPlan(Platform platform) {
        int n = 2;
        int c = 3;
        int lin = 9;
        int lout = 20;
        float[] g = TestDevice.randomValues(n * c * lout, 11);
        double[][] results = new double[2][];
        Platform[] platforms = {Platform.CPU, platform};
        for (int k = 0; k < 2; k++) {
            try (TestDevice dev = new TestDevice(platforms[k]);
                 Tensor gradOut = dev.strided(new long[] {n, c, lout}, DataType.FLOAT16, new long[] {1, n, n * c}, 0, g);
                 Tensor out = dev.strided(new long[] {n, c, lin}, DataType.FLOAT16, new long[] {c * lin * 3, lin * 3, 3}, 2,
                         new float[n * c * lin])) {
                WorkspaceAndExecutor p = UpsampleLinear1dBackward.getWorkspaceSize(gradOut, IntArray.of(lout),
                        IntArray.of(n, c, lin), true, 0, out);
                Phase2.run(dev, p, UpsampleLinear1dBackward::run);
                results[k] = TestDevice.read(out);
                double[] storage = TestDevice.readStorage(out);
                double sentinel = Float.float16ToFloat(Float.floatToFloat16(TestDevice.SENTINEL));
                long touched = Arrays.stream(storage).filter(v -> v != sentinel).count();
                assertTrue(touched <= n * c * lin, "writes outside out's view: " + touched);
            }
        }
        if (platform == Platform.ASCEND910) {
            for (int k = 0; k < results[0].length; k++) {
                assertEquals(results[0][k], results[1][k], 2e-3 * (1 + Math.abs(results[0][k])), "element " + k);
            }
        } else {
            assertArrayEquals(results[0], results[1], 0.0);
        }
    }

    @Test
    void theWorkspaceSizeIsExactlyWhatThePlanUses() {
        try (TestDevice dev = new TestDevice(Platform.ASCEND910)) {
            WorkspaceAndExecutor p = plan(dev, Platform.ASCEND910, DataType.FLOAT16, new long[] {1, 3, 16}, 7, false, 0,
                    true);
            long size = p.workspaceSize();
            assertTrue(size > 0);
            assertEquals(0, size % WorkspacePlan.ALIGNMENT);
            // One byte less is refused before anything runs.
            try (var small = dev.device.malloc(size - 1)) {
                AclnnException e = assertThrows(AclnnException.class,
                        () -> UpsampleLinear1dBackward.run(small, size, p.executor(), dev.stream));
                assertEquals(161002, e.code());
            }
            // Exactly the size runs.
            Phase2.run(dev, p, UpsampleLinear1dBackward::run);
        }
    }

    @Test
    void ascend950ShowsItsDeterminismSwitch() {
        try (TestDevice dev = new TestDevice(Platform.ASCEND950)) {
            WorkspaceAndExecutor before = plan(dev, Platform.ASCEND950, DataType.FLOAT, new long[] {1, 1, 6}, 3, false, 2.0,
                    false);
            assertTrue(before.executor().explain().contains("deterministic=false"), before.executor().explain());
            dev.device.setSysParamOpt(SysParamOpt.ACL_OPT_DETERMINISTIC, 1);
            assertEquals(1, dev.device.getSysParamOpt(SysParamOpt.ACL_OPT_DETERMINISTIC));
            WorkspaceAndExecutor after = plan(dev, Platform.ASCEND950, DataType.FLOAT, new long[] {1, 1, 6}, 3, false, 2.0,
                    false);
            assertTrue(after.executor().explain().contains("deterministic=true"), after.executor().explain());
        }
    }

    @Test
    void explainListsEveryStepWithItsOperandsAndWorkspace() {
        try (TestDevice dev = new TestDevice()) {
            WorkspaceAndExecutor p = plan(dev, Platform.ASCEND910B, DataType.FLOAT16, new long[] {1, 1, 3}, 6, false, 0.5,
                    false);
            String explain = p.executor().explain();
            assertTrue(explain.startsWith("aclnnUpsampleLinear1dBackward plan on Ascend910B (DAV_2201), workspace "
                    + p.workspaceSize() + " bytes"), explain);
            assertTrue(explain.contains("Unsqueeze(2): gradOut FLOAT16 ND [1, 1, 3] -> gradOut FLOAT16 ND [1, 1, 1, 3] (view)"),
                    explain);
            assertTrue(explain.contains("-> gradOut.fp32 FLOAT NCHW [1, 1, 1, 3] @ws+0 [workspace 512 bytes]"), explain);
            assertTrue(explain.contains("ViewCopy: gradInput.fp16 FLOAT16 ND [1, 1, 6] @ws+1024 -> out FLOAT16 ND [1, 1, 6]"),
                    explain);
            assertEquals(8, explain.lines().count() - 1, explain);
        }
    }

    @Test
    void bf16OnA2IsRefusedWhenItWouldInterpolateButCopiesWhenItNeedNot() {
        try (TestDevice dev = new TestDevice()) {
            AclnnException e = assertThrows(AclnnException.class,
                    () -> plan(dev, Platform.ASCEND910B, DataType.BF16, new long[] {1, 2, 12}, 6, false, 0.5, false));
            assertEquals(161002, e.code());
            WorkspaceAndExecutor p = plan(dev, Platform.ASCEND910B, DataType.BF16, new long[] {1, 2, 6}, 6, false, 0, false);
            assertEquals(List.of("ViewCopy"), stepNames(p.executor()));
            assertFalse(p.executor().isLaunched());
        }
    }
}
