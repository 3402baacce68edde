package io.opscv.op;

import io.opscv.plan.Bilinear2dBackwardStep;
import io.opscv.plan.Executor;
import io.opscv.plan.Layouts;
import io.opscv.plan.LinearAxis;
import io.opscv.plan.Operand;
import io.opscv.plan.PlanBuilder;
import io.opscv.plan.ResizeBilinearV2Grad5HdStep;
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
 * {@code aclnnUpsampleBilinear2dBackwardV2}: the gradient of bilinear interpolation (SPEC §10),
 * PyTorch's {@code upsample_bilinear2d_backward}: the H and W axes each follow SPEC §1 with their
 * own scale; sums in float, one rounding to the dtype.
 *
 * <p><b>Layouts.</b> gradOut and out are NCHW or NHWC (ND is read as NCHW), both the same. As in
 * CANN, a view shape follows its format's order: for NHWC, gradOut is (N, Hout, Wout, C), out is
 * (N, Hin, Win, C) <em>and inputSize is given in that order too</em>, {N, Hin, Win, C} (upstream's
 * CheckInputsElement reads inputSize[1], [2] as H, W when gradOut is NHWC). outputSize is always
 * {Hout, Wout}.
 *
 * <p>Validation, in this order (SPEC §10 and upstream's CheckParams, the 1-D backward's chain):
 * <ol>
 *   <li>not null: gradOut, outputSize, inputSize, out (161001);</li>
 *   <li>shape: gradOut and out 4-D, outputSize 2 elements, inputSize 4; both formats NCHW / NHWC / ND and
 *       the same layout;</li>
 *   <li>dtype: the platform runs the operator; gradOut in its list (no BF16 on the training series);
 *       out has gradOut's dtype;</li>
 *   <li>elements: Hin, Win, Hout, Wout > 0, N and C not negative; gradOut has the forward output's
 *       shape;</li>
 *   <li>out has the shape inputSize gives (so gradOut and out agree on N and C);</li>
 *   <li>limits: every dimension ≤ INT32_MAX (SPEC §10);</li>
 *   <li>empty gradOut or out: success, workspace 0;</li>
 *   <li>scales: numbers; when |scalesH| (|scalesW|) > 1e-9, Hout == floor(Hin · scalesH)
 *       (Wout == floor(Win · scalesW)) — upstream falls back to the sizes there, this contract refuses
 *       (SPEC §11);</li>
 *   <li>memory (this project's rule): out shares no memory with gradOut nor with itself.</li>
 * </ol>
 */
public final class UpsampleBilinear2dBackwardV2 {
    /** The ACLNN name of this operator. */
    public static final String NAME = "aclnnUpsampleBilinear2dBackwardV2";

    /** SPEC §10: each dimension ≤ INT32_MAX. */
    public static final long MAX_DIM_SIZE = Integer.MAX_VALUE;

    /** A2/A3 take the fallback when a source step is below this (upsampling more than 100x; upstream's CheckMinScale). */
    static final double MIN_SOURCE_STEP = 0.01;

    private UpsampleBilinear2dBackwardV2() {}

    /**
     * Phase 1 on the platform of {@code gradOut}'s device ({@link Platform#CPU} when it has none).
     *
     * @param gradOut    (N, C, Hout, Wout), or (N, Hout, Wout, C) for NHWC; FLOAT / FLOAT16 / BF16, any strides
     * @param outputSize {Hout, Wout}
     * @param inputSize  {N, C, Hin, Win}, or {N, Hin, Win, C} for NHWC: the shape of out
     * @param alignCorners align the centres (true) or the outer edges (false) of the corner pixels
     * @param scalesH    the forward multiplier along H (Hout = floor(Hin · scalesH)); 0 = not given
     * @param scalesW    the forward multiplier along W
     * @param out        the gradient w.r.t. the forward input, gradOut's dtype and layout, any non-overlapping strides;
     *                   it must not share memory with gradOut nor overlap itself (161002, see
     *                   {@link Checks#outputMemoryDisjoint})
     * @return the workspace size and the executor for phase 2
     */
    public static WorkspaceAndExecutor getWorkspaceSize(Tensor gradOut, IntArray outputSize, IntArray inputSize,
                                                        boolean alignCorners, double scalesH, double scalesW, Tensor out) {
        return getWorkspaceSize(UpsampleLinear1d.platformOf(gradOut), gradOut, outputSize, inputSize, alignCorners, scalesH,
                scalesW, out);
    }

    /**
     * Phase 1 as {@code platform} would run it.
     *
     * @param platform     the product to behave as (SPEC §6): its plan, dtypes and limits
     * @param gradOut    (N, C, Hout, Wout), or (N, Hout, Wout, C) for NHWC; FLOAT / FLOAT16 / BF16, any strides
     * @param outputSize {Hout, Wout}
     * @param inputSize  {N, C, Hin, Win}, or {N, Hin, Win, C} for NHWC: the shape of out
     * @param alignCorners align the centres (true) or the outer edges (false) of the corner pixels
     * @param scalesH    the forward multiplier along H (Hout = floor(Hin · scalesH)); 0 = not given
     * @param scalesW    the forward multiplier along W
     * @param out        the gradient w.r.t. the forward input, gradOut's dtype and layout, any non-overlapping strides;
     *                   it must not share memory with gradOut nor overlap itself (161002, see
     *                   {@link Checks#outputMemoryDisjoint})
     * @return the workspace size and the executor for phase 2
     */
    public static WorkspaceAndExecutor getWorkspaceSize(Platform platform, Tensor gradOut, IntArray outputSize,
                                                        IntArray inputSize, boolean alignCorners, double scalesH,
                                                        double scalesW, Tensor out) {
        try {
            return checkAndPlan(platform, gradOut, outputSize, inputSize, alignCorners, scalesH, scalesW, out);
        } catch (OutOfMemoryError e) {
            throw Executor.outOfMemory(NAME + "GetWorkspaceSize", "phase 1", e);
        }
    }

    /** SPEC §4's checks in order, then the plan; an allocation failure is turned into a status by the caller. */
    private static WorkspaceAndExecutor checkAndPlan(Platform platform, Tensor gradOut, IntArray outputSize,
                                                     IntArray inputSize, boolean alignCorners, double scalesH,
                                                     double scalesW, Tensor out) {
        Checks.platformGiven(platform);
        // 1. CheckNotNull
        Checks.notNull(gradOut, "gradOut");
        Checks.notNull(outputSize, "outputSize");
        Checks.notNull(inputSize, "inputSize");
        Checks.notNull(out, "out");
        Checks.usable(gradOut, "gradOut");
        Checks.usable(outputSize, "outputSize");
        Checks.usable(inputSize, "inputSize");
        Checks.usable(out, "out");

        // 2. CheckShape, CheckFormat
        Checks.dimension(gradOut, 4, "gradOut");
        Checks.dimension(out, 4, "out");
        Checks.arraySize(outputSize, 2, "output_size");
        Checks.arraySize(inputSize, 4, "input_size");
        Checks.format2d(gradOut, "gradOut");
        Checks.format2d(out, "out");
        Checks.sameLayout(gradOut, "gradOut", out, "out");

        // 3. CheckDtypeValid
        Checks.platformSupported(platform);
        Checks.dtypeIn(gradOut, "gradOut", DtypeSupport.of(platform));
        Checks.dtypeEquals(out, "out", gradOut.dataType());

        // 4. CheckInputsElement (sizes in the format's order)
        Format layout = gradOut.format();
        long[] in = Layouts.toNchw(inputSize.toArray(), layout);
        long hout = outputSize.get(0);
        long wout = outputSize.get(1);
        Checks.lengthsPositive(new long[] {in[2], in[3]}, new long[] {hout, wout}, "H", "W");
        Checks.batchAndChannelsNotNegative(in[0], in[1], "inputSize");
        Checks.gradOutMatchesOutput(gradOut, Layouts.fromNchw(new long[] {in[0], in[1], hout, wout}, layout));

        // 5. CheckNCDimValid: out is what inputSize says
        Checks.outShapeEquals(out, inputSize.toArray(), "inputSize");

        // 6. Limits
        Checks.dimensionsAtMost(gradOut, "gradOut", MAX_DIM_SIZE);
        Checks.dimensionsAtMost(out, "out", MAX_DIM_SIZE);

        // 7. Empty tensors
        if (gradOut.isEmpty() || out.isEmpty()) {
            return new WorkspaceAndExecutor(0, new Executor(NAME, platform, List.of(), List.of(gradOut, out)));
        }

        // 8. Scales
        Checks.scalesIsNumber(scalesH, "scalesH");
        Checks.scalesIsNumber(scalesW, "scalesW");
        Checks.scalesMatchSizes(scalesH, in[2], hout, "scalesH", "outputSize[0]", "Hin");
        Checks.scalesMatchSizes(scalesW, in[3], wout, "scalesW", "outputSize[1]", "Win");

        // 9. Memory (this project's rule, after SPEC's): out shares no memory with gradOut or with itself.
        Checks.outputMemoryDisjoint(out, "out", gradOut, "gradOut");

        Executor executor = plan(platform, gradOut, out, alignCorners, scalesH, scalesW);
        return new WorkspaceAndExecutor(executor.workspaceSize(), executor);
    }

    /**
     * The plans (after upstream's aclnn_upsample_bilinear_2d_backward_v2.cpp):
     * <ul>
     *   <li>equal sizes, every platform: ViewCopy gradOut → out;</li>
     *   <li>cpu: one fused step from gradOut (any strides, NCHW or NHWC) into out;</li>
     *   <li>Ascend950: Contiguous → UpsampleBilinear2dGrad (in gradOut's dtype) → ViewCopy;</li>
     *   <li>A2/A3 with both source steps ≥ 0.01: Contiguous → [Transpose NHWC→NCHW] → Cast FP32 →
     *       UpsampleBilinear2dGrad → [Transpose back] → Cast back → ViewCopy;</li>
     *   <li>fallback (the training series, or A2/A3 upsampling more than 100x): Contiguous →
     *       TransData →NC1HWC0 → Cast FP32 → ResizeBilinearV2Grad5Hd (sizes only) → Cast back →
     *       TransData back → ViewCopy. Taking sizes only, it ignores a scales that differs from
     *       out / in, as the hardware does (SPEC §6).</li>
     * </ul>
     */
    static Executor plan(Platform platform, Tensor gradOut, Tensor out, boolean alignCorners, double scalesH,
                         double scalesW) {
        PlanBuilder plan = new PlanBuilder();
        Operand grad = Operand.of("gradOut", gradOut);
        Operand result = Operand.of("out", out);
        Format layout = gradOut.format();
        long[] g = Layouts.toNchw(gradOut.shape(), layout);
        long[] o = Layouts.toNchw(out.shape(), layout);
        int hin = Math.toIntExact(o[2]);
        int win = Math.toIntExact(o[3]);
        int hout = Math.toIntExact(g[2]);
        int wout = Math.toIntExact(g[3]);
        String parameters = "alignCorners=" + alignCorners + ", scalesH=" + scalesH + ", scalesW=" + scalesW;
        if (Arrays.equals(g, o)) {
            plan.viewCopy(grad, result);
            return plan.build(NAME, platform, List.of(gradOut, out), List.of("gradOut", "out"));
        }
        LinearAxis h = LinearAxis.of(hin, hout, alignCorners, scalesH);
        LinearAxis w = LinearAxis.of(win, wout, alignCorners, scalesW);
        switch (platform.arch()) {
            case CPU -> plan.add(new Bilinear2dBackwardStep("UpsampleBilinear2dBackwardFused", grad, result, h, w, parameters));
            case DAV_3510 -> {
                Operand contiguous = plan.contiguous(grad);
                Operand gradInput = plan.allocate("gradInput", out.shape(), gradOut.dataType(), layout);
                plan.add(new Bilinear2dBackwardStep("UpsampleBilinear2dGrad", contiguous, gradInput, h, w,
                        parameters + ", " + PlanNotes.determinism(gradOut, platform)));
                plan.viewCopy(gradInput, result);
            }
            default -> {
                Operand contiguous = plan.contiguous(grad);
                Operand gradInput;
                if (platform.arch() == Platform.Arch.DAV_2201 && sourceStep(hin, hout, scalesH) >= MIN_SOURCE_STEP
                        && sourceStep(win, wout, scalesW) >= MIN_SOURCE_STEP) {
                    boolean nhwc = layout == Format.NHWC;
                    Operand nchw = nhwc ? plan.transpose(contiguous, new int[] {0, 3, 1, 2}, Format.NCHW) : contiguous;
                    Operand fp32 = plan.cast(nchw, DataType.FLOAT);
                    Operand grad32 = plan.allocate("gradInput", o, DataType.FLOAT, Format.NCHW);
                    plan.add(new Bilinear2dBackwardStep("UpsampleBilinear2dGrad", fp32, grad32, h, w, "alignCorners="
                            + alignCorners + ", scales_h=" + PlanNotes.sourceStep(scalesH) + ", scales_w="
                            + PlanNotes.sourceStep(scalesW)));
                    Operand back = nhwc ? plan.transpose(grad32, new int[] {0, 2, 3, 1}, Format.NHWC) : grad32;
                    gradInput = plan.cast(back, out.dataType());
                } else {
                    Operand blocked = plan.cast(plan.toBlocked(contiguous), DataType.FLOAT);
                    long[] blockedShape = blocked.shape();
                    Operand blockedInput = plan.allocate("gradInput.5hd",
                            new long[] {blockedShape[0], blockedShape[1], hin, win, blockedShape[4]}, DataType.FLOAT,
                            Format.NC1HWC0);
                    plan.add(new ResizeBilinearV2Grad5HdStep(blocked, blockedInput, alignCorners));
                    gradInput = plan.fromBlocked(plan.cast(blockedInput, out.dataType()), o[1], layout);
                }
                plan.viewCopy(gradInput, result);
            }
        }
        return plan.build(NAME, platform, List.of(gradOut, out), List.of("gradOut", "out"));
    }

    /** Upstream's ComputeBilinear2dBackwardScales: 1 / scales when given, else in / out. */
    static double sourceStep(long in, long out, double scales) {
        return scales > 0 ? 1.0 / scales : (double) in / out;
    }

    /**
     * Phase 2 ({@code aclnnUpsampleBilinear2dBackwardV2}): queues the executor's plan on {@code stream}.
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
