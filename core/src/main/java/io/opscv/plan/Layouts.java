package io.opscv.plan;

import io.opscv.runtime.Format;

/**
 * The 2-D operators' two plain layouts. A tensor's view shape follows its format's order (as in
 * CANN): (N, C, H, W) for NCHW and ND, (N, H, W, C) for NHWC. Kernels take the NCHW-ordered view.
 */
public final class Layouts {
    /** NHWC → NCHW order of the dimensions. */
    static final int[] NHWC_TO_NCHW = {0, 3, 1, 2};
    /** NCHW → NHWC order of the dimensions. */
    static final int[] NCHW_TO_NHWC = {0, 2, 3, 1};

    private Layouts() {}

    /**
     * The (N, C, H, W) view of a 4-D operand: a free permutation for NHWC, the operand itself otherwise.
     *
     * @param operand a 4-D operand in its format's order
     * @return its (N, C, H, W) view
     */
    public static Operand nchwView(Operand operand) {
        return operand.format() == Format.NHWC ? operand.permute(operand.name(), NHWC_TO_NCHW, Format.NHWC) : operand;
    }

    /**
     * (N, C, H, W) of a shape given in {@code format}'s order.
     *
     * @param shape a 4-D shape
     * @param format the order it is in (NHWC, or NCHW / ND)
     * @return a new array in (N, C, H, W) order
     */
    public static long[] toNchw(long[] shape, Format format) {
        return format == Format.NHWC ? new long[] {shape[0], shape[3], shape[1], shape[2]} : shape.clone();
    }

    /**
     * A shape given as (N, C, H, W), in {@code format}'s order.
     *
     * @param nchw a 4-D shape in (N, C, H, W) order
     * @param format the order wanted (NHWC, or NCHW / ND)
     * @return a new array in {@code format}'s order
     */
    public static long[] fromNchw(long[] nchw, Format format) {
        return format == Format.NHWC ? new long[] {nchw[0], nchw[2], nchw[3], nchw[1]} : nchw.clone();
    }
}
