package io.opscv.kernel;

import io.opscv.runtime.DataType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Moves runs of elements between a tensor (FLOAT, FLOAT16 or BF16, any element stride) and a
 * {@code float[]} working buffer: decoding widens exactly; encoding rounds once, to nearest even
 * (SPEC §1: FP16/BF16 are accumulated in FP32 and rounded once at the end).
 */
public final class ElementCodec {
    static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
    static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED;

    private ElementCodec() {}

    /** Reads {@code count} elements starting at element index {@code first}, {@code stride} apart, into {@code dst[dstOff..]}. */
    public static void decode(MemorySegment seg, DataType type, long first, long stride, int count, float[] dst, int dstOff) {
        if (stride == 1) {
            // Small loops of their own, so that the JIT inlines and vectorizes them (vcvtph2ps for FP16).
            switch (type) {
                case FLOAT -> MemorySegment.copy(seg, F32, first * 4, dst, dstOff, count);
                case FLOAT16 -> decodeHalfs(seg, first, count, dst, dstOff);
                case BF16 -> decodeBf16s(seg, first, count, dst, dstOff);
                default -> throw new IllegalArgumentException("no float codec for " + type);
            }
            return;
        }
        decode(seg, type, first, stride, count, dst, dstOff, 1);
    }

    private static void decodeHalfs(MemorySegment seg, long first, int count, float[] dst, int dstOff) {
        for (int k = 0; k < count; k++) {
            dst[dstOff + k] = Float.float16ToFloat(seg.get(U16, (first + k) * 2));
        }
    }

    private static void decodeBf16s(MemorySegment seg, long first, int count, float[] dst, int dstOff) {
        for (int k = 0; k < count; k++) {
            dst[dstOff + k] = bf16ToFloat(seg.get(U16, (first + k) * 2));
        }
    }

    /** Writes {@code src[srcOff..srcOff+count)} to {@code count} elements starting at {@code first}, {@code stride} apart. */
    public static void encode(float[] src, int srcOff, int count, MemorySegment seg, DataType type, long first, long stride) {
        if (stride == 1) {
            switch (type) {
                case FLOAT -> MemorySegment.copy(src, srcOff, seg, F32, first * 4, count);
                case FLOAT16 -> encodeHalfs(src, srcOff, count, seg, first);
                case BF16 -> encodeBf16s(src, srcOff, count, seg, first);
                default -> throw new IllegalArgumentException("no float codec for " + type);
            }
            return;
        }
        encode(src, srcOff, 1, count, seg, type, first, stride);
    }

    /** {@code src[srcOff]}, {@code src[srcOff + srcStride]}, ... to {@code count} elements {@code stride} apart. */
    private static void encode(float[] src, int srcOff, int srcStride, int count, MemorySegment seg, DataType type,
                               long first, long stride) {
        switch (type) {
            case FLOAT -> {
                for (int k = 0; k < count; k++) {
                    seg.set(F32, (first + k * stride) * 4, src[srcOff + k * srcStride]);
                }
            }
            case FLOAT16 -> {
                for (int k = 0; k < count; k++) {
                    seg.set(U16, (first + k * stride) * 2, Float.floatToFloat16(src[srcOff + k * srcStride]));
                }
            }
            case BF16 -> {
                for (int k = 0; k < count; k++) {
                    seg.set(U16, (first + k * stride) * 2, floatToBf16(src[srcOff + k * srcStride]));
                }
            }
            default -> throw new IllegalArgumentException("no float codec for " + type);
        }
    }

    private static void encodeHalfs(float[] src, int srcOff, int count, MemorySegment seg, long first) {
        for (int k = 0; k < count; k++) {
            seg.set(U16, (first + k) * 2, Float.floatToFloat16(src[srcOff + k]));
        }
    }

    private static void encodeBf16s(float[] src, int srcOff, int count, MemorySegment seg, long first) {
        for (int k = 0; k < count; k++) {
            seg.set(U16, (first + k) * 2, floatToBf16(src[srcOff + k]));
        }
    }

    /**
     * Reads {@code rows} runs of {@code count} elements: run r starts at element index
     * {@code first + r·rowStride}, its elements {@code stride} apart, and lands in
     * {@code dst[dstOff + r·dstRowStride ..]}. When the elements of a run are further apart than the
     * runs (a transposed view), the rows are read side by side, position by position, so that each
     * cache line of the tensor is read once for all of them.
     */
    public static void decodeRows(MemorySegment seg, DataType type, long first, long stride, long rowStride, int rows,
                                  int count, float[] dst, int dstOff, int dstRowStride) {
        if (rows == 1 || stride == 1 || Math.abs(stride) <= Math.abs(rowStride)) {
            if (stride == 1 && rowStride == count && dstRowStride == count) {
                decode(seg, type, first, 1, rows * count, dst, dstOff);
                return;
            }
            for (int r = 0; r < rows; r++) {
                decode(seg, type, first + r * rowStride, stride, count, dst, dstOff + r * dstRowStride);
            }
            return;
        }
        for (int k = 0; k < count; k++) {
            decode(seg, type, first + k * stride, rowStride, rows, dst, dstOff + k, dstRowStride);
        }
    }

