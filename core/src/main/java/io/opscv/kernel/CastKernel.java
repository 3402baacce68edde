package io.opscv.kernel;

import io.opscv.runtime.DataType;

/**
 * The l0 {@code Cast} between FLOAT, FLOAT16 and BF16: element by element, any strides on either
 * side. Widening is exact; narrowing rounds once, to nearest even ({@link ElementCodec}).
 */
public final class CastKernel {
    /** Elements converted per chunk of a row. */
    static final int CHUNK = 4096;

    private CastKernel() {}

    /** Converts {@code src} into {@code dst}: same shape, any of the three float dtypes. */
    public static void run(StridedTensor src, StridedTensor dst) {
        requireFloatType(src.dataType());
        requireFloatType(dst.dataType());
        long[] shape = src.shape();
        if (!java.util.Arrays.equals(shape, dst.shape())) {
            throw new IllegalArgumentException("cast between shapes " + src + " and " + dst);
        }
        if (src.numel() == 0) {
            return;
        }
        int rank = shape.length;
        int last = rank - 1;
        long inner = rank == 0 ? 1 : shape[last];
        long srcStep = rank == 0 ? 1 : src.strides()[last];
        long dstStep = rank == 0 ? 1 : dst.strides()[last];
        float[] buffer = new float[(int) Math.min(inner, CHUNK)];
        long[] index = new long[Math.max(rank, 1)];
        long outer = rank == 0 ? 1 : src.numel() / inner;
        for (long o = 0; o < outer; o++) {
            long s = src.offset();
            long d = dst.offset();
            for (int k = 0; k < last; k++) {
                s += index[k] * src.strides()[k];
                d += index[k] * dst.strides()[k];
            }
            for (long e = 0; e < inner; e += buffer.length) {
                int count = (int) Math.min(buffer.length, inner - e);
                ElementCodec.decode(src.segment(), src.dataType(), s + e * srcStep, srcStep, count, buffer, 0);
                ElementCodec.encode(buffer, 0, count, dst.segment(), dst.dataType(), d + e * dstStep, dstStep);
            }
            for (int k = last - 1; k >= 0; k--) {
                if (++index[k] < shape[k]) {
                    break;
                }
                index[k] = 0;
            }
        }
    }

    private static void requireFloatType(DataType type) {
        if (!type.isComputeType()) {
            throw new IllegalArgumentException("Cast supports FLOAT, FLOAT16 and BF16, not " + type);
        }
    }
}
