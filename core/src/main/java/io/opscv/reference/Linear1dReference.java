package io.opscv.reference;

/**
 * Float64 reference of 1-D linear interpolation over the last axis of an (N, C, L) tensor and of its
 * gradient (SPEC §1, §10): {@code aclnnUpsampleLinear1d} and {@code aclnnUpsampleLinear1dBackward}.
 * For verification only: plain scalar loops over heap arrays, slow and obviously correct, sharing no
 * code with the kernels or the plans.
 *
 * <p>Tensors are row-major {@code double[]} of {@code rows = N · C} rows. NaN and ±Inf propagate as in
 * PyTorch ({@code aten::upsample_linear1d}, {@code aten::upsample_linear1d_backward}): every tap is
 * applied, including 0-weight ones (0 · Inf = NaN), except when {@code lin == lout}, where the result
 * is a copy (SPEC §1).
 */
public final class Linear1dReference {
    private Linear1dReference() {}

    /**
     * The forward: {@code y[r, j] = λ0(j) · x[r, x0(j)] + λ1(j) · x[r, x1(j)]}.
     *
     * @param self   (rows, lin), row-major
     * @param scales the forward multiplier (lout ≈ lin · scales); ≤ 0 means "not given"
     * @return (rows, lout)
     */
    public static double[] forward(double[] self, int rows, int lin, int lout, boolean alignCorners, double scales) {
        checkLength(self, rows, lin, "self");
        AxisTaps taps = AxisTaps.of(lin, lout, alignCorners, scales);
        double[] out = new double[elements(rows, lout)];
        for (int r = 0; r < rows; r++) {
            for (int j = 0; j < lout; j++) {
                double sum = 0.0;
                for (int k = 0; k < taps.tapCount(); k++) {
                    sum += taps.weight(j, k) * self[r * lin + taps.index(j, k)];
                }
                out[r * lout + j] = sum;
            }
        }
        return out;
    }

    /**
     * The backward (the adjoint of {@link #forward}): every {@code gradOut[r, j]} adds
     * {@code λ0(j) · g} to {@code gradInput[r, x0(j)]} and {@code λ1(j) · g} to {@code gradInput[r, x1(j)]}.
     *
     * @param gradOut (rows, lout), row-major
     * @return gradInput, (rows, lin)
     */
    public static double[] backward(double[] gradOut, int rows, int lin, int lout, boolean alignCorners, double scales) {
        checkLength(gradOut, rows, lout, "gradOut");
        AxisTaps taps = AxisTaps.of(lin, lout, alignCorners, scales);
        double[] gradInput = new double[elements(rows, lin)];
        for (int r = 0; r < rows; r++) {
            for (int j = 0; j < lout; j++) {
                double g = gradOut[r * lout + j];
                for (int k = 0; k < taps.tapCount(); k++) {
                    gradInput[r * lin + taps.index(j, k)] += taps.weight(j, k) * g;
                }
            }
        }
        return gradInput;
    }

    /** The most non-zero terms summed into one element of {@link #forward}'s result (at most 2). */
    public static int forwardTerms(int lin, int lout, boolean alignCorners, double scales) {
        return AxisTaps.of(lin, lout, alignCorners, scales).maxGatherTerms();
    }

    /** The most non-zero terms summed into one element of {@link #backward}'s result. */
    public static int backwardTerms(int lin, int lout, boolean alignCorners, double scales) {
        return AxisTaps.of(lin, lout, alignCorners, scales).maxScatterTerms();
    }

    static int elements(int rows, int length) {
        if (rows < 0) {
            throw new IllegalArgumentException("rows (" + rows + ") must be >= 0");
        }
        long count = (long) rows * length;
        if (count > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("the reference holds at most 2^31 - 9 elements in a Java array, but rows ("
                    + rows + ") * length (" + length + ") = " + count);
        }
        return (int) count;
    }

    static void checkLength(double[] values, int rows, int length, String name) {
        if (values.length != elements(rows, length)) {
            throw new IllegalArgumentException(name + " should hold rows (" + rows + ") * " + length + " = "
                    + ((long) rows * length) + " values, but holds " + values.length);
        }
    }
}
