package io.opscv.kernel;

import static io.opscv.kernel.ExactVectors.FLOAT_VECTOR;
import static io.opscv.kernel.ExactVectors.INT_VECTOR;
import static io.opscv.kernel.ExactVectors.SHORT_VECTOR;

import io.opscv.runtime.DataType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The 16-bit dtypes' widening and rounding in registers, for {@link VectorKernelProvider}: each method
 * moves {@code count} positions of a vector of consecutive elements each, position k at element
 * {@code first + k·stride} of the segment and at {@code k·lanes} of the float buffer (a run: stride
 * lanes; rows side by side: any stride), exactly as {@link ElementCodec} does element by element. The last
 * position moves only its first {@code last} elements (masked: a short row's tail, whose neighbours in
 * memory belong to other rows); the float buffer is read or written whole there. Only that position
 * builds a mask: a mask built for every position doubled a long run's time.
 *
 * <p>Every vector stays local to one loop. A method that takes or returns a vector must be inlined for
 * C2 to keep that vector in a register; at a call site that its profile calls cold C2 inlines only
 * methods of up to 35 bytecodes, and the vector is then boxed on every call (a 16-bit decode ran 5–25
 * times slower in such compilations, depending on the order in which methods were compiled).
 */
final class VectorCodec {
    private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> INTS = VectorSpecies.of(int.class, FLOATS.vectorShape());
    private static final int LANES = FLOATS.length();
    /** As many 16-bit lanes as {@link #FLOATS} has floats. */
    private static final VectorSpecies<Short> HALFS = VectorSpecies.of(short.class,
            VectorShape.forBitSize(LANES * Short.SIZE));
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    /**
     * Bytes of a whole vector of each kind. A partial last position is loaded whole where the segment holds
     * the vector, its lanes past the run then zeroed in registers: a masked load from a segment costs
     * several times a whole load and a blend.
     */
    private static final long HALF_BYTES = HALFS.vectorByteSize();
    private static final long FLOAT_BYTES = FLOATS.vectorByteSize();
    /** Half-width species for the overlapping stores of a short row's tail (at least 128 bits where used). */
    private static final VectorSpecies<Float> FLOAT_HALVES = VectorSpecies.of(float.class,
            VectorShape.forBitSize(Math.max(64, FLOATS.vectorBitSize() / 2)));
    private static final VectorSpecies<Short> HALF_HALVES = VectorSpecies.of(short.class,
            VectorShape.forBitSize(Math.max(64, HALFS.vectorBitSize() / 2)));
    /** The exact classes of the half-width species ({@link ExactVectors}). */
    private static final Class<FloatVector> FLOAT_HALF = ExactVectors.type(FLOAT_HALVES);
    private static final Class<ShortVector> HALF_HALF = ExactVectors.type(HALF_HALVES);
    /**
     * Whether the vectors are 512 bits wide, so that the machine has AVX-512: masked loads and stores of 16-bit
     * and byte lanes and scatters are instructions. Below it the JDK runs them as fallbacks that box the vector,
     * and C2 then boxes every vector that meets one.
     */
    static final boolean AVX512 = FLOATS.vectorBitSize() >= 512;

    private VectorCodec() {}

    /** BF16 widened exactly: the upper half of a float. */
    static void widenBf16(MemorySegment seg, long first, long stride, int count, int last, float[] dst, int at) {
        for (int k = 0; k < count; k++) {
            long at16 = (first + k * stride) * 2;
            boolean partial = k == count - 1 && last < LANES;
            if (partial && at16 + HALF_BYTES > seg.byteSize()) {
                segmentEnd(seg, DataType.BF16, first + k * stride, last, dst, at + k * LANES);
                continue;
            }
            ShortVector raw = SHORT_VECTOR.cast(ShortVector.fromMemorySegment(HALFS, seg, at16, ORDER));
            if (partial) {
                raw = SHORT_VECTOR.cast(ShortVector.zero(HALFS)).blend(raw, HALFS.indexInRange(0, last));
            }
            IntVector x = INT_VECTOR.cast((IntVector) SHORT_VECTOR.cast(raw)
                    .convertShape(VectorOperators.ZERO_EXTEND_S2I, INTS, 0));
            FLOAT_VECTOR.cast((FloatVector) x.lanewise(VectorOperators.LSHL, 16).reinterpretShape(FLOATS, 0))
                    .intoArray(dst, at + k * LANES);
        }
    }

