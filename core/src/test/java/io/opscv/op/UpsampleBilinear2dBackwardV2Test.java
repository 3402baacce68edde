package io.opscv.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.plan.PlanStep;
import io.opscv.plan.WorkspacePlan;
import io.opscv.runtime.AclnnException;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Tensor;
import io.opscv.testing.Criterion;
import io.opscv.testing.GoldenCase;
import io.opscv.testing.Layout2d;
import io.opscv.testing.Phase2;
import io.opscv.testing.Reference;
import io.opscv.testing.TestDevice;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code aclnnUpsampleBilinear2dBackwardV2}: every golden case (public and extra) on every platform,
 * NCHW and NHWC; the plans; non-contiguous tensors.
 */
class UpsampleBilinear2dBackwardV2Test {
    static final String OP = "upsample_bilinear2d_backward";

    static boolean accepts(Platform platform, DataType type) {
        return platform.supported() && DtypeSupport.of(platform).contains(type);
    }

    /** SPEC §6 / upstream: the sizes-only fallback runs on the training series, and on A2/A3 past 100x upsampling. */
    static boolean fallback(Platform platform, int hin, int win, int hout, int wout, double sh, double sw) {
        boolean differ = hin != hout || win != wout;
        boolean tooFine = UpsampleBilinear2dBackwardV2.sourceStep(hin, hout, sh) < 0.01
                || UpsampleBilinear2dBackwardV2.sourceStep(win, wout, sw) < 0.01;
        return differ && (platform.arch() == Platform.Arch.DAV_1001 || (platform.arch() == Platform.Arch.DAV_2201 && tooFine));
    }

    static boolean scalesDifferFromSizes(GoldenCase c) {
        return !c.alignCorners() && (differs(c.doubleField("scales_h"), c.intField("h_in"), c.intField("h_out"))
                || differs(c.doubleField("scales_w"), c.intField("w_in"), c.intField("w_out")));
    }

    private static boolean differs(double scales, int in, int out) {
        return scales > 0 && 1.0 / scales != (double) in / out;
    }

    /** Runs the case in {@code layout}; returns the result in NCHW order. */
    static double[] run(Platform platform, GoldenCase c, Format layout) {
        int n = c.intField("n");
        int ch = c.intField("c");
        int hin = c.intField("h_in");
        int win = c.intField("w_in");
        int hout = c.intField("h_out");
        int wout = c.intField("w_out");
        boolean nhwc = layout == Format.NHWC;
        java.lang.foreign.MemorySegment raw = c.inputBytes();
        if (nhwc) {
            raw = Layout2d.nchwToNhwc(raw, c.dataType().byteSize(), n, ch, hout, wout);
        }
        long[] gradShape = nhwc ? new long[] {n, hout, wout, ch} : new long[] {n, ch, hout, wout};
        long[] inputSize = nhwc ? new long[] {n, hin, win, ch} : new long[] {n, ch, hin, win};
        try (TestDevice dev = new TestDevice(platform);
             Tensor gradOut = dev.fromRaw(gradShape, c.dataType(), raw, layout);
             Tensor out = dev.tensor(inputSize, c.dataType(), new float[n * ch * hin * win], layout)) {
            WorkspaceAndExecutor p = UpsampleBilinear2dBackwardV2.getWorkspaceSize(gradOut, IntArray.of(hout, wout),
                    IntArray.of(inputSize), c.alignCorners(), c.doubleField("scales_h"), c.doubleField("scales_w"), out);
            Phase2.run(dev, p, UpsampleBilinear2dBackwardV2::run);
            double[] got = TestDevice.read(out);
            return nhwc ? Layout2d.nhwcToNchw(got, n, ch, hin, win) : got;
        }
    }

    static Stream<Arguments> casesOnEveryPlatformInBothLayouts() {
        List<GoldenCase> cases = new ArrayList<>(GoldenCase.of(OP));
        cases.addAll(GoldenCase.extraOf(OP).stream().filter(c -> c.reference().equals("pytorch")).toList());
        List<Arguments> args = new ArrayList<>();
        for (GoldenCase c : cases) {
            for (Platform p : Platform.values()) {
                for (Format layout : List.of(Format.NCHW, Format.NHWC)) {
                    args.add(Arguments.of(c, p, layout));
                }
            }
        }
        return args.stream();
    }

