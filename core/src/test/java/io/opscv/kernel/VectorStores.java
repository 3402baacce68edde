package io.opscv.kernel;

/**
 * The generators' round-and-store statements, shared so that each dtype's rounding is written once: each stores
 * the FloatVector {@code s} at byte {@code %1$s} of the segment named here, rounded to nearest even as the codec
 * does, each call on a vector made through a cast to its exact class ({@link ExactVectors}) where C2 does not know it.
 */
final class VectorStores {
    private VectorStores() {}

    /** FLOAT: stored as it is. */
    static String floats(String segment) {
        return "FLOAT_VECTOR.cast(s).intoMemorySegment(" + segment + ", %1$s, ORDER);\n";
    }

    /** BF16 ({@link ElementCodec#floatToBf16}), a block of its own. */
    static String bf16(String segment) {
        return """
                {
                    // ElementCodec.floatToBf16: add 0x7fff plus the lowest kept bit, keep the top half; a NaN
                    // keeps its top half, quieted.
                    IntVector bits = INT_VECTOR.cast((IntVector) FLOAT_VECTOR.cast(s).reinterpretShape(INTS, 0));
                    IntVector top = bits.lanewise(VectorOperators.LSHR, 16);
                    IntVector half = bits.add(0x7fff).add(top.and(1)).lanewise(VectorOperators.LSHR, 16)
                            .blend(top.or(0x0040), bits.and(0x7fffffff).compare(VectorOperators.GT, 0x7f800000));
                    SHORT_VECTOR.cast((ShortVector) half.convertShape(VectorOperators.I2S, HALFS, 0))
                            .intoMemorySegment(SEGMENT, %1$s, ORDER);
                }
                """.replace("SEGMENT", segment);
    }
}
