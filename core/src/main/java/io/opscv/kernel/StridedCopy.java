package io.opscv.kernel;

import java.lang.foreign.MemorySegment;

/**
 * Element-by-element copy between two views of the same shape and dtype, any strides (the l0
 * {@code ViewCopy} and {@code Contiguous} steps, and the identity case Lin = Lout). Bytes are
 * moved unchanged, so NaN payloads and ±Inf survive.
 */
public final class StridedCopy {
    private StridedCopy() {}

    public static void copy(StridedTensor src, StridedTensor dst) {
        int rank = src.dim();
        if (rank != dst.dim() || src.dataType() != dst.dataType()) {
            throw new IllegalArgumentException("copy between " + src + " and " + dst);
        }
        if (src.numel() == 0) {
            return;
        }
        long size = src.dataType().byteSize();
        long[] shape = src.shape();
        long[] ss = src.strides();
        long[] ds = dst.strides();
        if (rank == 0) {
            MemorySegment.copy(src.segment(), src.offset() * size, dst.segment(), dst.offset() * size, size);
            return;
        }
        int last = rank - 1;
        long inner = shape[last];
        long outerCount = 1;
        for (int d = 0; d < last; d++) {
            outerCount *= shape[d];
        }
        long[] index = new long[rank];
        boolean contiguousRows = ss[last] == 1 && ds[last] == 1;
        for (long o = 0; o < outerCount; o++) {
            long sBase = src.offset();
            long dBase = dst.offset();
            for (int d = 0; d < last; d++) {
                sBase += index[d] * ss[d];
                dBase += index[d] * ds[d];
            }
            if (contiguousRows) {
                MemorySegment.copy(src.segment(), sBase * size, dst.segment(), dBase * size, inner * size);
            } else {
                copyStrided(src.segment(), sBase, ss[last], dst.segment(), dBase, ds[last], inner, size);
            }
            for (int d = last - 1; d >= 0; d--) {
                if (++index[d] < shape[d]) {
                    break;
                }
                index[d] = 0;
            }
        }
    }

    private static void copyStrided(MemorySegment src, long sBase, long sStride, MemorySegment dst, long dBase,
                                    long dStride, long count, long size) {
        for (long k = 0; k < count; k++) {
            MemorySegment.copy(src, (sBase + k * sStride) * size, dst, (dBase + k * dStride) * size, size);
        }
    }
}
