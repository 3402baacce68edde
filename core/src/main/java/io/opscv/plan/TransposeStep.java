package io.opscv.plan;

import io.opscv.kernel.StridedCopy;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.stream.Collectors;

/** l0 {@code Transpose}: materialises a permutation of the dimensions in a row-major intermediate. */
public final class TransposeStep implements PlanStep {
    private final Operand src;
    private final Operand permuted;
    private final Operand dst;
    private final int[] order;

    /**
     * A Transpose step.
     *
     * @param src   the input
     * @param order output dimension d is input dimension {@code order[d]}
     * @param dst   a contiguous intermediate of the permuted shape
     */
    public TransposeStep(Operand src, int[] order, Operand dst) {
        this.src = src;
        this.order = order.clone();
        this.permuted = src.permute(src.name(), order, dst.format());
        this.dst = dst;
    }

    @Override
    public String name() {
        return "Transpose(" + Arrays.stream(order).mapToObj(Integer::toString).collect(Collectors.joining(",")) + ")";
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
        StridedCopy.copy(permuted.resolve(workspace), dst.resolve(workspace));
    }
}
