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
    private final HalfPixelTaps h;
    private final HalfPixelTaps w;
    private final boolean alignCorners;

    public ResizeBilinearV2Grad5HdStep(Operand gradOut, Operand out, boolean alignCorners) {
        this.gradOut = gradOut;
        this.out = out;
        this.alignCorners = alignCorners;
        this.h = HalfPixelTaps.of(Math.toIntExact(out.size(2)), Math.toIntExact(gradOut.size(2)), alignCorners);
        this.w = HalfPixelTaps.of(Math.toIntExact(out.size(3)), Math.toIntExact(gradOut.size(3)), alignCorners);
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

    @Override
    public void run(MemorySegment workspace) {
        ResizeBilinearV2Grad5HdKernel.run(gradOut.resolve(workspace), out.resolve(workspace), h, w);
    }
}
