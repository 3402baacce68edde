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

    /**
     * A bilinear backward step.
     *
     * @param name the l0 operator it stands for in the plan, e.g. {@code UpsampleBilinear2dGrad}
     * @param gradOut the gradient of the forward output, (N, C, outH, outW) in its format
     * @param out the gradient of the forward input it writes, (N, C, inH, inW) in its format
     * @param h the H axis (input and output lengths, alignCorners, scalesH)
     * @param w the W axis
     * @param parameters shown by {@link #describe()}, e.g. {@code alignCorners=false, scalesH=2.0, scalesW=2.0}
     */
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
