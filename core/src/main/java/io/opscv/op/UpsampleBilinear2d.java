package io.opscv.op;

import io.opscv.plan.Bilinear2dForwardStep;
import io.opscv.plan.Executor;
import io.opscv.plan.Layouts;
import io.opscv.plan.LinearAxis;
import io.opscv.plan.Operand;
import io.opscv.plan.PlanBuilder;
import io.opscv.plan.ResizeBilinearV2Step;
import io.opscv.runtime.AclnnException;
import io.opscv.runtime.DataType;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;
import java.util.Arrays;
import java.util.List;

/**
 * {@code aclnnUpsampleBilinear2d}: bilinear interpolation of (N, C, H, W) to (N, C, Hout, Wout), the
 * forward of {@link UpsampleBilinear2dBackwardV2} — PyTorch's {@code upsample_bilinear2d}: each axis
 * follows SPEC §1 with its own scale; float arithmetic, one rounding to the dtype.
 *
 * <p><b>Layouts.</b> self and out are NCHW or NHWC (ND is read as NCHW), both the same; a view shape
 * follows the format's order, so an NHWC self is (N, H, W, C) and out (N, Hout, Wout, C).
 * outputSize is {Hout, Wout}.
 *
 * <p>Validation, in this order (SPEC §10 and upstream's CheckParams, the backward's chain):
 * <ol>
 *   <li>not null: self, outputSize, out (161001);</li>
 *   <li>shape: self and out 4-D, outputSize 2 elements; formats NCHW / NHWC / ND, the same layout;</li>
 *   <li>dtype: the platform runs the operator; self in its list; out has self's dtype;</li>
 *   <li>elements: self's C, H and W non-zero; Hout, Wout > 0; out is (N, C, Hout, Wout) in the layout's order;</li>
 *   <li>limits: every dimension ≤ INT32_MAX;</li>
 *   <li>empty self (N = 0): success, workspace 0;</li>
 *   <li>scales: numbers, not negative (upstream's CheckScalesValid). As upstream's forward, a scales
 *       need not match the sizes: where given (> 0) and alignCorners is false, it sets the source step;</li>
 *   <li>memory (this project's rule): out shares no memory with self nor with itself.</li>
 * </ol>
 */
public final class UpsampleBilinear2d {
    /** The ACLNN name of this operator. */
    public static final String NAME = "aclnnUpsampleBilinear2d";

    /** A2/A3 run the UpsampleBilinear2d kernel only for source steps up to this (upstream's MAX_SUPPORT_SHRINK_SCALE). */
    static final float MAX_SOURCE_STEP = 50.0f;

    private UpsampleBilinear2d() {}

    /**
     * Phase 1 on the platform of {@code self}'s device ({@link Platform#CPU} when it has none).
     *
     * @param self       (N, C, H, W), or (N, H, W, C) for NHWC; FLOAT / FLOAT16 / BF16, any strides
     * @param outputSize {Hout, Wout}
     * @param alignCorners align the centres (true) or the outer edges (false) of the corner pixels
     * @param scalesH    the multiplier along H; ≤ 0 = not given (negative is refused)
     * @param scalesW    the multiplier along W
     * @param out        (N, C, Hout, Wout) in self's layout and dtype, any non-overlapping strides; it must not share
     *                   memory with self nor overlap itself (161002, see {@link Checks#outputMemoryDisjoint})
     * @return the workspace size and the executor for phase 2
     */
    public static WorkspaceAndExecutor getWorkspaceSize(Tensor self, IntArray outputSize, boolean alignCorners,
                                                        double scalesH, double scalesW, Tensor out) {
        return getWorkspaceSize(UpsampleLinear1d.platformOf(self), self, outputSize, alignCorners, scalesH, scalesW, out);
    }

    /**
     * Phase 1 as {@code platform} would run it.
     *
     * @param platform     the product to behave as (SPEC §6): its plan, dtypes and limits
     * @param self       (N, C, H, W), or (N, H, W, C) for NHWC; FLOAT / FLOAT16 / BF16, any strides
     * @param outputSize {Hout, Wout}
     * @param alignCorners align the centres (true) or the outer edges (false) of the corner pixels
     * @param scalesH    the multiplier along H; ≤ 0 = not given (negative is refused)
     * @param scalesW    the multiplier along W
     * @param out        (N, C, Hout, Wout) in self's layout and dtype, any non-overlapping strides; it must not share
     *                   memory with self nor overlap itself (161002, see {@link Checks#outputMemoryDisjoint})
     * @return the workspace size and the executor for phase 2
     */
    public static WorkspaceAndExecutor getWorkspaceSize(Platform platform, Tensor self, IntArray outputSize,
                                                        boolean alignCorners, double scalesH, double scalesW, Tensor out) {
        try {
            return checkAndPlan(platform, self, outputSize, alignCorners, scalesH, scalesW, out);
        } catch (OutOfMemoryError e) {
            throw Executor.outOfMemory(NAME + "GetWorkspaceSize", "phase 1", e);
        }
    }

