package io.opscv.plan;

import io.opscv.kernel.HalfPixelTaps;
import io.opscv.kernel.ResizeBilinearV2Kernel;
import java.lang.foreign.MemorySegment;

/**
 * The 2-D forward fallback's l0 {@code ResizeBilinearV2}: 5HD in, 5HD out, sizes only,
 * {@code halfPixelCenters = !alignCorners} ({@link ResizeBilinearV2Kernel}).
 */
public final class ResizeBilinearV2Step implements PlanStep {
    private final Operand self;
    private final Operand out;
    private final boolean alignCorners;

    /**
     * A 5HD bilinear forward step.
     *
     * @param self the input, NC1HWC0
     * @param out the output it writes, NC1HWC0
     * @param alignCorners whether the corner samples of input and output are aligned
     */
    public ResizeBilinearV2Step(Operand self, Operand out, boolean alignCorners) {
        this.self = self;
        this.out = out;
        this.alignCorners = alignCorners;
    }

    @Override
    public String name() {
        return "ResizeBilinearV2";
    }

    @Override
    public String describe() {
        return self.describe() + " -> " + out.describe() + ", alignCorners=" + alignCorners + ", halfPixelCenters="
                + !alignCorners + " (sizes only: scales are not used)";
    }

    @Override
    public long workspaceBytes() {
        return out.ownedWorkspaceBytes();
    }

    /** The taps of axis {@code d} (2: H, 3: W), built when the step runs: proportional to the axis. */
    private HalfPixelTaps taps(int d) {
        return HalfPixelTaps.of(Math.toIntExact(self.size(d)), Math.toIntExact(out.size(d)), alignCorners);
    }

    @Override
    public void run(MemorySegment workspace) {
        ResizeBilinearV2Kernel.run(self.resolve(workspace), out.resolve(workspace), taps(2), taps(3));
    }
}