    @ParameterizedTest(name = "{0} on {1}, {2}")
    @MethodSource("casesOnEveryPlatformInBothLayouts")
    void everyGoldenCaseOnEveryPlatformInBothLayoutsMeetsTheCriterion(GoldenCase c, Platform platform, Format layout) {
        if (!accepts(platform, c.dataType())) {
            AclnnException e = assertThrows(AclnnException.class, () -> run(platform, c, layout));
            assertEquals(161002, e.code());
            return;
        }
        double[] got = run(platform, c, layout);
        boolean fallback = fallback(platform, c.intField("h_in"), c.intField("w_in"), c.intField("h_out"),
                c.intField("w_out"), c.doubleField("scales_h"), c.doubleField("scales_w"));
        boolean scalesIgnored = fallback && scalesDifferFromSizes(c);
        GoldenCase reference = scalesIgnored ? GoldenCase.extraNamed(c.name() + "_sizes_only") : c;
        assertMeetsCriterion(reference, got);

        double[] cpu = run(Platform.CPU, c, Format.NCHW);
        if (!fallback) {
            assertArrayEquals(cpu, got, 0.0, c.name() + " on " + platform + " " + layout + " vs cpu NCHW");
        } else if (!scalesIgnored) {
            double[] e = c.expected();
            double[] b = c.bound();
            for (int k = 0; k < got.length; k++) {
                assertTrue(Math.abs(got[k] - cpu[k]) <= UpsampleLinear1dBackwardPlansTest.allowedError(e[k], b[k], c),
                        c.name() + " element " + k + ": " + got[k] + " vs cpu " + cpu[k]);
            }
        }
    }

    static void assertMeetsCriterion(GoldenCase c, double[] got) {
        UpsampleLinear1dBackwardPlansTest.assertMeetsCriterion(c, got);
    }

    @Test
    void theFallbackIgnoresScalesThatDifferFromTheSizes() {
        GoldenCase withScales = GoldenCase.extraNamed("bi_bwd_frac_scales_f32");
        GoldenCase sizesOnly = GoldenCase.extraNamed("bi_bwd_frac_scales_f32_sizes_only");
        double[] fallback = run(Platform.ASCEND910, withScales, Format.NCHW);
        assertMeetsCriterion(sizesOnly, fallback);
        assertTrue(Criterion.firstFailure(fallback, withScales.expected(), withScales.bound(), withScales.terms(),
                DataType.FLOAT) >= 0, "the sizes-only result should differ from PyTorch's with scales");
    }

    static List<String> steps(Platform platform, DataType type, Format layout, long[] gradNchw, long[] outNchw,
                              double sh, double sw, List<Long> workspace) {
        try (TestDevice dev = new TestDevice()) {
            long[] gradShape = layout == Format.NHWC ? nhwc(gradNchw) : gradNchw;
            long[] outShape = layout == Format.NHWC ? nhwc(outNchw) : outNchw;
            Tensor gradOut = dev.tensor(gradShape, type, new float[(int) numel(gradShape)], layout);
            Tensor out = dev.tensor(outShape, type, new float[(int) numel(outShape)], layout);
            WorkspaceAndExecutor p = UpsampleBilinear2dBackwardV2.getWorkspaceSize(platform, gradOut,
                    IntArray.of(gradNchw[2], gradNchw[3]), IntArray.of(outShape), false, sh, sw, out);
            workspace.add(p.workspaceSize());
            return p.executor().steps().stream().map(PlanStep::name).toList();
        }
    }

    static long[] nhwc(long[] nchw) {
        return new long[] {nchw[0], nchw[2], nchw[3], nchw[1]};
    }

    static long numel(long[] shape) {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        return n;
    }

    static long aligned(long bytes) {
        return WorkspacePlan.alignUp(bytes);
    }

    @Test
    void cpuIsOneFusedStepInBothLayouts() {
        for (Format layout : List.of(Format.NCHW, Format.NHWC)) {
            List<Long> ws = new ArrayList<>();
            assertEquals(List.of("UpsampleBilinear2dBackwardFused"),
                    steps(Platform.CPU, DataType.FLOAT16, layout, new long[] {1, 3, 8, 10}, new long[] {1, 3, 4, 5}, 2, 2, ws));
            assertEquals(0L, ws.get(0));
        }
    }

