package io.opscv.plan;

import io.opscv.kernel.Linear1dBackwardKernel;
import java.lang.foreign.MemorySegment;

/**
 * Ascend950 (RegBase) l0 {@code ResizeLinearGrad}: the 3-D 1-D-linear backward on a contiguous
 * gradOut, in its own dtype (sums in float), into an intermediate; the coordinate table is built when it
 * runs ({@link LinearAxis}).
 */
public final class ResizeLinearGradStep implements PlanStep {
    private final Operand gradOut;
    private final Operand out;
    private final LinearAxis axis;
    private final String parameters;

    /**
     * A ResizeLinearGrad step.
     *
     * @param gradOut the contiguous gradient of the forward output, (N, C, outL)
     * @param out the intermediate it writes, the gradient of the forward input, (N, C, inL)
     * @param axis the L axis (input and output lengths, alignCorners, scales)
     * @param parameters shown by {@link #describe()}, e.g. {@code alignCorners=false, scales=2.0, deterministic=false}
     */
    public ResizeLinearGradStep(Operand gradOut, Operand out, LinearAxis axis, String parameters) {
        this.gradOut = gradOut;
        this.out = out;
        this.axis = axis;
        this.parameters = parameters;
    }

    @Override
    public String name() {
        return "ResizeLinearGrad";
    }

    @Override
    public String describe() {
        return gradOut.describe() + " -> " + out.describe() + ", " + parameters;
    }

    @Override
    public long workspaceBytes() {
        return out.ownedWorkspaceBytes();
    }

    @Override
    public void run(MemorySegment workspace) {
        Linear1dBackwardKernel.run(gradOut.resolve(workspace), out.resolve(workspace), axis.table());
    }
}
