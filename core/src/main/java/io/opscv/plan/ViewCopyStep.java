package io.opscv.plan;

import io.opscv.kernel.StridedCopy;
import io.opscv.runtime.Tensor;
import java.lang.foreign.MemorySegment;

/** l0 {@code ViewCopy}: copies one user tensor's view into another of the same shape and dtype. */
public final class ViewCopyStep implements PlanStep {
    private final Tensor src;
    private final Tensor dst;
    private final String srcName;
    private final String dstName;

    public ViewCopyStep(Tensor src, String srcName, Tensor dst, String dstName) {
        this.src = src;
        this.dst = dst;
        this.srcName = srcName;
        this.dstName = dstName;
    }

    @Override
    public String name() {
        return "ViewCopy";
    }

    @Override
    public String describe() {
        return TensorViews.describe(srcName, src) + " -> " + TensorViews.describe(dstName, dst);
    }

    @Override
    public void run(MemorySegment workspace) {
        StridedCopy.copy(TensorViews.of(src), TensorViews.of(dst));
    }
}
