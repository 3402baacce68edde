package io.opscv.verify;

/**
 * How a case's input values are drawn (case files: {@code "values"}): a distribution, and the
 * fractions of elements replaced by NaN and by ±Inf (sign at random).
 *
 * @param kind        {@code ones}, {@code constant}, {@code normal} or {@code uniform}
 * @param a           constant: the value; normal: the mean; uniform: the lower end
 * @param b           normal: the standard deviation; uniform: the upper end; else unused (0)
 * @param nanFraction probability that an element is NaN, in [0, 1]
 * @param infFraction probability that an element is ±Inf, in [0, 1 − nanFraction]
 */
public record ValueSpec(Kind kind, double a, double b, double nanFraction, double infFraction) {
    /** The distributions. {@link #ONES} is the upstream system tests' all-ones gradOut. */
    public enum Kind {
        ONES, CONSTANT, NORMAL, UNIFORM
    }

    /** All ones, as the upstream system tests feed. */
    public static final ValueSpec ONES = new ValueSpec(Kind.ONES, 1.0, 0.0, 0.0, 0.0);

    /** The standard normal distribution. */
    public static final ValueSpec STANDARD_NORMAL = new ValueSpec(Kind.NORMAL, 0.0, 1.0, 0.0, 0.0);

    public ValueSpec {
        if (!(nanFraction >= 0 && infFraction >= 0 && nanFraction + infFraction <= 1)) {
            throw new IllegalArgumentException("nan_fraction (" + nanFraction + ") and inf_fraction (" + infFraction
                    + ") must be >= 0 with a sum <= 1");
        }
        if (kind == Kind.NORMAL && !(b >= 0)) {
            throw new IllegalArgumentException("std must be >= 0, but got " + b);
        }
        if (kind == Kind.UNIFORM && !(a <= b)) {
            throw new IllegalArgumentException("uniform min (" + a + ") must be <= max (" + b + ")");
        }
    }

    /** Draws {@code count} values (before rounding to the case's dtype) from the stream seeded by {@code seed}. */
    public double[] draw(long seed, int count) {
        SplitMix64 random = new SplitMix64(seed);
        double[] values = new double[count];
        boolean nonFinite = nanFraction > 0 || infFraction > 0;
        for (int k = 0; k < count; k++) {
            values[k] = switch (kind) {
                case ONES -> 1.0;
                case CONSTANT -> a;
                case NORMAL -> a + b * random.nextGaussian();
                case UNIFORM -> a + (b - a) * random.nextDouble();
            };
            if (nonFinite) {
                double u = random.nextDouble();
                if (u < nanFraction) {
                    values[k] = Double.NaN;
                } else if (u < nanFraction + infFraction) {
                    values[k] = random.nextDouble() < 0.5 ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
                }
            }
        }
        return values;
    }

    /** A short description for tables, e.g. {@code normal(0, 1)}, {@code ones}, {@code normal(0, 1) nan 0.01}. */
    public String describe() {
        String base = switch (kind) {
            case ONES -> "ones";
            case CONSTANT -> "constant(" + number(a) + ")";
            case NORMAL -> "normal(" + number(a) + ", " + number(b) + ")";
            case UNIFORM -> "uniform(" + number(a) + ", " + number(b) + ")";
        };
        return base + (nanFraction > 0 ? " nan " + number(nanFraction) : "") + (infFraction > 0 ? " inf " + number(infFraction) : "");
    }

    private static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