    /**
     * FP16 widened exactly as {@link Float#float16ToFloat}: the exponent and fraction moved into a float's
     * bits and scaled by 2^112 (exact for normal and subnormal halfs alike); only a position holding an
     * infinity or NaN blends in the float's top exponent (NaNs quieted as the JDK's conversion does).
     */
    static void widenFp16(MemorySegment seg, long first, long stride, int count, int last, float[] dst, int at) {
        for (int k = 0; k < count; k++) {
            long at16 = (first + k * stride) * 2;
            boolean partial = k == count - 1 && last < LANES;
            if (partial && at16 + HALF_BYTES > seg.byteSize()) {
                segmentEnd(seg, DataType.FLOAT16, first + k * stride, last, dst, at + k * LANES);
                continue;
            }
            ShortVector raw = SHORT_VECTOR.cast(ShortVector.fromMemorySegment(HALFS, seg, at16, ORDER));
            if (partial) {
                raw = SHORT_VECTOR.cast(ShortVector.zero(HALFS)).blend(raw, HALFS.indexInRange(0, last));
            }
            IntVector h = INT_VECTOR.cast((IntVector) SHORT_VECTOR.cast(raw)
                    .convertShape(VectorOperators.S2I, INTS, 0));
            IntVector magnitude = h.and(0x7fff);
            IntVector shifted = magnitude.lanewise(VectorOperators.LSHL, 13);
            FloatVector scaled = FLOAT_VECTOR.cast((FloatVector) shifted.reinterpretShape(FLOATS, 0)).mul(0x1p112f);
            IntVector bits = INT_VECTOR.cast((IntVector) scaled.reinterpretShape(INTS, 0));
            VectorMask<Integer> top = magnitude.compare(VectorOperators.GE, 0x7c00);
            if (top.anyTrue()) {
                bits = bits.blend(shifted.or(0x7f800000), top)
                        .blend(shifted.or(0x7fc00000), magnitude.compare(VectorOperators.GT, 0x7c00));
            }
            FLOAT_VECTOR.cast((FloatVector) INT_VECTOR.cast(bits).or(h.and(0x80000000)).reinterpretShape(FLOATS, 0))
                    .intoArray(dst, at + k * LANES);
        }
    }

    /**
     * A partial last position that ends the segment, where a whole vector does not fit: element by element,
     * the rest of the position zeroed as the vector paths do. (A masked load of 16-bit lanes is no intrinsic
     * without AVX-512: its fallback returns a boxed vector, and merged with the whole loads' vectors it had
     * C2 box every vector of the loop.)
     */
    private static void segmentEnd(MemorySegment seg, DataType type, long first, int last, float[] dst, int at) {
        ElementCodec.decode(seg, type, first, 1, last, dst, at);
        java.util.Arrays.fill(dst, at + last, at + LANES, 0f);
    }

