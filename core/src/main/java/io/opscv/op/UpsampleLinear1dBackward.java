package io.opscv.op;

import io.opscv.kernel.TransDataKernel;
import io.opscv.plan.Bilinear2dBackwardStep;
import io.opscv.plan.Executor;
import io.opscv.plan.LinearAxis;
import io.opscv.plan.LinearBackwardFusedStep;
import io.opscv.plan.Operand;
import io.opscv.plan.PlanBuilder;
import io.opscv.plan.ResizeBilinearV2Grad5HdStep;
import io.opscv.plan.ResizeLinearGradStep;
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
 * {@code aclnnUpsampleLinear1dBackward}: the gradient of 1-D linear interpolation over the last
 * axis of an (N, C, L) tensor (SPEC §1), called in two phases (SPEC §2).
 *
 * <pre>{@code
 * WorkspaceAndExecutor p = UpsampleLinear1dBackward.getWorkspaceSize(gradOut, outputSize, inputSize,
 *         alignCorners, scales, out);                                   // phase 1
 * UpsampleLinear1dBackward.run(workspace, p.workspaceSize(), p.executor(), stream);  // phase 2
 * stream.synchronize();
 * }</pre>
 *
 * <p>Phase 1 validates in SPEC §4's order, enforces SPEC §5 and builds the plan; every failure is
 * an {@link AclnnException} carrying 161001 or 161002 and a message naming the argument.
 */
public final class UpsampleLinear1dBackward {
    /** The ACLNN name of this operator. */
    public static final String NAME = "aclnnUpsampleLinear1dBackward";

    /** SPEC §6: from this gradOut length on, A2/A3 take the fallback plan too. */
    public static final long FALLBACK_MIN_LOUT = 1_000_000;

    private UpsampleLinear1dBackward() {}

    /**
     * Phase 1 on the platform of {@code gradOut}'s device ({@link Platform#CPU} when it has none).
     *
     * @param gradOut      (N, C, Lout), FLOAT / FLOAT16 / BF16, any strides
     * @param outputSize   {Lout}: the forward output length
     * @param inputSize    {N, C, Lin}: the shape of {@code out}
     * @param alignCorners align the centres (true) or the outer edges (false) of the corner pixels
     * @param scales       the forward multiplier along L (Lout ≈ Lin · scales); 0 = not given; ≤ 500
     * @param out          (N, C, Lin), the dtype of gradOut, any non-overlapping strides: the gradient w.r.t. the
     *                     forward input; it must not share memory with gradOut nor overlap itself (161002, see
     *                     {@link Checks#outputMemoryDisjoint}), so computing in place is refused
     * @return the workspace size and the executor for phase 2
     */
    public static WorkspaceAndExecutor getWorkspaceSize(Tensor gradOut, IntArray outputSize, IntArray inputSize,
                                                        boolean alignCorners, double scales, Tensor out) {
        return getWorkspaceSize(UpsampleLinear1d.platformOf(gradOut), gradOut, outputSize, inputSize, alignCorners, scales, out);
    }

    /**
     * Phase 1 as {@code platform} would run it (SPEC §6).
     *
     * @param platform     the product to behave as (SPEC §6): its plan, dtypes and limits
     * @param gradOut      (N, C, Lout), FLOAT / FLOAT16 / BF16, any strides
     * @param outputSize   {Lout}: the forward output length
     * @param inputSize    {N, C, Lin}: the shape of {@code out}
     * @param alignCorners align the centres (true) or the outer edges (false) of the corner pixels
     * @param scales       the forward multiplier along L (Lout ≈ Lin · scales); 0 = not given; ≤ 500
     * @param out          (N, C, Lin), the dtype of gradOut, any non-overlapping strides: the gradient w.r.t. the
     *                     forward input; it must not share memory with gradOut nor overlap itself (161002, see
     *                     {@link Checks#outputMemoryDisjoint}), so computing in place is refused
     * @return the workspace size and the executor for phase 2
     */
    public static WorkspaceAndExecutor getWorkspaceSize(Platform platform, Tensor gradOut, IntArray outputSize,
                                                        IntArray inputSize, boolean alignCorners, double scales, Tensor out) {
        try {
            return checkAndPlan(platform, gradOut, outputSize, inputSize, alignCorners, scales, out);
        } catch (OutOfMemoryError e) {
            throw Executor.outOfMemory(NAME + "GetWorkspaceSize", "phase 1", e);
        }
    }

