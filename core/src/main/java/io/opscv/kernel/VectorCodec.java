package io.opscv.kernel;

import io.opscv.runtime.DataType;
import java.lang.foreign.MemorySegment;
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
            ShortVector raw = ShortVector.fromMemorySegment(HALFS, seg, at16, ORDER);
            if (partial) {
                raw = raw.blend((short) 0, HALFS.indexInRange(0, last).not());
            }
            IntVector x = (IntVector) raw.convertShape(VectorOperators.ZERO_EXTEND_S2I, INTS, 0);
            ((FloatVector) x.lanewise(VectorOperators.LSHL, 16).reinterpretShape(FLOATS, 0))
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
            ShortVector raw = ShortVector.fromMemorySegment(HALFS, seg, at16, ORDER);
            if (partial) {
                raw = raw.blend((short) 0, HALFS.indexInRange(0, last).not());
            }
            IntVector h = (IntVector) raw.convertShape(VectorOperators.S2I, INTS, 0);
            IntVector magnitude = h.and(0x7fff);
            IntVector shifted = magnitude.lanewise(VectorOperators.LSHL, 13);
            IntVector bits = (IntVector) ((FloatVector) shifted.reinterpretShape(FLOATS, 0)).mul(0x1p112f)
                    .reinterpretShape(INTS, 0);
            VectorMask<Integer> top = magnitude.compare(VectorOperators.GE, 0x7c00);
            if (top.anyTrue()) {
                bits = bits.blend(shifted.or(0x7f800000), top)
                        .blend(shifted.or(0x7fc00000), magnitude.compare(VectorOperators.GT, 0x7c00));
            }
            ((FloatVector) bits.or(h.and(0x80000000)).reinterpretShape(FLOATS, 0)).intoArray(dst, at + k * LANES);
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
            IntVector bits = (IntVector) FloatVector.fromArray(FLOATS, src, at + k * LANES).reinterpretShape(INTS, 0);
            if (n < LANES && !AVX512 || bits.and(0x7fffffff).compare(VectorOperators.GT, 0x7f800000).anyTrue()) {
                ElementCodec.encode(src, at + k * LANES, n, seg, DataType.BF16, first + k * stride, 1);
                continue;
            }
            IntVector odd = bits.lanewise(VectorOperators.LSHR, 16).and(1);
            ShortVector h = (ShortVector) bits.add(0x7fff).add(odd).lanewise(VectorOperators.LSHR, 16)
                    .convertShape(VectorOperators.I2S, HALFS, 0);
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
            IntVector bits = (IntVector) FloatVector.fromArray(FLOATS, src, at + k * LANES).reinterpretShape(INTS, 0);
            IntVector magnitude = bits.and(0x7fffffff);
            IntVector odd = magnitude.lanewise(VectorOperators.LSHR, 13).and(1);
            IntVector normal = magnitude.add(((15 - 127) << 23) + 0xfff).add(odd)
                    .lanewise(VectorOperators.LSHR, 13);
            IntVector half = normal;
            if (magnitude.sub(113 << 23).compare(VectorOperators.UGE, 30 << 23).anyTrue()) {
                IntVector small = ((IntVector) ((FloatVector) magnitude.reinterpretShape(FLOATS, 0)).add(0.5f)
                        .reinterpretShape(INTS, 0))
                        .sub(Float.floatToRawIntBits(0.5f));
                half = normal.blend(small, magnitude.compare(VectorOperators.LT, 113 << 23))
                        .blend(0x7c00, magnitude.compare(VectorOperators.GE, (127 + 16) << 23))
                        .blend(0x7e00, magnitude.compare(VectorOperators.GT, 0x7f800000));
            }
            ShortVector h = (ShortVector) half.or(bits.lanewise(VectorOperators.LSHR, 16).and(0x8000))
                    .convertShape(VectorOperators.I2S, HALFS, 0);
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
                v = v.blend(0f, FLOATS.indexInRange(0, last).not());
            }
            v.intoArray(dst, at + k * LANES);
        }
    }

    /** FLOAT positions written as they are (the last one masked). */
    static void storeFloats(float[] src, int at, int count, MemorySegment seg, long first, long stride, int last) {
        for (int k = 0; k < count; k++) {
            FloatVector v = FloatVector.fromArray(FLOATS, src, at + k * LANES);
            long offset = (first + k * stride) * 4;
            if (k < count - 1 || last == LANES) {
                v.intoMemorySegment(seg, offset, ORDER);
            } else {
                v.intoMemorySegment(seg, offset, ORDER, FLOATS.indexInRange(0, last));
            }
        }
    }
}
