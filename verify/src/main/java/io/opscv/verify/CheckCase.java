package io.opscv.verify;

import io.opscv.runtime.DataType;
import io.opscv.runtime.Format;
import io.opscv.runtime.Platform;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * One case to check: an operator call (op, shapes, alignCorners, scales, dtype, platform), where its
 * input comes from, and what to judge it against. Sizes are the forward's: {@code inSizes} are the
 * spatial lengths of the forward's input ({L_in} or {H_in, W_in}), {@code outSizes} those of its
 * output; a backward op reads gradOut of the output's shape and writes the input's shape.
 *
 * @param name         unique within a case file
 * @param op           the op's case-file name, e.g. {@code upsample_linear1d_backward}
 * @param n            N
 * @param c            C
 * @param inSizes      the forward input's spatial lengths
 * @param outSizes     the forward output's spatial lengths (outputSize)
 * @param alignCorners the alignCorners argument
 * @param scales       the scales argument per spatial axis (0 = not given)
 * @param dataType     FLOAT, FLOAT16 or BF16: the operator's input and output dtype
 * @param format       the tensors' format, or {@code null} for the op's default ({@link #layout()}): for a 2-D
 *                     op, {@link Format#NHWC} puts C last in the tensors, the files and the drawn values
 * @param platform     the platform to run on, or {@code null} for the command's default
 * @param input        where the operator's input comes from
 * @param expected     a float64 .npy of expected values, or {@code null}: the float64 reference is the golden
 * @param bound        a float64 .npy of the op applied to |input|, or {@code null}: computed by the reference
 * @param terms        the criterion's terms, or {@code null}: counted by the reference
 * @param actual       a .npy result produced elsewhere to judge instead of running the operator, or {@code null}
 * @param expectStatus the ACLNN status phase 1 must fail with (e.g. 161002), or {@code null}: it must succeed
 * @param standard     which standard decides the verdict
 * @param origin       the sweep that generated the case, or {@code null} for an explicit case
 */
public record CheckCase(String name, String op, int n, int c, int[] inSizes, int[] outSizes, boolean alignCorners,
                        double[] scales, DataType dataType, Format format, Platform platform, InputSource input, Path expected, Path bound,
                        Integer terms, Path actual, Integer expectStatus, Standard standard, String origin) {

    /**
     * The format the harness gives the tensors: the case's {@code format}, else ND (read as NCL) for a
     * 1-D op and NCHW for a 2-D op.
     */
    public Format layout() {
        if (format != null) {
            return format;
        }
        return inSizes.length == 1 ? Format.ND : Format.NCHW;
    }

    /** Whether the tensors are NHWC: C is then the last dimension of every shape, file and value order. */
    public boolean channelsLast() {
        return layout() == Format.NHWC;
    }

    /** (N, C, inSizes...), or (N, inSizes..., C) when channels last: the forward's input, the backward's out. */
    public long[] forwardInputShape() {
        return shape(inSizes);
    }

    /** (N, C, outSizes...), or (N, outSizes..., C) when channels last: the forward's output, the backward's gradOut. */
    public long[] forwardOutputShape() {
        return shape(outSizes);
    }

    /** Elements per (n, c) row or plane of the forward's input. */
    public int inPlane() {
        return product(inSizes);
    }

    /** Elements per (n, c) row or plane of the forward's output. */
    public int outPlane() {
        return product(outSizes);
    }

    /** outSizes / inSizes, multiplied over the axes: the size ratio of the report's chart. */
    public double sizeRatio() {
        return (double) outPlane() / inPlane();
    }

    /** The same case on another platform. */
    public CheckCase onPlatform(Platform other) {
        return new CheckCase(name, op, n, c, inSizes, outSizes, alignCorners, scales, dataType, format, other, input, expected, bound,
                terms, actual, expectStatus, standard, origin);
    }

    /** The same case with another {@code format} (e.g. NHWC). */
    public CheckCase withFormat(Format other) {
        return new CheckCase(name, op, n, c, inSizes, outSizes, alignCorners, scales, dataType, other, platform, input, expected,
                bound, terms, actual, expectStatus, standard, origin);
    }

    /** One line with every parameter, e.g. for reproducing a generated case. */
    public String describe() {
        return name + ": " + op + " n=" + n + " c=" + c + " in=" + Arrays.toString(inSizes) + " out=" + Arrays.toString(outSizes)
                + " alignCorners=" + alignCorners + " scales=" + Arrays.toString(scales) + " dtype=" + CaseFiles.dtypeName(dataType)
                + (format != null ? " format=" + CaseFiles.formatName(format) : "")
                + (platform != null ? " platform=" + platform.cliName() : "") + " input=" + input.describe()
                + (expectStatus != null ? " expect_status=" + expectStatus : "");
    }

    private long[] shape(int[] spatial) {
        long[] shape = new long[2 + spatial.length];
        boolean last = channelsLast();
        shape[0] = n;
        shape[last ? shape.length - 1 : 1] = c;
        for (int d = 0; d < spatial.length; d++) {
            shape[(last ? 1 : 2) + d] = spatial[d];
        }
        return shape;
    }

    private static int product(int[] sizes) {
        long p = 1;
        for (int s : sizes) {
            p *= s;
        }
        return Math.toIntExact(p);
    }
}