    /** SPEC §4's checks in order, then the plan; an allocation failure is turned into a status by the caller. */
    private static WorkspaceAndExecutor checkAndPlan(Platform platform, Tensor gradOut, IntArray outputSize,
                                                     IntArray inputSize, boolean alignCorners, double scales,
                                                     Tensor out) {
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

        // 2. CheckShape
        Checks.dimension(gradOut, 3, "gradOut");
        Checks.dimension(out, 3, "out");
        Checks.arraySize(outputSize, 1, "output_size");
        Checks.arraySize(inputSize, 3, "input_size");

        // 3. CheckDtypeValid, then the platform's extra dtype rule
        Checks.platformSupported(platform);
        Checks.dtypeIn(gradOut, "gradOut", DtypeSupport.of(platform));
        Checks.dtypeEquals(out, "out", gradOut.dataType());
        long[] in = inputSize.toArray();
        long lout = outputSize.get(0);
        if (gradOut.dataType() == DataType.BF16 && DtypeSupport.bf16NeedsEqualShapes(platform)
                && !Arrays.equals(gradOut.shape(), in)) {
            throw AclnnException.invalid("Tensor gradOut of dtype DT_BF16 is supported on " + platform.socName()
                    + " only when gradOut's shape equals inputSize (no interpolation), but got gradOut "
                    + Arrays.toString(gradOut.shape()) + " and inputSize " + Arrays.toString(in) + ".");
        }

        // 4. CheckInputElement
        long n = in[0];
        long c = in[1];
        long lin = in[2];
        Checks.lengthsPositive(new long[] {lin}, new long[] {lout}, "L");
        Checks.batchAndChannelsNotNegative(n, c, "inputSize");
        Checks.gradOutMatchesOutput(gradOut, new long[] {n, c, lout});

        // 5. CheckNCValid
        if (out.size(0) != gradOut.size(0) || out.size(1) != gradOut.size(1)) {
            throw AclnnException.invalid("gradOut and out should have the same N and C, but got gradOut "
                    + Arrays.toString(gradOut.shape()) + " and out " + Arrays.toString(out.shape()) + ".");
        }
        Checks.outShapeEquals(out, in, "inputSize");

        // 6. Limits
        Checks.dimensionsAtMost(gradOut, "gradOut", Checks.MAX_DIM_SIZE);
        Checks.dimensionsAtMost(out, "out", Checks.MAX_DIM_SIZE);
        Checks.batchBelowLimit(n, c);
        Checks.memoryBelowLimit(lout + 2 * lin, n * c, gradOut.dataType(),
                "(gradOut_L + out_L + out_L) * N * C * sizeof(" + gradOut.dataType().dtName() + ")");

        // 7. Empty tensors: nothing to compute, no workspace.
        if (gradOut.isEmpty()) {
            return new WorkspaceAndExecutor(0, new Executor(NAME, platform, List.of(), List.of(gradOut, out)));
        }

        // 8. Scales
        Checks.scalesIsNumber(scales, "scales");
        Checks.scalesAtMost500(scales, "scales");
        Checks.ratioAtMost500(lout, lin, "L");
        Checks.scalesMatchSizes(scales, lin, lout, "scales", "outputSize[0]", "inputSize[2]");

        // 9. Memory (this project's rule, after SPEC's): out shares no memory with gradOut or with itself.
        Checks.outputMemoryDisjoint(out, "out", gradOut, "gradOut");

        Executor executor = plan(platform, gradOut, out, alignCorners, scales);
        return new WorkspaceAndExecutor(executor.workspaceSize(), executor);
    }

