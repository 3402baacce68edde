package io.opscv.plan;

import io.opscv.kernel.TransDataKernel;
import io.opscv.runtime.Format;
import java.lang.foreign.MemorySegment;

/**
 * l0 {@code TransData}: between a plain NCHW / NHWC tensor and the blocked 5HD layout NC1HWC0
 * ({@link TransDataKernel}), in whichever direction the destination's format says.
 */
public final class TransDataStep implements PlanStep {
    private final Operand src;
    private final Operand dst;

    /**
     * A TransData step.
     *
     * @param src the operand to convert
     * @param dst the intermediate in the other layout; its format (NC1HWC0, NCHW or NHWC) sets the direction
     */
    public TransDataStep(Operand src, Operand dst) {
        this.src = src;
        this.dst = dst;
    }

    @Override
    public String name() {
        return "TransData(" + src.format().name() + "->" + dst.format().name() + ")";
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
        if (dst.format() == Format.NC1HWC0) {
            TransDataKernel.toBlocked(Layouts.nchwView(src).resolve(workspace), dst.resolve(workspace));
        } else {
            TransDataKernel.fromBlocked(src.resolve(workspace), Layouts.nchwView(dst).resolve(workspace));
        }
    }
}
