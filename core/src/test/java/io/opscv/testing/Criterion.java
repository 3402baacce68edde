package io.opscv.testing;

import io.opscv.runtime.DataType;

/**
 * The per-element acceptance criterion of {@code golden/README.md}:
 * {@code |got − e| ≤ (terms + 2)·2^-24·B + 2^-p·|e| + a}; NaN must give NaN; an expected value
 * beyond the dtype's finite range must give the infinity of its sign.
 */
public final class Criterion {
    private Criterion() {}

    /** p: 24 for float32, 11 for float16, 8 for bfloat16. */
    public static int precisionBits(DataType type) {
        return switch (type) {
            case FLOAT -> 24;
            case FLOAT16 -> 11;
            case BF16 -> 8;
            default -> throw new IllegalArgumentException(type.toString());
        };
    }

    /** The smallest magnitude that rounds to infinity in {@code type}. */
    public static double overflowThreshold(DataType type) {
        return switch (type) {
            case FLOAT -> Math.scalb(2.0 - Math.scalb(1.0, -24), 127);
            case FLOAT16 -> 65520.0;
            case BF16 -> Math.scalb(2.0 - Math.scalb(1.0, -8), 127);
            default -> throw new IllegalArgumentException(type.toString());
        };
    }

    /** How far {@code got} is from {@code e}, as a fraction of the allowed error (≤ 1 passes); NaN/Inf rules give 0 or +Inf. */
    public static double errorRatio(double got, double e, double bound, int terms, DataType type) {
        if (Double.isNaN(e)) {
            return Double.isNaN(got) ? 0 : Double.POSITIVE_INFINITY;
        }
        if (Math.abs(e) >= overflowThreshold(type)) {
            return got == Math.copySign(Double.POSITIVE_INFINITY, e) ? 0 : Double.POSITIVE_INFINITY;
        }
        if (!Double.isFinite(got)) {
            return Double.POSITIVE_INFINITY;
        }
        double a = type == DataType.FLOAT16 ? Math.scalb(1.0, -24) : Math.scalb(1.0, -126);
        double allowed = (terms + 2) * Math.scalb(1.0, -24) * bound + Math.scalb(1.0, -precisionBits(type)) * Math.abs(e) + a;
        return Math.abs(got - e) / allowed;
    }

    /** Index of the first element failing the criterion, or -1. */
    public static int firstFailure(double[] got, double[] expected, double[] bound, int terms, DataType type) {
        for (int k = 0; k < expected.length; k++) {
            if (errorRatio(got[k], expected[k], bound[k], terms, type) > 1.0) {
                return k;
            }
        }
        return -1;
    }
}