    /**
     * The plan of SPEC §6 for {@code platform} (sizes differ unless noted; intermediates in the workspace):
     * <ul>
     *   <li>equal lengths, every platform: ViewCopy gradOut → out;</li>
     *   <li>cpu: one fused step from gradOut (any strides) into out;</li>
     *   <li>Ascend950 (RegBase): Contiguous → ResizeLinearGrad (3-D, in gradOut's dtype) → ViewCopy;</li>
     *   <li>A2/A3 (DAV_2201): View3dAs4d (Contiguous → Unsqueeze(2) → ReFormat NCHW) → Cast FP32 →
     *       UpsampleBilinear2dGrad (scales_h 1.0) → Cast back → View4dAs3d → ViewCopy;</li>
     *   <li>fallback (Lout ≥ 1,000,000, or the arch is not DAV_2201): View3dAs4d → Cast FP32 →
     *       TransData NCHW→NC1HWC0 → ResizeBilinearV2Grad5Hd (sizes only) → TransData back → Cast back →
     *       View4dAs3d → ViewCopy. Taking sizes only, it ignores a scales that differs from Lout / Lin,
     *       as the hardware does (SPEC §6).</li>
     * </ul>
     */
    static Executor plan(Platform platform, Tensor gradOut, Tensor out, boolean alignCorners, double scales) {
        PlanBuilder plan = new PlanBuilder();
        Operand grad = Operand.of("gradOut", gradOut);
        Operand result = Operand.of("out", out);
        int lin = Math.toIntExact(out.size(2));
        int lout = Math.toIntExact(gradOut.size(2));
        if (lin == lout) {
            plan.viewCopy(grad, result);
        } else if (platform.arch() == Platform.Arch.CPU) {
            plan.add(new LinearBackwardFusedStep(gradOut, out, alignCorners, scales));
        } else if (platform.arch() == Platform.Arch.DAV_3510) {
            Operand contiguous = plan.contiguous(grad);
            Operand gradInput = plan.allocate("gradInput", out.shape(), gradOut.dataType(), contiguous.format());
            plan.add(new ResizeLinearGradStep(contiguous, gradInput, LinearAxis.of(lin, lout, alignCorners, scales),
                    "alignCorners=" + alignCorners + ", scales=" + scales + ", " + PlanNotes.determinism(gradOut, platform)));
            plan.viewCopy(gradInput, result);
        } else {
            Operand x = plan.reformat(plan.unsqueeze(plan.contiguous(grad), 2), Format.NCHW);
            long[] gradInputShape = {out.size(0), out.size(1), 1, lin};
            Operand gradInput;
            if (lout >= FALLBACK_MIN_LOUT || platform.arch() != Platform.Arch.DAV_2201) {
                Operand blocked = plan.toBlocked(plan.cast(x, DataType.FLOAT));
                Operand blockedInput = plan.allocate("gradInput.5hd",
                        TransDataKernel.blockedShape(gradInputShape, DataType.FLOAT), DataType.FLOAT, Format.NC1HWC0);
                plan.add(new ResizeBilinearV2Grad5HdStep(blocked, blockedInput, alignCorners));
                gradInput = plan.fromBlocked(blockedInput, out.size(1), Format.NCHW);
            } else {
                Operand fp32 = plan.cast(x, DataType.FLOAT);
                gradInput = plan.allocate("gradInput", gradInputShape, DataType.FLOAT, Format.NCHW);
                plan.add(new Bilinear2dBackwardStep("UpsampleBilinear2dGrad", fp32, gradInput,
                        LinearAxis.of(1, 1, alignCorners, 1.0), LinearAxis.of(lin, lout, alignCorners, scales),
                        "alignCorners=" + alignCorners + ", scales_h=1.0, scales_w=" + PlanNotes.sourceStep(scales)));
            }
            plan.viewCopy(plan.view4dAs3d(plan.cast(gradInput, out.dataType()), out.format()), result);
        }
        return plan.build(NAME, platform, List.of(gradOut, out), List.of("gradOut", "out"));
    }

    /**
     * Phase 2 ({@code aclnnUpsampleLinear1dBackward}): queues the executor's plan on {@code stream}.
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
