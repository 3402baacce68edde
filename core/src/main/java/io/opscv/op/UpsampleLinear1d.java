package io.opscv.op;

import io.opscv.plan.Executor;
import io.opscv.plan.Linear1dForwardStep;
import io.opscv.plan.LinearAxis;
import io.opscv.plan.Operand;
import io.opscv.plan.PlanBuilder;
import io.opscv.runtime.AclnnException;
import io.opscv.runtime.DataType;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;
import java.util.List;

/**
 * {@code aclnnUpsampleLinear1d}: 1-D linear interpolation over the last axis of an (N, C, L) tensor
 * (SPEC §1 forward, §10), the forward of {@link UpsampleLinear1dBackward}:
 * {@code out[j] = λ0(j)·self[x0(j)] + λ1(j)·self[x1(j)]}, in float, rounded once to the dtype.
 *
 * <pre>{@code
 * WorkspaceAndExecutor p = UpsampleLinear1d.getWorkspaceSize(self, outputSize, alignCorners, scales, out);
 * UpsampleLinear1d.run(workspace, p.workspaceSize(), p.executor(), stream);
 * }</pre>
 *
 * <p>Validation, in this order (SPEC §10, the backward's chain where SPEC is silent):
 * <ol>
 *   <li>not null: self, outputSize, out (161001);</li>
 *   <li>shape: self and out 3-D, outputSize 1 element;</li>
 *   <li>dtype: the platform runs the operator; self in the platform's list (FLOAT16, FLOAT, BF16; no
 *       BF16 on the training series); out has self's dtype;</li>
 *   <li>elements: self's C and L non-zero; outputSize[0] > 0; out is (N, C, outputSize[0]);</li>
 *   <li>limits (SPEC §5, as the backward): every dimension ≤ 2^20, N·C &lt; 2^31,
 *       (self_L + out_L)·N·C·sizeof(dtype) &lt; 60 GiB;</li>
 *   <li>empty self (N = 0): success, workspace 0, nothing to do;</li>
 *   <li>scales: a number, ≤ 500; outputSize[0] / L ≤ 500; when scales > 0,
 *       outputSize[0] == floor(L · scales) (a negative scales means "not given", as upstream);</li>
 *   <li>memory (this project's rule): out shares no memory with self nor with itself.</li>
 * </ol>
 */
public final class UpsampleLinear1d {
    /** The ACLNN name of this operator. */
    public static final String NAME = "aclnnUpsampleLinear1d";

    /** A2/A3 run the UpsampleLinear1d kernel for source steps in this range, else ResizeD (upstream's CheckLinear1dScales). */
    static final float MIN_SOURCE_STEP = 0.00125f;
    static final float MAX_SOURCE_STEP = 50.0f;

    private UpsampleLinear1d() {}

    /**
     * Phase 1 on the platform of {@code self}'s device ({@link Platform#CPU} when it has none).
     *
     * @param self         (N, C, L), FLOAT / FLOAT16 / BF16, any strides; C and L non-zero
     * @param outputSize   {Lout}
     * @param alignCorners align the centres (true) or the outer edges (false) of the corner pixels
     * @param scales       the multiplier along L (Lout = floor(L · scales)); ≤ 0 = not given; ≤ 500
     * @param out          (N, C, Lout), self's dtype, any non-overlapping strides; it must not share memory with self
     *                     nor overlap itself (161002, see {@link Checks#outputMemoryDisjoint})
     * @return the workspace size and the executor for phase 2
     */
    public static WorkspaceAndExecutor getWorkspaceSize(Tensor self, IntArray outputSize, boolean alignCorners,
                                                        double scales, Tensor out) {
        return getWorkspaceSize(platformOf(self), self, outputSize, alignCorners, scales, out);
    }

