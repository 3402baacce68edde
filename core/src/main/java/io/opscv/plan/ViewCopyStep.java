package io.opscv.plan;

import io.opscv.kernel.StridedCopy;
import java.lang.foreign.MemorySegment;

/**
 * l0 {@code ViewCopy}: copies one view into another of the same shape and dtype, any strides on
 * either side — the last step of every NPU plan (the result into the user's {@code out}) and the
 * whole plan when the sizes are equal.
 */
public final class ViewCopyStep implements PlanStep {
    private final Operand src;
    private final Operand dst;

    /**
     * A ViewCopy step.
     *
     * @param src the view to read
     * @param dst the view to write, of the same shape and dtype
     */
    public ViewCopyStep(Operand src, Operand dst) {
        this.src = src;
        this.dst = dst;
    }

    @Override
    public String name() {
        return "ViewCopy";
    }

    @Override
    public String describe() {
        return src.describe() + " -> " + dst.describe();
    }

    @Override
    public long workspaceBytes() {
        return dst.ownedWorkspaceBytes();
    }

    @Override
    public void run(MemorySegment workspace) {
        StridedCopy.copy(src.resolve(workspace), dst.resolve(workspace));
    }
}
