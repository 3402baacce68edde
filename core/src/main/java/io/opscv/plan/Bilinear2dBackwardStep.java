package io.opscv.plan;

import io.opscv.kernel.Bilinear2dBackwardKernel;
import java.lang.foreign.MemorySegment;

/**
 * The bilinear backward ({@link Bilinear2dBackwardKernel}) as a plan step: the l0
 * {@code UpsampleBilinear2dGrad} of the NPU plans, and the cpu platform's fused step straight from
 * gradOut (any strides, NCHW or NHWC) into out.
 */
public final class Bilinear2dBackwardStep implements PlanStep {
    private final String name;
    private final Operand gradOut;
    private final Operand out;
    private final LinearAxis h;
    private final LinearAxis w;
    private final String parameters;

    public Bilinear2dBackwardStep(String name, Operand gradOut, Operand out, LinearAxis h, LinearAxis w,
                                  String parameters) {
        this.name = name;
        this.gradOut = gradOut;
        this.out = out;
        this.h = h;
        this.w = w;
        this.parameters = parameters;
    }

    @Override
    public String name() {
        return name;
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
        Bilinear2dBackwardKernel.run(Layouts.nchwView(gradOut).resolve(workspace), Layouts.nchwView(out).resolve(workspace),
                h.table(), w.table());
    }
}
