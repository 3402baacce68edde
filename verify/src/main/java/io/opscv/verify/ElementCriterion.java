package io.opscv.verify;

import io.opscv.runtime.DataType;

/**
 * The per-element acceptance criterion of golden/README.md. With {@code e} the expected value,
 * {@code B} the bound (the operator applied to the absolute values of the input) and {@code got}
 * the result widened to float64:
 *
 * <pre>
 * |got − e| ≤ (terms + 2) · 2^-24 · B  +  2^-p · |e|  +  a
 * p = 24 (float32), 11 (float16), 8 (bfloat16);  a = 2^-24 for float16, 2^-126 otherwise
 * </pre>
 *
 * <p>The first term admits float32 accumulation in any order, the second the one rounding to the
 * output dtype, {@code a} its subnormal spacing. An expected NaN needs a NaN; an expected value
 * beyond the dtype's finite range needs the infinity of its sign.
 */
public final class ElementCriterion {
    private static final double TWO_POW_M24 = 0x1.0p-24;

    private ElementCriterion() {}

    /** p: 24 for float32, 11 for float16, 8 for bfloat16. */
    public static int precisionBits(DataType type) {
        return switch (type) {
            case FLOAT -> 24;
            case FLOAT16 -> 11;
            case BF16 -> 8;
            default -> throw new IllegalArgumentException("no criterion for " + type);
        };
    }

    /** The smallest magnitude that rounds to infinity in {@code type} (float16: 65520). */
    public static double overflowThreshold(DataType type) {
        return switch (type) {
            case FLOAT -> Math.scalb(2.0 - 0x1.0p-24, 127);
            case FLOAT16 -> 65520.0;
            case BF16 -> Math.scalb(2.0 - 0x1.0p-8, 127);
            default -> throw new IllegalArgumentException("no criterion for " + type);
        };
    }

    /** The absolute error allowed for an element with expected value {@code e} and bound {@code bound}. */
    public static double allowedError(double e, double bound, int terms, DataType type) {
        double a = type == DataType.FLOAT16 ? TWO_POW_M24 : 0x1.0p-126;
        return (terms + 2) * TWO_POW_M24 * bound + Math.scalb(1.0, -precisionBits(type)) * Math.abs(e) + a;
    }

    /**
     * How far {@code got} is from {@code e} as a fraction of the allowed error: ≤ 1 passes. The NaN and
     * overflow rules give 0 when met and +Inf when broken.
     */
    public static double errorRatio(double got, double e, double bound, int terms, DataType type) {
        if (Double.isNaN(e)) {
            return Double.isNaN(got) ? 0.0 : Double.POSITIVE_INFINITY;
        }
        if (Math.abs(e) >= overflowThreshold(type)) {
            return got == Math.copySign(Double.POSITIVE_INFINITY, e) ? 0.0 : Double.POSITIVE_INFINITY;
        }
        if (!Double.isFinite(got)) {
            return Double.POSITIVE_INFINITY;
        }
        return Math.abs(got - e) / allowedError(e, bound, terms, type);
    }
}