    @Test
    void a2RunsTheGradKernelInFp32AndTransposesNhwc() {
        List<Long> ws = new ArrayList<>();
        assertEquals(List.of("Contiguous", "Cast(DT_FLOAT)", "UpsampleBilinear2dGrad", "Cast(DT_FLOAT16)", "ViewCopy"),
                steps(Platform.ASCEND910B, DataType.FLOAT16, Format.NCHW, new long[] {1, 3, 8, 10}, new long[] {1, 3, 4, 5},
                        2, 2, ws));
        assertEquals(aligned(240 * 4) + aligned(60 * 4) + aligned(60 * 2), ws.get(0));
        assertEquals(List.of("Contiguous", "Transpose(0,3,1,2)", "Cast(DT_FLOAT)", "UpsampleBilinear2dGrad",
                        "Transpose(0,2,3,1)", "Cast(DT_FLOAT16)", "ViewCopy"),
                steps(Platform.ASCEND910_93, DataType.FLOAT16, Format.NHWC, new long[] {1, 3, 8, 10}, new long[] {1, 3, 4, 5},
                        2, 2, ws));
        assertEquals(aligned(240 * 2) + aligned(240 * 4) + aligned(60 * 4) + aligned(60 * 4) + aligned(60 * 2), ws.get(1));
    }

    @Test
    void theTrainingSeriesFallsBackThroughTheBlockedLayoutWithC0FromTheDtype() {
        List<Long> ws = new ArrayList<>();
        assertEquals(List.of("Contiguous", "TransData(NCHW->NC1HWC0)", "Cast(DT_FLOAT)", "ResizeBilinearV2Grad5Hd",
                        "Cast(DT_FLOAT16)", "TransData(NC1HWC0->NCHW)", "ViewCopy"),
                steps(Platform.ASCEND910, DataType.FLOAT16, Format.NCHW, new long[] {1, 3, 8, 10}, new long[] {1, 3, 4, 5},
                        2, 2, ws));
        // FLOAT16 blocks hold C0 = 16 channels: (1, 1, 8, 10, 16), cast to FP32 in the same blocked shape.
        long expected = aligned(1280 * 2) + aligned(1280 * 4) + aligned(320 * 4) + aligned(320 * 2) + aligned(60 * 2);
        assertEquals(expected, ws.get(0));
        assertEquals(List.of("Contiguous", "TransData(NHWC->NC1HWC0)", "Cast(DT_FLOAT)", "ResizeBilinearV2Grad5Hd",
                        "Cast(DT_FLOAT)", "TransData(NC1HWC0->NHWC)", "ViewCopy"),
                steps(Platform.ASCEND910, DataType.FLOAT, Format.NHWC, new long[] {1, 3, 8, 10}, new long[] {1, 3, 4, 5},
                        2, 2, ws));
    }

    @Test
    void ascend950AndEqualSizes() {
        List<Long> ws = new ArrayList<>();
        assertEquals(List.of("Contiguous", "UpsampleBilinear2dGrad", "ViewCopy"),
                steps(Platform.ASCEND950, DataType.BF16, Format.NHWC, new long[] {1, 3, 8, 10}, new long[] {1, 3, 4, 5},
                        2, 2, ws));
        assertEquals(aligned(60 * 2), ws.get(0));
        for (Platform p : List.of(Platform.CPU, Platform.ASCEND950, Platform.ASCEND910B, Platform.ASCEND910)) {
            assertEquals(List.of("ViewCopy"), steps(p, DataType.FLOAT, Format.NCHW, new long[] {2, 3, 4, 5},
                    new long[] {2, 3, 4, 5}, 0, 0, ws));
        }
    }

