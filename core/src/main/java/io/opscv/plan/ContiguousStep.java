package io.opscv.plan;

import io.opscv.kernel.StridedCopy;
import java.lang.foreign.MemorySegment;

/** l0 {@code Contiguous}: copies a strided view into a row-major intermediate. */
public final class ContiguousStep implements PlanStep {
    private final Operand src;
    private final Operand dst;

    /**
     * A Contiguous step.
     *
     * @param src the strided view
     * @param dst the row-major intermediate of the same shape and dtype
     */
    public ContiguousStep(Operand src, Operand dst) {
        this.src = src;
        this.dst = dst;
    }

    @Override
    public String name() {
        return "Contiguous";
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