    /**
     * BF16 rounded to nearest even as {@link ElementCodec#floatToBf16}: add 0x7fff plus the lowest kept
     * bit, keep the top half; a position holding a NaN goes through the codec, as does a partial last position
     * below AVX-512 (no masked 16-bit store there).
     */
    static void roundBf16(float[] src, int at, int count, MemorySegment seg, long first, long stride, int last) {
        for (int k = 0; k < count; k++) {
            int n = k == count - 1 ? last : LANES;
            FloatVector v = FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, src, at + k * LANES));
            IntVector bits = INT_VECTOR.cast((IntVector) v.reinterpretShape(INTS, 0));
            if (n < LANES && !AVX512 || bits.and(0x7fffffff).compare(VectorOperators.GT, 0x7f800000).anyTrue()) {
                ElementCodec.encode(src, at + k * LANES, n, seg, DataType.BF16, first + k * stride, 1);
                continue;
            }
            IntVector odd = bits.lanewise(VectorOperators.LSHR, 16).and(1);
            ShortVector h = SHORT_VECTOR.cast((ShortVector) bits.add(0x7fff).add(odd).lanewise(VectorOperators.LSHR, 16)
                    .convertShape(VectorOperators.I2S, HALFS, 0));
            if (n == LANES) {
                h.intoMemorySegment(seg, (first + k * stride) * 2, ORDER);
            } else {
                h.intoMemorySegment(seg, (first + k * stride) * 2, ORDER, HALFS.indexInRange(0, n));
            }
        }
    }

    /**
     * FP16 rounded to nearest even as {@link Float#floatToFloat16} (NaNs become the quiet NaN 0x7e00, sign
     * kept). A normal result: the exponent rebiased and the bits below the kept ten rounded by adding
     * 0xfff plus the lowest kept bit; a subnormal or zero: the float plus 0.5, whose ulp is the smallest
     * subnormal, rounds in the FPU. A position whose results are all normal skips the other cases' blends.
     * (The JDK's conversion loop is faster on long runs, but does not vectorize a position of 16 elements.)
     * Below AVX-512 a partial last position goes through the codec (no masked 16-bit store there).
     */
    static void roundFp16(float[] src, int at, int count, MemorySegment seg, long first, long stride, int last) {
        for (int k = 0; k < count; k++) {
            if (k == count - 1 && last < LANES && !AVX512) {
                ElementCodec.encode(src, at + k * LANES, last, seg, DataType.FLOAT16, first + k * stride, 1);
                continue;
            }
            FloatVector v = FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, src, at + k * LANES));
            IntVector bits = INT_VECTOR.cast((IntVector) v.reinterpretShape(INTS, 0));
            IntVector magnitude = bits.and(0x7fffffff);
            IntVector odd = magnitude.lanewise(VectorOperators.LSHR, 13).and(1);
            IntVector normal = magnitude.add(((15 - 127) << 23) + 0xfff).add(odd)
                    .lanewise(VectorOperators.LSHR, 13);
            IntVector half = normal;
            if (magnitude.sub(113 << 23).compare(VectorOperators.UGE, 30 << 23).anyTrue()) {
                FloatVector rounded = FLOAT_VECTOR.cast((FloatVector) magnitude.reinterpretShape(FLOATS, 0)).add(0.5f);
                IntVector small = INT_VECTOR.cast((IntVector) rounded.reinterpretShape(INTS, 0))
                        .sub(Float.floatToRawIntBits(0.5f));
                half = normal.blend(small, magnitude.compare(VectorOperators.LT, 113 << 23))
                        .blend(0x7c00, magnitude.compare(VectorOperators.GE, (127 + 16) << 23))
                        .blend(0x7e00, magnitude.compare(VectorOperators.GT, 0x7f800000));
            }
            ShortVector h = SHORT_VECTOR.cast((ShortVector) INT_VECTOR.cast(half)
                    .or(bits.lanewise(VectorOperators.LSHR, 16).and(0x8000))
                    .convertShape(VectorOperators.I2S, HALFS, 0));
            if (k < count - 1 || last == LANES) {
                h.intoMemorySegment(seg, (first + k * stride) * 2, ORDER);
            } else {
                h.intoMemorySegment(seg, (first + k * stride) * 2, ORDER, HALFS.indexInRange(0, last));
            }
        }
    }

    /** FLOAT positions read as they are (the last one masked), for runs too short for a copy call. */
    static void loadFloats(MemorySegment seg, long first, long stride, int count, int last, float[] dst, int at) {
        for (int k = 0; k < count; k++) {
            long offset = (first + k * stride) * 4;
            boolean partial = k == count - 1 && last < LANES;
            FloatVector v = !partial || offset + FLOAT_BYTES <= seg.byteSize()
                    ? FloatVector.fromMemorySegment(FLOATS, seg, offset, ORDER)
                    : FloatVector.fromMemorySegment(FLOATS, seg, offset, ORDER, FLOATS.indexInRange(0, last));
            if (partial) {
                v = FLOAT_VECTOR.cast(FloatVector.zero(FLOATS)).blend(v, FLOATS.indexInRange(0, last));
            }
            FLOAT_VECTOR.cast(v).intoArray(dst, at + k * LANES);
        }
    }

    /** FLOAT positions written as they are (the last one masked). */
    static void storeFloats(float[] src, int at, int count, MemorySegment seg, long first, long stride, int last) {
        for (int k = 0; k < count; k++) {
            FloatVector v = FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, src, at + k * LANES));
            long offset = (first + k * stride) * 4;
            if (k < count - 1 || last == LANES) {
                v.intoMemorySegment(seg, offset, ORDER);
            } else {
                v.intoMemorySegment(seg, offset, ORDER, FLOATS.indexInRange(0, last));
            }
        }
    }

    /**
     * Rows of {@code count} floats, end to end in {@code src}, to rows {@code pitch} elements apart from element
     * {@code first}, a vector at a time, the tail's mask built once for all rows. Typed twice, floats and 16-bit
     * bits: over a generic species C2 did not intrinsify the loads.
     */
    static void storeFloatRows(float[] src, int count, int rows, MemorySegment seg, long first, long pitch) {
        int whole = count / LANES;
        VectorMask<Float> tail = FLOATS.indexInRange(0, count - whole * LANES);
        // A partial last vector goes as whole vectors that overlap within the row: the one ending at the row's end,
        // or two half-width ones; masked stores to a segment cost more.
        int half = FLOAT_HALVES.length();
        boolean halves = whole == 0 && count >= half && half >= 4;
        for (int l = 0; l < rows; l++) {
            long at = (first + l * pitch) * 4;
            int from = l * count;
            for (int k = 0; k < whole; k++) {
                FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, src, from + k * LANES))
                        .intoMemorySegment(seg, at + k * LANES * 4L, ORDER);
            }
            if (whole * LANES == count) {
                continue;
            }
            if (whole > 0) {
                FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, src, from + count - LANES))
                        .intoMemorySegment(seg, at + (count - LANES) * 4L, ORDER);
            } else if (halves) {
                FLOAT_HALF.cast(FloatVector.fromArray(FLOAT_HALVES, src, from)).intoMemorySegment(seg, at, ORDER);
                FLOAT_HALF.cast(FloatVector.fromArray(FLOAT_HALVES, src, from + count - half))
                        .intoMemorySegment(seg, at + (count - half) * 4L, ORDER);
            } else {
                FLOAT_VECTOR.cast(FloatVector.fromArray(FLOATS, src, from + whole * LANES))
                        .intoMemorySegment(seg, at + whole * LANES * 4L, ORDER, tail);
            }
        }
    }

    /** As {@link #storeFloatRows} for 16-bit bits, rows end to end in {@code src}, {@code pitch} apart in memory. */
    static void storeHalfRows(short[] src, int count, int rows, MemorySegment seg, long first, long pitch) {
        int whole = count / LANES;
        VectorMask<Short> tail = HALFS.indexInRange(0, count - whole * LANES);
        int half = HALF_HALVES.length();
        boolean halves = whole == 0 && count >= half && half >= 8;
        for (int l = 0; l < rows; l++) {
            long at = (first + l * pitch) * 2;
            int from = l * count;
            for (int k = 0; k < whole; k++) {
                SHORT_VECTOR.cast(ShortVector.fromArray(HALFS, src, from + k * LANES))
                        .intoMemorySegment(seg, at + k * LANES * 2L, ORDER);
            }
            if (whole * LANES == count) {
                continue;
            }
            if (whole > 0) {
                SHORT_VECTOR.cast(ShortVector.fromArray(HALFS, src, from + count - LANES))
                        .intoMemorySegment(seg, at + (count - LANES) * 2L, ORDER);
            } else if (halves) {
                HALF_HALF.cast(ShortVector.fromArray(HALF_HALVES, src, from)).intoMemorySegment(seg, at, ORDER);
                HALF_HALF.cast(ShortVector.fromArray(HALF_HALVES, src, from + count - half))
                        .intoMemorySegment(seg, at + (count - half) * 2L, ORDER);
            } else if (AVX512) {
                SHORT_VECTOR.cast(ShortVector.fromArray(HALFS, src, from + whole * LANES))
                        .intoMemorySegment(seg, at + whole * LANES * 2L, ORDER, tail);
            } else {
                MemorySegment.copy(src, from + whole * LANES, seg, ValueLayout.JAVA_SHORT_UNALIGNED,
                        at + whole * LANES * 2L, count - whole * LANES);
            }
        }
    }
}
