package io.opscv.reliability;

import io.opscv.kernel.ElementCodec;
import io.opscv.reference.Linear1dReference;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Format;
import io.opscv.runtime.Tensor;
import java.util.Arrays;

/**
 * The reference of a call whose input is too large to fill with values and to widen into a Java array (a view of
 * millions of elements over little memory, e.g. a broadcast): its memory then holds only the fuzz's sentinel bytes,
 * so the input is one constant c, and the float64 reference needs no array of the input. Per axis, the forward's
 * weights sum to 1 (out = c), and the backward's out at (h, w) is c·S_H(h)·S_W(w) with S the sums of the weights
 * landing on each input position, from the 1-D reference applied to ones (or from {@link HalfPixelModel} for the
 * sizes-only fallback).
 */
final class ConstantInput {
    private ConstantInput() {}

    /** The value every element of fresh fuzz memory holds in {@code type} (all bytes {@link FuzzArguments#SENTINEL}). */
    static double sentinel(DataType type) {
        short half = (short) ((FuzzArguments.SENTINEL & 0xFF) * 0x101);
        return switch (type) {
            case FLOAT -> Float.intBitsToFloat((FuzzArguments.SENTINEL & 0xFF) * 0x01010101);
            case FLOAT16 -> Float.float16ToFloat(half);
            case BF16 -> ElementCodec.bf16ToFloat(half);
            default -> throw new IllegalArgumentException("no float value for " + type);
        };
    }

    /** The forward of a constant input: {@code c} everywhere (bound |c|, at most 4 terms). */
    static String checkForward(Tensor out, DataType type) {
        double c = sentinel(type);
        double[] got = FuzzArguments.read(out);
        double[] expected = new double[got.length];
        Arrays.fill(expected, c);
        double[] bound = new double[got.length];
        Arrays.fill(bound, Math.abs(c));
        return FuzzHarness.firstMismatch(got, expected, bound, 4, type);
    }

    /**
     * The backward of a constant gradOut into {@code out} of (N, C, Hin, Win) in {@code layout}'s order ({@code hin}
     * = {@code hout} = 1 for the 1-D operator), with the weights' sums per axis given as {@code sumsH} and
     * {@code sumsW} (length Hin and Win) and the criterion's {@code terms}.
     */
    static String checkBackward(Tensor out, Format layout, double[] sumsH, double[] sumsW, int terms) {
        double c = sentinel(out.dataType());
        double[] got = TwoD.nchwValues(FuzzArguments.read(out), out.shape(), layout);
        int plane = sumsH.length * sumsW.length;
        double[] expected = new double[got.length];
        double[] bound = new double[got.length];
        for (int k = 0; k < got.length; k++) {
            int at = k % plane;
            double sum = sumsH[at / sumsW.length] * sumsW[at % sumsW.length];
            expected[k] = c * sum;
            bound[k] = Math.abs(c) * sum;
        }
        return FuzzHarness.firstMismatch(got, expected, bound, terms, out.dataType());
    }

    /** SPEC §1's weights landing on each of {@code lin} positions from {@code lout} outputs: the backward of ones. */
    static double[] weightSums(int lin, int lout, boolean alignCorners, double scales) {
        double[] ones = new double[lout];
        Arrays.fill(ones, 1.0);
        return Linear1dReference.backward(ones, 1, lin, lout, alignCorners, scales);
    }

    /** As {@link #weightSums}, for the sizes-only fallback (TensorFlow's taps). */
    static double[] sizesOnlyWeightSums(int lin, int lout, boolean alignCorners) {
        double[] ones = new double[lout];
        Arrays.fill(ones, 1.0);
        return HalfPixelModel.backward(ones, 1, 1, lin, 1, lout, alignCorners);
    }
}
