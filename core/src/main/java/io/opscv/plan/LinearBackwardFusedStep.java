package io.opscv.plan;

import io.opscv.kernel.Linear1dBackwardKernel;
import io.opscv.kernel.LinearTable;
import io.opscv.runtime.Tensor;
import java.lang.foreign.MemorySegment;

/** The cpu platform's direct plan: one fused kernel from gradOut (any strides) into out (SPEC §6). */
public final class LinearBackwardFusedStep implements PlanStep {
    private final Tensor gradOut;
    private final Tensor out;
    private final LinearTable table;
    private final boolean alignCorners;
    private final double scales;

    /**
     * The fused 1-D backward step.
     *
     * @param gradOut the gradient of the forward output, (N, C, outL), any strides
     * @param out the gradient of the forward input it writes, (N, C, inL)
     * @param alignCorners whether the corner samples of input and output are aligned
     * @param scales the forward multiplier along L, as the operator was given it
     */
    public LinearBackwardFusedStep(Tensor gradOut, Tensor out, boolean alignCorners, double scales) {
        this.gradOut = gradOut;
        this.out = out;
        this.alignCorners = alignCorners;
        this.scales = scales;
        // Deferred: phase 1 builds nothing; the kernel takes the table from the cache of recent axes or builds it.
        this.table = LinearTable.deferred(Math.toIntExact(out.size(2)), Math.toIntExact(gradOut.size(2)), alignCorners,
                scales);
    }

    @Override
    public String name() {
        return "UpsampleLinear1dBackwardFused";
    }

    @Override
    public String describe() {
        return TensorViews.describe("gradOut", gradOut) + " -> " + TensorViews.describe("out", out)
                + ", alignCorners=" + alignCorners + ", scales=" + scales;
    }

    @Override
    public void run(MemorySegment workspace) {
        Linear1dBackwardKernel.run(TensorViews.of(gradOut), TensorViews.of(out), table);
    }
}