    /** SPEC §4's checks in order, then the plan; an allocation failure is turned into a status by the caller. */
    private static WorkspaceAndExecutor checkAndPlan(Platform platform, Tensor self, IntArray outputSize,
                                                     boolean alignCorners, double scalesH, double scalesW, Tensor out) {
        Checks.platformGiven(platform);
        // 1. CheckNotNull
        Checks.notNull(self, "self");
        Checks.notNull(outputSize, "outputSize");
        Checks.notNull(out, "out");
        Checks.usable(self, "self");
        Checks.usable(outputSize, "outputSize");
        Checks.usable(out, "out");

        // 2. CheckShape, CheckFormat
        Checks.dimension(self, 4, "self");
        Checks.dimension(out, 4, "out");
        Checks.arraySize(outputSize, 2, "outputSize");
        Checks.format2d(self, "self");
        Checks.format2d(out, "out");
        Checks.sameLayout(self, "self", out, "out");

        // 3. CheckDtypeValid
        Checks.platformSupported(platform);
        Checks.dtypeIn(self, "self", DtypeSupport.of(platform));
        Checks.dtypeEquals(out, "out", self.dataType());

        // 4. CheckInputElement, CheckOutputSize
        Format layout = self.format();
        long[] in = Layouts.toNchw(self.shape(), layout);
        long hout = outputSize.get(0);
        long wout = outputSize.get(1);
        Checks.nonEmptyData(self);
        Checks.lengthsPositive(null, new long[] {hout, wout}, "H", "W");
        Checks.outShapeEquals(out, Layouts.fromNchw(new long[] {in[0], in[1], hout, wout}, layout),
                layout == Format.NHWC ? "{N, outputSize[0], outputSize[1], C}" : "{N, C, outputSize[0], outputSize[1]}");

        // 5. Limits
        Checks.dimensionsAtMost(self, "self", UpsampleBilinear2dBackwardV2.MAX_DIM_SIZE);
        Checks.dimensionsAtMost(out, "out", UpsampleBilinear2dBackwardV2.MAX_DIM_SIZE);

        // 6. Empty: a batch of zero images.
        if (self.isEmpty()) {
            return new WorkspaceAndExecutor(0, new Executor(NAME, platform, List.of(), List.of(self, out)));
        }

        // 7. Scales
        Checks.scalesIsNumber(scalesH, "scalesH");
        Checks.scalesIsNumber(scalesW, "scalesW");
        Checks.scalesNotNegative(scalesH, scalesW);

        // 8. Memory (this project's rule, after SPEC's): out shares no memory with self or with itself.
        Checks.outputMemoryDisjoint(out, "out", self, "self");

        Executor executor = plan(platform, self, out, alignCorners, scalesH, scalesW);
        return new WorkspaceAndExecutor(executor.workspaceSize(), executor);
    }

