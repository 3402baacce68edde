package io.opscv.plan;

import io.opscv.kernel.Linear1dForwardKernel;
import java.lang.foreign.MemorySegment;

/**
 * Forward 1-D linear interpolation ({@link Linear1dForwardKernel}) as a plan step: the cpu fused
 * step, Ascend950's {@code ResizeLinear}, A2/A3's {@code UpsampleLinear1d} and the fallback's
 * {@code ResizeD} — which all compute SPEC §1 with the given scales.
 */
public final class Linear1dForwardStep implements PlanStep {
    private final String name;
    private final Operand self;
    private final Operand out;
    private final LinearAxis axis;
    private final String parameters;

    /**
     * A 1-D linear forward step.
     *
     * @param name the l0 operator it stands for in the plan, e.g. {@code ResizeLinear}
     * @param self the input, (N, C, inL) or the NPU plans' (N, C, 1, inL)
     * @param out the output it writes, (N, C, outL) or (N, C, 1, outL)
     * @param axis the L axis (input and output lengths, alignCorners, scales)
     * @param parameters shown by {@link #describe()}, e.g. {@code alignCorners=false, scales=2.0}
     */
    public Linear1dForwardStep(String name, Operand self, Operand out, LinearAxis axis, String parameters) {
        this.name = name;
        this.self = self;
        this.out = out;
        this.axis = axis;
        this.parameters = parameters;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String describe() {
        return self.describe() + " -> " + out.describe() + ", " + parameters;
    }

    @Override
    public long workspaceBytes() {
        return out.ownedWorkspaceBytes();
    }

    @Override
    public void run(MemorySegment workspace) {
        Linear1dForwardKernel.run(lastAxisView(self, workspace), lastAxisView(out, workspace), axis.table());
    }

    /** The (N, C, L) view of a 3-D operand, or of an (N, C, 1, L) one (the NPU plans' 4-D intermediates). */
    private static io.opscv.kernel.StridedTensor lastAxisView(Operand operand, MemorySegment workspace) {
        Operand threeD = operand.dim() == 4 ? operand.squeeze(operand.name(), 2, operand.format()) : operand;
        return threeD.resolve(workspace);
    }
}
