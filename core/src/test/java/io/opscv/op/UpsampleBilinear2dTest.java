package io.opscv.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
 * {@code aclnnUpsampleBilinear2d}: the extra PyTorch cases (extra-golden/generate.py) on every
 * platform, NCHW and NHWC; the plans; non-contiguous tensors.
 */
class UpsampleBilinear2dTest {
    static final String OP = "upsample_bilinear2d";

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
            raw = Layout2d.nchwToNhwc(raw, c.dataType().byteSize(), n, ch, hin, win);
        }
        long[] selfShape = nhwc ? new long[] {n, hin, win, ch} : new long[] {n, ch, hin, win};
        long[] outShape = nhwc ? new long[] {n, hout, wout, ch} : new long[] {n, ch, hout, wout};
        try (TestDevice dev = new TestDevice(platform);
             Tensor self = dev.fromRaw(selfShape, c.dataType(), raw, layout);
             Tensor out = dev.tensor(outShape, c.dataType(), new float[n * ch * hout * wout], layout)) {
            WorkspaceAndExecutor p = UpsampleBilinear2d.getWorkspaceSize(self, IntArray.of(hout, wout), c.alignCorners(),
                    c.doubleField("scales_h"), c.doubleField("scales_w"), out);
            Phase2.run(dev, p, UpsampleBilinear2d::run);
            double[] got = TestDevice.read(out);
            return nhwc ? Layout2d.nhwcToNchw(got, n, ch, hout, wout) : got;
        }
    }

    /** The sizes-only ResizeBilinearV2 path: always on the training series, on A2/A3 unless upstream's kernel test passes. */
    static boolean fallback(Platform platform, GoldenCase c) {
        long[] in = {c.intField("n"), c.intField("c"), c.intField("h_in"), c.intField("w_in")};
        long[] out = {c.intField("n"), c.intField("c"), c.intField("h_out"), c.intField("w_out")};
        if (in[2] == out[2] && in[3] == out[3]) {
            return false;
        }
        return platform.arch() == Platform.Arch.DAV_1001 || (platform.arch() == Platform.Arch.DAV_2201
                && !UpsampleBilinear2d.takesUpsampleKernel(in, out, c.alignCorners(), c.doubleField("scales_h"),
                        c.doubleField("scales_w"), c.dataType()));
    }

    static Stream<Arguments> casesOnEveryPlatformInBothLayouts() {
        List<Arguments> args = new ArrayList<>();
        for (GoldenCase c : GoldenCase.extraOf(OP).stream().filter(k -> k.reference().equals("pytorch")).toList()) {
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
    void everyCaseOnEveryPlatformInBothLayoutsMeetsTheCriterion(GoldenCase c, Platform platform, Format layout) {
        if (!platform.supported() || !DtypeSupport.of(platform).contains(c.dataType())) {
            AclnnException e = assertThrows(AclnnException.class, () -> run(platform, c, layout));
            assertEquals(161002, e.code());
            return;
        }
        double[] got = run(platform, c, layout);
        boolean fallback = fallback(platform, c);
        boolean scalesIgnored = fallback && UpsampleBilinear2dBackwardV2Test.scalesDifferFromSizes(c);
        GoldenCase reference = scalesIgnored ? GoldenCase.extraNamed(c.name() + "_sizes_only") : c;
        UpsampleLinear1dBackwardPlansTest.assertMeetsCriterion(reference, got);
        double[] cpu = run(Platform.CPU, c, Format.NCHW);
        if (!fallback) {
            assertArrayEquals(cpu, got, 0.0, c.name() + " on " + platform + " " + layout);
        } else if (!scalesIgnored) {
            double[] e = c.expected();
            double[] b = c.bound();
            for (int k = 0; k < got.length; k++) {
                assertTrue(Math.abs(got[k] - cpu[k]) <= UpsampleLinear1dBackwardPlansTest.allowedError(e[k], b[k], c),
                        c.name() + " element " + k + ": " + got[k] + " vs cpu " + cpu[k]);
            }
        }
    }

    @Test
    void theExtraCasesCoverAllDtypesBothAlignmentsAndTheFallbackException() {
        List<GoldenCase> cases = GoldenCase.extraOf(OP);
        assertEquals(java.util.Set.of(DataType.FLOAT, DataType.FLOAT16, DataType.BF16),
                cases.stream().map(GoldenCase::dataType).collect(java.util.stream.Collectors.toSet()));
        assertTrue(cases.stream().anyMatch(GoldenCase::alignCorners));
        GoldenCase frac = GoldenCase.extraNamed("bi_fwd_frac_scales_f16");
        assertTrue(fallback(Platform.ASCEND910, frac) && !fallback(Platform.ASCEND910B, frac));
        double[] onTraining = run(Platform.ASCEND910, frac, Format.NCHW);
        assertTrue(Criterion.firstFailure(onTraining, frac.expected(), frac.bound(), frac.terms(), DataType.FLOAT16) >= 0,
                "the sizes-only result should differ from PyTorch's with scales");
    }

    static List<String> steps(Platform platform, DataType type, Format layout, long[] selfNchw, long hout, long wout,
                              double sh, double sw, List<Long> workspace) {
        try (TestDevice dev = new TestDevice()) {
            long[] outNchw = {selfNchw[0], selfNchw[1], hout, wout};
            long[] selfShape = layout == Format.NHWC ? UpsampleBilinear2dBackwardV2Test.nhwc(selfNchw) : selfNchw;
            long[] outShape = layout == Format.NHWC ? UpsampleBilinear2dBackwardV2Test.nhwc(outNchw) : outNchw;
            Tensor self = dev.tensor(selfShape, type, new float[(int) UpsampleBilinear2dBackwardV2Test.numel(selfShape)],
                    layout);
            Tensor out = dev.tensor(outShape, type, new float[(int) UpsampleBilinear2dBackwardV2Test.numel(outShape)], layout);
            WorkspaceAndExecutor p = UpsampleBilinear2d.getWorkspaceSize(platform, self, IntArray.of(hout, wout), false, sh,
                    sw, out);
            workspace.add(p.workspaceSize());
            return p.executor().steps().stream().map(PlanStep::name).toList();
        }
    }

    static long aligned(long bytes) {
        return WorkspacePlan.alignUp(bytes);
    }

    @Test
    void thePlansPerPlatform() {
        List<Long> ws = new ArrayList<>();
        long[] self = {1, 3, 4, 5};
        assertEquals(List.of("UpsampleBilinear2dFused"),
                steps(Platform.CPU, DataType.FLOAT, Format.NHWC, self, 12, 15, 3, 3, ws));
        assertEquals(List.of("Contiguous", "ResizeBilinearV2With4d", "ViewCopy"),
                steps(Platform.ASCEND950, DataType.FLOAT, Format.NCHW, self, 12, 15, 3, 3, ws));
        assertEquals(List.of("Contiguous", "Cast(DT_FLOAT)", "UpsampleBilinear2d", "Cast(DT_FLOAT16)", "ViewCopy"),
                steps(Platform.ASCEND910B, DataType.FLOAT16, Format.NCHW, self, 12, 15, 3, 3, ws));
        assertEquals(List.of("Contiguous", "Transpose(0,3,1,2)", "Cast(DT_FLOAT)", "UpsampleBilinear2d",
                "Transpose(0,2,3,1)", "Cast(DT_FLOAT16)", "ViewCopy"),
                steps(Platform.ASCEND910B, DataType.FLOAT16, Format.NHWC, self, 12, 15, 3, 3, ws));
        // Scales not given, or both exactly 2.0: upstream's A2 takes ResizeBilinearV2 on the blocked layout.
        assertEquals(List.of("Contiguous", "TransData(NCHW->NC1HWC0)", "ResizeBilinearV2", "TransData(NC1HWC0->NCHW)",
                "Cast(DT_FLOAT16)", "ViewCopy"), steps(Platform.ASCEND910B, DataType.FLOAT16, Format.NCHW, self, 8, 10, 2, 2, ws));
        assertEquals(List.of("Contiguous", "Cast(DT_FLOAT)", "TransData(NHWC->NC1HWC0)", "ResizeBilinearV2",
                "TransData(NC1HWC0->NHWC)", "Cast(DT_BF16)", "ViewCopy"),
                steps(Platform.ASCEND910B, DataType.BF16, Format.NHWC, self, 8, 10, 0, 0, ws));
        assertEquals(List.of("ViewCopy"), steps(Platform.ASCEND910, DataType.FLOAT, Format.NCHW, self, 4, 5, 0, 0, ws));
        assertEquals(List.of(0L,
                aligned(3 * 12 * 15 * 4),
                aligned(60 * 4) + aligned(540 * 4) + aligned(540 * 2),
                aligned(60 * 4) + aligned(60 * 4) + aligned(540 * 4) + aligned(540 * 4) + aligned(540 * 2),
                aligned(20 * 16 * 2) + aligned(80 * 16 * 2) + aligned(240 * 2),       // FP16 blocks: C0 = 16
                aligned(60 * 4) + aligned(20 * 8 * 4) + aligned(80 * 8 * 4) + aligned(240 * 4) + aligned(240 * 2),
                0L), ws);
    }

    @Test
    void a2KernelChoiceFollowsUpstream() {
        long[] in = {1, 1, 7, 5};
        long[] out = {1, 1, 16, 11};
        assertTrue(UpsampleBilinear2d.takesUpsampleKernel(in, out, false, 2.3, 2.25, DataType.FLOAT));
        assertFalse(UpsampleBilinear2d.takesUpsampleKernel(in, out, false, 0, 2.25, DataType.FLOAT));
        assertFalse(UpsampleBilinear2d.takesUpsampleKernel(in, new long[] {1, 1, 14, 10}, false, 2, 2, DataType.FLOAT));
        assertTrue(UpsampleBilinear2d.takesUpsampleKernel(in, new long[] {1, 1, 14, 10}, false, 2, 2, DataType.BF16));
        assertFalse(UpsampleBilinear2d.takesUpsampleKernel(in, new long[] {1, 1, 15, 11}, false, 2.3, 2.25, DataType.FLOAT));
        // A source step of 50 is still the kernel's; 1 / 0.015 = 66.7 is not.
        assertTrue(UpsampleBilinear2d.takesUpsampleKernel(new long[] {1, 1, 120, 5}, new long[] {1, 1, 2, 11}, false,
                0.02, 2.25, DataType.FLOAT));
        assertFalse(UpsampleBilinear2d.takesUpsampleKernel(new long[] {1, 1, 150, 5}, new long[] {1, 1, 2, 11}, false,
                0.015, 2.25, DataType.FLOAT));
    }

    @ParameterizedTest
    @EnumSource(value = Platform.class, names = {"CPU", "ASCEND950", "ASCEND910B", "ASCEND910"})
    void nonContiguousSelfAndOutInBothLayouts(Platform platform) {
        int n = 2;
        int c = 3;
        int hin = 6;
        int win = 5;
        int hout = 4;
        int wout = 9;
        float[] x = TestDevice.randomValues(n * c * hin * win, 17);
        for (Format layout : List.of(Format.NCHW, Format.NHWC)) {
            boolean nhwc = layout == Format.NHWC;
            long[] selfShape = nhwc ? new long[] {n, hin, win, c} : new long[] {n, c, hin, win};
            long[] outShape = nhwc ? new long[] {n, hout, wout, c} : new long[] {n, c, hout, wout};
            long[] selfStrides = {1, n, n * selfShape[1], n * selfShape[1] * selfShape[2]};
            long[] outStrides = Tensor.contiguousStrides(outShape);
            for (int d = 0; d < 4; d++) {
                outStrides[d] *= 3;
            }
            double[] got;
            try (TestDevice dev = new TestDevice(platform);
                 Tensor self = dev.strided(selfShape, DataType.FLOAT, selfStrides, 0,
                         nhwc ? Layout2d.nchwToNhwc(x, n, c, hin, win) : x, layout);
                 Tensor out = dev.strided(outShape, DataType.FLOAT, outStrides, 2, new float[n * c * hout * wout], layout)) {
                WorkspaceAndExecutor p = UpsampleBilinear2d.getWorkspaceSize(self, IntArray.of(hout, wout), false, 0, 0, out);
                Phase2.run(dev, p, UpsampleBilinear2d::run);
                got = TestDevice.read(out);
            }
            if (nhwc) {
                got = Layout2d.nhwcToNchw(got, n, c, hout, wout);
            }
            double[] xd = new double[x.length];
            for (int k = 0; k < x.length; k++) {
                xd[k] = x[k];
            }
            double[] expected = Reference.bilinear2dForward(xd, n * c, hin, win, hout, wout, false, 0, 0);
            double[] bound = Reference.bilinear2dForward(Reference.abs(xd), n * c, hin, win, hout, wout, false, 0, 0);
            double[] result = got;
            int bad = Criterion.firstFailure(result, expected, bound, 4, DataType.FLOAT);
            assertEquals(-1, bad, () -> layout + " element " + bad + ": " + result[bad] + " vs " + expected[bad]);
        }
    }

    @Test
    void anEmptyBatchSucceedsWithoutWorkspace() {
        try (TestDevice dev = new TestDevice()) {
            Tensor self = dev.tensor(new long[] {0, 3, 4, 5}, DataType.FLOAT, new float[0], Format.NCHW);
            Tensor out = dev.tensor(new long[] {0, 3, 8, 10}, DataType.FLOAT, new float[0], Format.NCHW);
            WorkspaceAndExecutor p = UpsampleBilinear2d.getWorkspaceSize(self, IntArray.of(8, 10), false, 2, 2, out);
            assertEquals(0, p.workspaceSize());
            assertTrue(p.executor().steps().isEmpty());
        }
    }
}
