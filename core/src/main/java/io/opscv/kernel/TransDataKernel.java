package io.opscv.kernel;

import io.opscv.runtime.DataType;

/**
 * The l0 {@code TransData} between the plain 4-D layout (N, C, H, W) and the blocked "5HD" layout
 * NC1HWC0 of the Ascend cube units: channels are cut into C1 = ceil(C / C0) blocks of C0 channels,
 * the block being the innermost dimension, so a 5HD tensor is (N, C1, H, W, C0) and element
 * (n, c, h, w) lives at (n, c / C0, h, w, c % C0). C0 is 32 bytes' worth of elements (8 for FLOAT,
 * 16 for FLOAT16 / BF16); the channels of the last block beyond C are padding, written as zeros.
 *
 * <p>Both directions are strided copies between views of the two layouts (StridedCopy), one for
 * the full channel blocks and one for the partial last block.
 */
public final class TransDataKernel {
    /** Bytes of one channel block. */
    static final int BLOCK_BYTES = 32;

    private TransDataKernel() {}

    /** C0 for {@code type}: 8 for FLOAT, 16 for FLOAT16 and BF16. */
    public static int c0(DataType type) {
        return BLOCK_BYTES / type.byteSize();
    }

    /** The 5HD shape (N, C1, H, W, C0) of an (N, C, H, W) tensor of {@code type}. */
    public static long[] blockedShape(long[] nchw, DataType type) {
        int c0 = c0(type);
        return new long[] {nchw[0], Math.ceilDiv(nchw[1], c0), nchw[2], nchw[3], c0};
    }

    /**
     * NCHW → NC1HWC0. {@code src} is an (N, C, H, W) view with any strides (an NHWC tensor comes in
     * as its permuted view); {@code dst} is a contiguous (N, C1, H, W, C0) tensor of the same dtype.
     */
    public static void toBlocked(StridedTensor src, StridedTensor dst) {
        long size = dst.dataType().byteSize();
        NativeFill.zero(dst.segment(), dst.offset() * size, dst.numel() * size);
        copy(src, dst, true);
    }

    /** NC1HWC0 → NCHW: {@code src} contiguous (N, C1, H, W, C0), {@code dst} an (N, C, H, W) view with any strides. */
    public static void fromBlocked(StridedTensor src, StridedTensor dst) {
        copy(dst, src, false);
    }

    private static void copy(StridedTensor plain, StridedTensor blocked, boolean toBlocked) {
        long[] p = plain.shape();
        long[] ps = plain.strides();
        long[] b = blocked.shape();
        long[] bs = blocked.strides();
        long n = p[0];
        long c = p[1];
        long h = p[2];
        long w = p[3];
        long c0 = b[4];
        long fullBlocks = c / c0;
        long rest = c % c0;
        if (b[0] != n || b[1] != Math.ceilDiv(c, c0) || b[2] != h || b[3] != w) {
            throw new IllegalArgumentException("TransData between " + plain + " and " + blocked);
        }
        // Views of both sides as (N, C1', C0', H, W): channel c = c1 * C0 + c0.
        if (fullBlocks > 0) {
            transfer(view(plain, new long[] {n, fullBlocks, c0, h, w}, new long[] {ps[0], c0 * ps[1], ps[1], ps[2], ps[3]}, 0),
                    view(blocked, new long[] {n, fullBlocks, c0, h, w}, new long[] {bs[0], bs[1], bs[4], bs[2], bs[3]}, 0),
                    toBlocked);
        }
        if (rest > 0) {
            transfer(view(plain, new long[] {n, 1, rest, h, w}, new long[] {ps[0], c0 * ps[1], ps[1], ps[2], ps[3]},
                            fullBlocks * c0 * ps[1]),
                    view(blocked, new long[] {n, 1, rest, h, w}, new long[] {bs[0], bs[1], bs[4], bs[2], bs[3]},
                            fullBlocks * bs[1]),
                    toBlocked);
        }
    }

    private static StridedTensor view(StridedTensor t, long[] shape, long[] strides, long extraOffset) {
        return new StridedTensor(t.segment(), t.offset() + extraOffset, shape, strides, t.dataType());
    }

    private static void transfer(StridedTensor plain, StridedTensor blocked, boolean toBlocked) {
        if (toBlocked) {
            StridedCopy.copy(plain, blocked);
        } else {
            StridedCopy.copy(blocked, plain);
        }
    }
}