    /**
     * Phase 1 as {@code platform} would run it.
     *
     * @param platform     the product to behave as (SPEC §6): its plan, dtypes and limits
     * @param self         (N, C, L), FLOAT / FLOAT16 / BF16, any strides; C and L non-zero
     * @param outputSize   {Lout}
     * @param alignCorners align the centres (true) or the outer edges (false) of the corner pixels
     * @param scales       the multiplier along L (Lout = floor(L · scales)); ≤ 0 = not given; ≤ 500
     * @param out          (N, C, Lout), self's dtype, any non-overlapping strides; it must not share memory with self
     *                     nor overlap itself (161002, see {@link Checks#outputMemoryDisjoint})
     * @return the workspace size and the executor for phase 2
     */
    public static WorkspaceAndExecutor getWorkspaceSize(Platform platform, Tensor self, IntArray outputSize,
                                                        boolean alignCorners, double scales, Tensor out) {
        try {
            return checkAndPlan(platform, self, outputSize, alignCorners, scales, out);
        } catch (OutOfMemoryError e) {
            throw Executor.outOfMemory(NAME + "GetWorkspaceSize", "phase 1", e);
        }
    }

    /** SPEC §4's checks in order, then the plan; an allocation failure is turned into a status by the caller. */
    private static WorkspaceAndExecutor checkAndPlan(Platform platform, Tensor self, IntArray outputSize,
                                                     boolean alignCorners, double scales, Tensor out) {
        Checks.platformGiven(platform);
        // 1. CheckNotNull
        Checks.notNull(self, "self");
        Checks.notNull(outputSize, "outputSize");
        Checks.notNull(out, "out");
        Checks.usable(self, "self");
        Checks.usable(outputSize, "outputSize");
        Checks.usable(out, "out");

        // 2. CheckShape
        Checks.dimension(self, 3, "self");
        Checks.dimension(out, 3, "out");
        Checks.arraySize(outputSize, 1, "outputSize");

        // 3. CheckDtypeValid
        Checks.platformSupported(platform);
        Checks.dtypeIn(self, "self", DtypeSupport.of(platform));
        Checks.dtypeEquals(out, "out", self.dataType());

        // 4. CheckInputElement
        long n = self.size(0);
        long c = self.size(1);
        long lin = self.size(2);
        long lout = outputSize.get(0);
        Checks.nonEmptyData(self);
        Checks.lengthsPositive(null, new long[] {lout}, "L");
        Checks.outShapeEquals(out, new long[] {n, c, lout}, "{N, C, outputSize[0]}");

        // 5. Limits
        Checks.dimensionsAtMost(self, "self", Checks.MAX_DIM_SIZE);
        Checks.dimensionsAtMost(out, "out", Checks.MAX_DIM_SIZE);
        Checks.batchBelowLimit(n, c);
        Checks.memoryBelowLimit(lin + lout, n * c, self.dataType(),
                "(self_L + out_L) * N * C * sizeof(" + self.dataType().dtName() + ")");

        // 6. Empty: a batch of zero rows.
        if (self.isEmpty()) {
            return new WorkspaceAndExecutor(0, new Executor(NAME, platform, List.of(), List.of(self, out)));
        }

        // 7. Scales
        Checks.scalesIsNumber(scales, "scales");
        Checks.scalesAtMost500(scales, "scales");
        Checks.ratioAtMost500(lout, lin, "L");
        Checks.positiveScalesMatchSizes(scales, lin, lout, "scales", "outputSize[0]", "self.size(2)");

        // 8. Memory (this project's rule, after SPEC's): out shares no memory with self or with itself.
        Checks.outputMemoryDisjoint(out, "out", self, "self");

        Executor executor = plan(platform, self, out, alignCorners, scales);
        return new WorkspaceAndExecutor(executor.workspaceSize(), executor);
    }

