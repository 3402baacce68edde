package io.opscv.plan;

import io.opscv.kernel.CastKernel;
import java.lang.foreign.MemorySegment;

/** l0 {@code Cast}: converts between FLOAT, FLOAT16 and BF16 (exact widening, one rounding when narrowing). */
public final class CastStep implements PlanStep {
    private final Operand src;
    private final Operand dst;

    /**
     * A Cast step; the target dtype is {@code dst}'s.
     *
     * @param src the operand to convert
     * @param dst the intermediate of the same shape that receives it
     */
    public CastStep(Operand src, Operand dst) {
        this.src = src;
        this.dst = dst;
    }

    @Override
    public String name() {
        return "Cast(" + dst.dataType().dtName() + ")";
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
        CastKernel.run(src.resolve(workspace), dst.resolve(workspace));
    }
}
