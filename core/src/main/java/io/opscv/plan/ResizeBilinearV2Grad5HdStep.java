package io.opscv.plan;

import io.opscv.kernel.HalfPixelTaps;
import io.opscv.kernel.ResizeBilinearV2Grad5HdKernel;
import java.lang.foreign.MemorySegment;

/**
 * The fallback plan's l0 {@code ResizeBilinearV2Grad5Hd}: 5HD in, 5HD out, sizes only,
 * {@code halfPixelCenters = !alignCorners} ({@link ResizeBilinearV2Grad5HdKernel}).
 */
public final class ResizeBilinearV2Grad5HdStep implements PlanStep {
    private final Operand gradOut;
    private final Operand out;
    private final boolean alignCorners;

    /**
     * A 5HD bilinear backward step.
     *
     * @param gradOut the gradient of the forward output, NC1HWC0
     * @param out the gradient of the forward input it writes, NC1HWC0
     * @param alignCorners whether the corner samples of input and output are aligned
     */
    public ResizeBilinearV2Grad5HdStep(Operand gradOut, Operand out, boolean alignCorners) {
        this.gradOut = gradOut;
        this.out = out;
        this.alignCorners = alignCorners;
    }

    @Override
    public String name() {
        return "ResizeBilinearV2Grad5Hd";
    }

    @Override
    public String describe() {
        return gradOut.describe() + " -> " + out.describe() + ", alignCorners=" + alignCorners + ", halfPixelCenters="
                + !alignCorners + " (sizes only: scales are not used)";
    }

    @Override
    public long workspaceBytes() {
        return out.ownedWorkspaceBytes();
    }

    /** The taps of axis {@code d} (2: H, 3: W), built when the step runs: proportional to the axis. */
    private HalfPixelTaps taps(int d) {
        return HalfPixelTaps.of(Math.toIntExact(out.size(d)), Math.toIntExact(gradOut.size(d)), alignCorners);
    }

    @Override
    public void run(MemorySegment workspace) {
        ResizeBilinearV2Grad5HdKernel.run(gradOut.resolve(workspace), out.resolve(workspace), taps(2), taps(3));
    }
}
