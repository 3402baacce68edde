package io.opscv.plan;

import io.opscv.kernel.LinearTable;

/**
 * One axis of a linear or bilinear step as phase 1 describes it: its lengths and coordinate parameters,
 * not its {@link LinearTable}. The table, proportional to the axis, is built by the step's run (phase 2)
 * and dropped with it, so that phase 1 and the executors it returns stay small whatever the tensors'
 * sizes.
 *
 * @param lin the input length along the axis
 * @param lout the output length along the axis
 * @param alignCorners whether the corner samples of input and output are aligned
 * @param scales the forward multiplier along the axis, as the operator was given it
 */
public record LinearAxis(int lin, int lout, boolean alignCorners, double scales) {

    /**
     * The axis of {@code lin} inputs and {@code lout} outputs. A table that could never be built (longer than an
     * array, or larger than the heap) is refused here, in phase 1, with the 361001 of {@link LinearTable#deferred},
     * which allocates nothing.
     *
     * @param lin the input length along the axis
     * @param lout the output length along the axis
     * @param alignCorners whether the corner samples of input and output are aligned
     * @param scales the forward multiplier along the axis (how "not given" reads depends on the operator)
     * @return the axis
     */
    public static LinearAxis of(int lin, int lout, boolean alignCorners, double scales) {
        LinearTable.deferred(lin, lout, alignCorners, scales);
        return new LinearAxis(lin, lout, alignCorners, scales);
    }

    /** The axis's whole table, built now (361001 when the heap cannot hold it). */
    LinearTable table() {
        return LinearTable.of(lin, lout, alignCorners, scales);
    }
}