    /**
     * The plans (after upstream's aclnn_upsample_linear_1d.cpp):
     * <ul>
     *   <li>equal lengths, every platform: ViewCopy self → out;</li>
     *   <li>cpu: one fused step from self (any strides) into out;</li>
     *   <li>Ascend950 (RegBase): Contiguous → ResizeLinear (in self's dtype) → ViewCopy;</li>
     *   <li>A2/A3 with a source step in [0.00125, 50]: View3dAs4d (Contiguous → Unsqueeze(2)) →
     *       Cast FP32 → UpsampleLinear1d → Cast back → View4dAs3d → ViewCopy;</li>
     *   <li>otherwise (the training series, or a step out of that range): View3dAs4d → [Cast FP32
     *       for BF16] → ResizeD → [Cast back] → View4dAs3d → ViewCopy.</li>
     * </ul>
     * All compute SPEC §1 with the given scales.
     */
    static Executor plan(Platform platform, Tensor self, Tensor out, boolean alignCorners, double scales) {
        PlanBuilder plan = new PlanBuilder();
        Operand input = Operand.of("self", self);
        Operand result = Operand.of("out", out);
        int lin = Math.toIntExact(self.size(2));
        int lout = Math.toIntExact(out.size(2));
        LinearAxis axis = LinearAxis.of(lin, lout, alignCorners, scales);
        String parameters = "alignCorners=" + alignCorners + ", scales=" + scales;
        if (lin == lout) {
            plan.viewCopy(input, result);
        } else if (platform.arch() == Platform.Arch.CPU) {
            plan.add(new Linear1dForwardStep("UpsampleLinear1dFused", input, result, axis, parameters));
        } else if (platform.arch() == Platform.Arch.DAV_3510) {
            Operand contiguous = plan.contiguous(input);
            Operand resized = plan.allocate("resized", out.shape(), self.dataType(), contiguous.format());
            plan.add(new Linear1dForwardStep("ResizeLinear", contiguous, resized, axis,
                    parameters + ", " + PlanNotes.determinism(self, platform)));
            plan.viewCopy(resized, result);
        } else {
            Operand x = plan.unsqueeze(plan.contiguous(input), 2);
            long[] resizedShape = {out.size(0), out.size(1), 1, lout};
            Operand resized;
            if (platform.arch() == Platform.Arch.DAV_2201 && sourceStepInKernelRange(lin, lout, alignCorners, scales)) {
                Operand fp32 = plan.cast(x, DataType.FLOAT);
                resized = plan.allocate("resized", resizedShape, DataType.FLOAT, fp32.format());
                plan.add(new Linear1dForwardStep("UpsampleLinear1d", fp32, resized, axis, parameters));
            } else {
                Operand compute = self.dataType() == DataType.BF16 ? plan.cast(x, DataType.FLOAT) : x;
                resized = plan.allocate("resized", resizedShape, compute.dataType(), compute.format());
                plan.add(new Linear1dForwardStep("ResizeD", compute, resized, axis, parameters + ", mode=linear"));
            }
            plan.viewCopy(plan.view4dAs3d(plan.cast(resized, out.dataType()), out.format()), result);
        }
        return plan.build(NAME, platform, List.of(self, out), List.of("self", "out"));
    }

    /** Upstream's CheckLinear1dScales: the source step, in float, lies in [0.00125, 50]. */
    static boolean sourceStepInKernelRange(long lin, long lout, boolean alignCorners, double scales) {
        float step;
        if (alignCorners) {
            step = lout > 1 ? (float) (lin - 1) / (lout - 1) : 0f;
        } else {
            step = scales > 0 ? (float) (1.0 / scales) : (float) lin / lout;
        }
        return step <= MAX_SOURCE_STEP && step >= MIN_SOURCE_STEP;
    }

    /**
     * Phase 2 ({@code aclnnUpsampleLinear1d}): queues the executor's plan on {@code stream}.
     *
     * @param workspace     device memory of at least {@code workspaceSize} bytes (may be {@code null} when it is 0)
     * @param workspaceSize the size phase 1 returned
     * @param executor      the executor phase 1 returned; single-use
     * @param stream        the stream the plan is queued on
     */
    public static void run(DeviceMemory workspace, long workspaceSize, Executor executor, Stream stream) {
        Executor.launch(NAME, workspace, workspaceSize, executor, stream);
    }

    static Platform platformOf(Tensor first) {
        return first != null && first.device() != null ? first.device().platform() : Platform.defaultPlatform();
    }
}
