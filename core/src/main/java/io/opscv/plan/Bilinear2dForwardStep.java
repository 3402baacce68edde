package io.opscv.plan;

import io.opscv.kernel.Bilinear2dForwardKernel;
import java.lang.foreign.MemorySegment;

/**
 * Forward bilinear interpolation ({@link Bilinear2dForwardKernel}) as a plan step: the cpu fused
 * step (any strides, NCHW or NHWC), A2/A3's {@code UpsampleBilinear2d} and Ascend950's
 * {@code ResizeBilinearV2With4d}, which use the given scales.
 */
public final class Bilinear2dForwardStep implements PlanStep {
    private final String name;
    private final Operand self;
    private final Operand out;
    private final LinearAxis h;
    private final LinearAxis w;
    private final String parameters;

    /**
     * A bilinear forward step.
     *
     * @param name the l0 operator it stands for in the plan, e.g. {@code ResizeBilinearV2With4d}
     * @param self the input, (N, C, inH, inW) in its format
     * @param out the output it writes, (N, C, outH, outW) in its format
     * @param h the H axis (input and output lengths, alignCorners, scalesH)
     * @param w the W axis
     * @param parameters shown by {@link #describe()}, e.g. {@code alignCorners=false, scalesH=2.0, scalesW=2.0}
     */
    public Bilinear2dForwardStep(String name, Operand self, Operand out, LinearAxis h, LinearAxis w, String parameters) {
        this.name = name;
        this.self = self;
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
        return self.describe() + " -> " + out.describe() + ", " + parameters;
    }

    @Override
    public long workspaceBytes() {
        return out.ownedWorkspaceBytes();
    }

    @Override
    public void run(MemorySegment workspace) {
        Bilinear2dForwardKernel.run(Layouts.nchwView(self).resolve(workspace), Layouts.nchwView(out).resolve(workspace), h.table(), w.table());
    }
}
