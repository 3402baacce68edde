package io.opscv.reliability;

import io.opscv.reliability.TensorRecipe.Defect;
import io.opscv.reliability.TensorRecipe.Layout;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Format;
import io.opscv.runtime.Tensor;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * What the operators' fuzz generators share: hostile values, a {@link TensorRecipe} being mutated, the
 * mutations of shapes and int arrays, and the oracle of the memory rule ({@code Checks.outputMemoryDisjoint}),
 * computed independently by listing elements and byte ranges.
 */
final class FuzzMutations {
    private FuzzMutations() {}

    /** Sizes and int-array values that break rules or arithmetic: 0, negatives, the limits and their neighbours, 2^63 - 1. */
    static final long[] HOSTILE_LONGS = {0, -1, -2, 1, 2, 3, Long.MIN_VALUE, Long.MAX_VALUE, Long.MAX_VALUE - 1,
        (1L << 20) - 1, 1L << 20, (1L << 20) + 1, (1L << 31) - 1, 1L << 31, 1L << 32, 1L << 40, 1L << 62, -(1L << 31)};

    /** Scales that break rules or arithmetic (issue 6: 0, negative, NaN, ±Inf, 1e-10, 500, 500.0000001, huge). */
    static final double[] HOSTILE_SCALES = {0.0, -0.0, -1.0, -0.5, Double.NaN, Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY, 1e-10, -1e-10, 1e-9, 500.0, 500.0000001, 499.99999, 1e300, Double.MIN_VALUE,
        Double.MAX_VALUE, 0.5, 2.0, 1.0, 3.0e-3};

    /** Layouts an input may have: all of them, also broadcasts and overlapping rows. */
    static final Layout[] INPUT_LAYOUTS = Layout.values();
    /** Layouts a well-formed output has (each element its own memory). */
    static final Layout[] OUTPUT_LAYOUTS = {Layout.CONTIGUOUS, Layout.TRANSPOSED, Layout.PADDED, Layout.REVERSED};

    /** A {@link TensorRecipe} being mutated. */
    static final class RecipeBuilder {
        long[] shape;
        DataType dtype;
        Format format;
        Layout layout;
        long offset;
        Defect defect = Defect.NONE;

        RecipeBuilder(long[] shape, DataType dtype, Format format, Layout layout, long offset) {
            this.shape = shape.clone();
            this.dtype = dtype;
            this.format = format;
            this.layout = layout;
            this.offset = offset;
        }

        /** Any defect but NONE. */
        void defect(SplittableRandom rnd) {
            Defect[] defects = Defect.values();
            defect = defects[1 + rnd.nextInt(defects.length - 1)];
        }

        TensorRecipe build(SplittableRandom rnd) {
            return new TensorRecipe(shape, dtype, format, layout, offset, defect, rnd.nextInt(1 << 16));
        }
    }

    /** A shape of random rank (0-5, now and then beyond {@link Tensor#MAX_DIM}) sharing its leading sizes with {@code like}. */
    static long[] randomShape(SplittableRandom rnd, long[] like) {
        int rank = rnd.nextInt(10) == 0 ? Tensor.MAX_DIM + 1 : rnd.nextInt(6);
        long[] shape = new long[rank];
        for (int d = 0; d < rank; d++) {
            shape[d] = d < like.length ? like[d] : 1 + rnd.nextInt(3);
        }
        return shape;
    }

    /** {@code values} cut or extended to one of {@code lengths}. */
    static long[] resized(SplittableRandom rnd, long[] values, int[] lengths) {
        long[] resized = Arrays.copyOf(values, lengths[rnd.nextInt(lengths.length)]);
        for (int k = values.length; k < resized.length; k++) {
            resized[k] = 1 + rnd.nextInt(4);
        }
        return resized;
    }

    /** {@code values} with one entry replaced by a hostile value or moved by one. */
    static long[] withHostileValue(SplittableRandom rnd, long[] values) {
        long[] changed = values.clone();
        if (changed.length > 0) {
            int k = rnd.nextInt(changed.length);
            changed[k] = rnd.nextBoolean() ? HOSTILE_LONGS[rnd.nextInt(HOSTILE_LONGS.length)] : changed[k] + rnd.nextInt(3) - 1;
        }
        return changed;
    }

    static long pick(SplittableRandom rnd, long... values) {
        return values[rnd.nextInt(values.length)];
    }

    static double hostileScales(SplittableRandom rnd) {
        return HOSTILE_SCALES[rnd.nextInt(HOSTILE_SCALES.length)];
    }

    /**
     * The memory rule, as {@code Checks.outputMemoryDisjoint} documents it: an out with memory that overlaps itself
     * (exactly, two elements at one storage index), then an out that shares bytes with the input in the same memory;
     * {@code null} when neither.
     */
    static Expectation memoryRule(Tensor out, TensorRecipe outRecipe, Tensor input, TensorRecipe inputRecipe, String inputName) {
        if (out.memory() != null && overlapsItself(out)) {
            return Expectation.invalid("memory: out overlaps itself", Expectation.word("out"));
        }
        if (out.memory() != null && input.memory() != null && input.memory() == out.memory()
                && sharesBytes(inputRecipe, outRecipe)) {
            return Expectation.invalid("memory: out shares memory with " + inputName,
                    Expectation.word("out") + ".*" + Expectation.word(inputName));
        }
        return null;
    }

    /** Exactly, by listing every element's storage index: whether two elements of the view are one. */
    static boolean overlapsItself(Tensor t) {
        Set<Long> seen = new HashSet<>();
        long[] index = new long[t.dim()];
        for (long k = 0; k < t.numel(); k++) {
            if (!seen.add(FuzzArguments.at(t, index))) {
                return true;
            }
            FuzzArguments.increment(index, t.shape());
        }
        return false;
    }

    /** Whether the byte ranges (first to last element) of two views in the same memory intersect. */
    static boolean sharesBytes(TensorRecipe a, TensorRecipe b) {
        BigInteger aFirst = BigInteger.valueOf(a.effectiveOffset() * a.dtype().byteSize());
        BigInteger aEnd = a.reach().add(BigInteger.ONE).multiply(BigInteger.valueOf(a.dtype().byteSize()));
        BigInteger bFirst = BigInteger.valueOf(b.effectiveOffset() * b.dtype().byteSize());
        BigInteger bEnd = b.reach().add(BigInteger.ONE).multiply(BigInteger.valueOf(b.dtype().byteSize()));
        return aFirst.compareTo(bEnd) < 0 && bFirst.compareTo(aEnd) < 0;
    }
}