    /** {@code count} elements {@code stride} apart into {@code dst[dstOff]}, {@code dst[dstOff + dstStride]}, ... */
    private static void decode(MemorySegment seg, DataType type, long first, long stride, int count, float[] dst,
                               int dstOff, int dstStride) {
        switch (type) {
            case FLOAT -> {
                for (int k = 0; k < count; k++) {
                    dst[dstOff + k * dstStride] = seg.get(F32, (first + k * stride) * 4);
                }
            }
            case FLOAT16 -> {
                for (int k = 0; k < count; k++) {
                    dst[dstOff + k * dstStride] = Float.float16ToFloat(seg.get(U16, (first + k * stride) * 2));
                }
            }
            case BF16 -> {
                for (int k = 0; k < count; k++) {
                    dst[dstOff + k * dstStride] = bf16ToFloat(seg.get(U16, (first + k * stride) * 2));
                }
            }
            default -> throw new IllegalArgumentException("no float codec for " + type);
        }
    }

    /**
     * Reads {@code count} elements ({@code stride} apart from {@code start[l] + from·stride}) of each of
     * the first {@code rows} rows into the lane-major {@code lanes[k·n + l]}: one call for a group of
     * short rows, where a call and a transpose per row cost more than the elements. Rows evenly spaced
     * ({@code rowStep} ≠ 0: {@code start[l] = start[0] + l·rowStep}) go position by position, each loop
     * over the rows on one linear index: the JIT then checks the segment's bounds once per loop, where an
     * access at a row's own start costs a check of its own (about 4 ns an element).
     */
    static void decodeShortRows(MemorySegment seg, DataType type, long[] start, long rowStep, int rows, long from,
                                long stride, int count, float[] lanes, int n) {
        if (rowStep != 0 && rows >= 4 * count) {
            for (int k = 0; k < count; k++) {
                decode(seg, type, start[0] + (from + k) * stride, rowStep, rows, lanes, k * n, 1);
            }
            return;
        }
        for (int l = 0; l < rows; l++) {
            decode(seg, type, start[l] + from * stride, stride, count, lanes, l, n);
        }
    }

    /** The inverse of {@link #decodeShortRows}: lane-major sums to the rows' elements, rounded once. */
    static void encodeShortRows(float[] lanes, int n, int rows, int count, MemorySegment seg, DataType type,
                                long[] start, long rowStep, long from, long stride) {
        if (rowStep != 0 && rows >= 4 * count) {
            for (int k = 0; k < count; k++) {
                encode(lanes, k * n, 1, rows, seg, type, start[0] + (from + k) * stride, rowStep);
            }
            return;
        }
        for (int l = 0; l < rows; l++) {
            encode(lanes, l, n, count, seg, type, start[l] + from * stride, stride);
        }
    }

    /** The element at index {@code index} (in elements), widened exactly. */
    static float get(MemorySegment seg, DataType type, long index) {
        return switch (type) {
            case FLOAT -> seg.get(F32, index * 4);
            case FLOAT16 -> Float.float16ToFloat(seg.get(U16, index * 2));
            case BF16 -> bf16ToFloat(seg.get(U16, index * 2));
            default -> throw new IllegalArgumentException("no float codec for " + type);
        };
    }

    /** Writes {@code value} to the element at index {@code index}, rounded once to nearest even. */
    static void set(MemorySegment seg, DataType type, long index, float value) {
        switch (type) {
            case FLOAT -> seg.set(F32, index * 4, value);
            case FLOAT16 -> seg.set(U16, index * 2, Float.floatToFloat16(value));
            case BF16 -> seg.set(U16, index * 2, floatToBf16(value));
            default -> throw new IllegalArgumentException("no float codec for " + type);
        }
    }

    /** BFLOAT16 bits → float (exact: bfloat16 is the upper half of a float). */
    public static float bf16ToFloat(short bits) {
        return Float.intBitsToFloat((bits & 0xffff) << 16);
    }

    /** float → BFLOAT16 bits, rounding to nearest even; NaN stays NaN (quieted), overflow gives ±Inf. */
    public static short floatToBf16(float value) {
        int bits = Float.floatToRawIntBits(value);
        if ((bits & 0x7fffffff) > 0x7f800000) {
            return (short) ((bits >>> 16) | 0x0040);
        }
        bits += 0x7fff + ((bits >>> 16) & 1);
        return (short) (bits >>> 16);
    }
}