    /**
     * The plans (after upstream's aclnn_upsample_bilinear_2d.cpp):
     * <ul>
     *   <li>equal sizes, every platform: ViewCopy self → out;</li>
     *   <li>cpu: one fused step from self (any strides, NCHW or NHWC) into out;</li>
     *   <li>Ascend950: Contiguous → ResizeBilinearV2With4d (in self's dtype, with the scales) → ViewCopy;</li>
     *   <li>A2/A3 when both scales are given and match the sizes, are not both 2.0 (unless BF16), and
     *       both source steps are ≤ 50: Contiguous → [Transpose NHWC→NCHW] → Cast FP32 →
     *       UpsampleBilinear2d → [Transpose back] → Cast back → ViewCopy;</li>
     *   <li>otherwise (and always on the training series): Contiguous → [Cast FP32 for BF16] →
     *       TransData →NC1HWC0 → ResizeBilinearV2 (sizes only) → TransData back → [Cast back] → ViewCopy.
     *       Taking sizes only, it ignores a scales that differs from out / in, as the hardware does.</li>
     * </ul>
     */
    static Executor plan(Platform platform, Tensor self, Tensor out, boolean alignCorners, double scalesH, double scalesW) {
        PlanBuilder plan = new PlanBuilder();
        Operand input = Operand.of("self", self);
        Operand result = Operand.of("out", out);
        Format layout = self.format();
        long[] s = Layouts.toNchw(self.shape(), layout);
        long[] o = Layouts.toNchw(out.shape(), layout);
        int hin = Math.toIntExact(s[2]);
        int win = Math.toIntExact(s[3]);
        int hout = Math.toIntExact(o[2]);
        int wout = Math.toIntExact(o[3]);
        String parameters = "alignCorners=" + alignCorners + ", scalesH=" + scalesH + ", scalesW=" + scalesW;
        if (Arrays.equals(s, o)) {
            plan.viewCopy(input, result);
            return plan.build(NAME, platform, List.of(self, out), List.of("self", "out"));
        }
        LinearAxis h = LinearAxis.of(hin, hout, alignCorners, scalesH);
        LinearAxis w = LinearAxis.of(win, wout, alignCorners, scalesW);
        switch (platform.arch()) {
            case CPU -> plan.add(new Bilinear2dForwardStep("UpsampleBilinear2dFused", input, result, h, w, parameters));
            case DAV_3510 -> {
                Operand contiguous = plan.contiguous(input);
                Operand resized = plan.allocate("resized", out.shape(), self.dataType(), layout);
                plan.add(new Bilinear2dForwardStep("ResizeBilinearV2With4d", contiguous, resized, h, w,
                        parameters + ", " + PlanNotes.determinism(self, platform)));
                plan.viewCopy(resized, result);
            }
            default -> {
                Operand contiguous = plan.contiguous(input);
                Operand resized;
                if (platform.arch() == Platform.Arch.DAV_2201
                        && takesUpsampleKernel(s, o, alignCorners, scalesH, scalesW, self.dataType())) {
                    boolean nhwc = layout == Format.NHWC;
                    Operand nchw = nhwc ? plan.transpose(contiguous, new int[] {0, 3, 1, 2}, Format.NCHW) : contiguous;
                    Operand fp32 = plan.cast(nchw, DataType.FLOAT);
                    Operand out32 = plan.allocate("resized", o, DataType.FLOAT, Format.NCHW);
                    plan.add(new Bilinear2dForwardStep("UpsampleBilinear2d", fp32, out32, h, w, parameters));
                    Operand back = nhwc ? plan.transpose(out32, new int[] {0, 2, 3, 1}, Format.NHWC) : out32;
                    resized = plan.cast(back, out.dataType());
                } else {
                    Operand compute = self.dataType() == DataType.BF16 ? plan.cast(contiguous, DataType.FLOAT) : contiguous;
                    Operand blocked = plan.toBlocked(compute);
                    long[] b = blocked.shape();
                    Operand blockedOut = plan.allocate("resized.5hd", new long[] {b[0], b[1], hout, wout, b[4]},
                            compute.dataType(), Format.NC1HWC0);
                    plan.add(new ResizeBilinearV2Step(blocked, blockedOut, alignCorners));
                    resized = plan.cast(plan.fromBlocked(blockedOut, o[1], layout), out.dataType());
                }
                plan.viewCopy(resized, result);
            }
        }
        return plan.build(NAME, platform, List.of(self, out), List.of("self", "out"));
    }

    /**
     * Upstream's test for A2/A3's UpsampleBilinear2d kernel (CheckBilinear2dScales and
     * CheckScalesAndShapeValid): both scales given, (long) (in · scales) == out on both axes, not
     * both exactly 2.0 unless BF16, and both source steps (in float) ≤ 50.
     */
    static boolean takesUpsampleKernel(long[] in, long[] out, boolean alignCorners, double scalesH, double scalesW,
                                       DataType type) {
        if (!(scalesH > 0) || !(scalesW > 0)) {
            return false;
        }
        if (scalesH == 2.0 && scalesW == 2.0 && type != DataType.BF16) {
            return false;
        }
        if ((long) (in[2] * scalesH) != out[2] || (long) (in[3] * scalesW) != out[3]) {
            return false;
        }
        return sourceStep(in[2], out[2], scalesH, alignCorners) <= MAX_SOURCE_STEP
                && sourceStep(in[3], out[3], scalesW, alignCorners) <= MAX_SOURCE_STEP;
    }

    /** Upstream's GetBilinearScales, in float. */
    static float sourceStep(long in, long out, double scales, boolean alignCorners) {
        if (in == out) {
            return 1f;
        }
        if (alignCorners) {
            return out > 1 ? (float) (in - 1) / (out - 1) : 0f;
        }
        return scales > 0 ? (float) (1.0 / scales) : (float) in / out;
    }

    /**
     * Phase 2 ({@code aclnnUpsampleBilinear2d}): queues the executor's plan on {@code stream}.
     *
     * @param workspace     device memory of at least {@code workspaceSize} bytes (may be {@code null} when it is 0)
     * @param workspaceSize the size phase 1 returned
     * @param executor      the executor phase 1 returned; single-use
     * @param stream        the stream the plan is queued on
     */
    public static void run(DeviceMemory workspace, long workspaceSize, Executor executor, Stream stream) {
        Executor.launch(NAME, workspace, workspaceSize, executor, stream);
    }
}