    @Test
    void a2UpsamplingMoreThan100xTakesTheFallbackAndStaysCorrect() {
        int hin = 1;
        int win = 2;
        int hout = 150;
        int wout = 5;
        float[] g = TestDevice.randomValues(2 * hout * wout, 3);
        List<Long> ws = new ArrayList<>();
        assertTrue(steps(Platform.ASCEND910B, DataType.FLOAT, Format.NCHW, new long[] {1, 2, hout, wout},
                new long[] {1, 2, hin, win}, 0, 0, ws).contains("ResizeBilinearV2Grad5Hd"));
        try (TestDevice dev = new TestDevice(Platform.ASCEND910B);
             Tensor gradOut = dev.tensor(new long[] {1, 2, hout, wout}, DataType.FLOAT, g, Format.NCHW);
             Tensor out = dev.tensor(new long[] {1, 2, hin, win}, DataType.FLOAT, new float[2 * hin * win], Format.NCHW)) {
            WorkspaceAndExecutor p = UpsampleBilinear2dBackwardV2.getWorkspaceSize(gradOut, IntArray.of(hout, wout),
                    IntArray.of(1, 2, hin, win), false, 0, 0, out);
            Phase2.run(dev, p, UpsampleBilinear2dBackwardV2::run);
            double[] gd = new double[g.length];
            for (int k = 0; k < g.length; k++) {
                gd[k] = g[k];
            }
            double[] expected = Reference.bilinear2dBackward(gd, 2, hin, win, hout, wout, false, 0, 0);
            double[] bound = Reference.bilinear2dBackward(Reference.abs(gd), 2, hin, win, hout, wout, false, 0, 0);
            double[] got = TestDevice.read(out);
            int terms = Reference.axisTerms(hin, hout) * Reference.axisTerms(win, wout);
            int bad = Criterion.firstFailure(got, expected, bound, terms, DataType.FLOAT);
            assertEquals(-1, bad, () -> "element " + bad + ": " + got[bad] + " vs " + expected[bad]);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Platform.class, names = {"CPU", "ASCEND950", "ASCEND910B", "ASCEND910"})
    void nonContiguousGradOutAndOutInBothLayouts(Platform platform) {
        int n = 2;
        int c = 3;
        int hin = 5;
        int win = 4;
        int hout = 9;
        int wout = 7;
        float[] g = TestDevice.randomValues(n * c * hout * wout, 5);
        for (Format layout : List.of(Format.NCHW, Format.NHWC)) {
            boolean nhwc = layout == Format.NHWC;
            long[] gradShape = nhwc ? new long[] {n, hout, wout, c} : new long[] {n, c, hout, wout};
            long[] outShape = nhwc ? new long[] {n, hin, win, c} : new long[] {n, c, hin, win};
            // gradOut: a transposed storage (strides reversed); out: every other element of a larger buffer.
            long[] gradStrides = {1, n, n * gradShape[1], n * gradShape[1] * gradShape[2]};
            long[] outStrides = Tensor.contiguousStrides(outShape);
            for (int d = 0; d < 4; d++) {
                outStrides[d] *= 2;
            }
            float[] values = nhwc ? Layout2d.nchwToNhwc(g, n, c, hout, wout) : g;
            double[] got;
            try (TestDevice dev = new TestDevice(platform);
                 Tensor gradOut = dev.strided(gradShape, DataType.FLOAT, gradStrides, 0, values, layout);
                 Tensor out = dev.strided(outShape, DataType.FLOAT, outStrides, 1, new float[n * c * hin * win], layout)) {
                WorkspaceAndExecutor p = UpsampleBilinear2dBackwardV2.getWorkspaceSize(gradOut, IntArray.of(hout, wout),
                        IntArray.of(outShape), true, 0, 0, out);
                Phase2.run(dev, p, UpsampleBilinear2dBackwardV2::run);
                got = TestDevice.read(out);
                long untouched = java.util.Arrays.stream(TestDevice.readStorage(out)).filter(v -> v == TestDevice.SENTINEL)
                        .count();
                assertEquals(TestDevice.readStorage(out).length - n * c * hin * win, untouched, "writes outside out's view");
            }
            if (nhwc) {
                got = Layout2d.nhwcToNchw(got, n, c, hin, win);
            }
            double[] gd = new double[g.length];
            for (int k = 0; k < g.length; k++) {
                gd[k] = g[k];
            }
            double[] expected = Reference.bilinear2dBackward(gd, n * c, hin, win, hout, wout, true, 0, 0);
            double[] bound = Reference.bilinear2dBackward(Reference.abs(gd), n * c, hin, win, hout, wout, true, 0, 0);
            int terms = Reference.axisTerms(hin, hout) * Reference.axisTerms(win, wout);
            double[] result = got;
            int bad = Criterion.firstFailure(result, expected, bound, terms, DataType.FLOAT);
            assertEquals(-1, bad, () -> layout + " element " + bad + ": " + result[bad] + " vs " + expected[bad]);
        }
    }

    @Test
    void anEmptyBatchSucceedsWithoutWorkspaceOrSteps() {
        try (TestDevice dev = new TestDevice()) {
            Tensor gradOut = dev.tensor(new long[] {0, 3, 8, 10}, DataType.FLOAT, new float[0], Format.NCHW);
            Tensor out = dev.tensor(new long[] {0, 3, 4, 5}, DataType.FLOAT, new float[0], Format.NCHW);
            WorkspaceAndExecutor p = UpsampleBilinear2dBackwardV2.getWorkspaceSize(gradOut, IntArray.of(8, 10),
                    IntArray.of(0, 3, 4, 5), false, 2, 2, out);
            assertEquals(0, p.workspaceSize());
            assertTrue(p.executor().steps().isEmpty());
            Phase2.run(dev, p, UpsampleBilinear2dBackwardV2::run);
        }
    }
}
