package io.opscv;

import io.opscv.op.UpsampleLinear1d;
import io.opscv.op.UpsampleLinear1dBackward;
import io.opscv.runtime.AclnnException;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import java.lang.foreign.MemorySegment;

/**
 * 1-D linear interpolation of (N, C, L) tensors and its gradient, in one call each:
 *
 * <pre>{@code
 * Upsample1d op = Upsample1d.linear(n, c, inputLength, outputLength).alignCorners(true);
 * float[] y  = op.forward(x);     // x: n·c·inputLength floats, NCL row-major
 * float[] gx = op.backward(gy);   // gy: n·c·outputLength floats
 * }</pre>
 *
 * <p>The forward is {@code aclnnUpsampleLinear1d}, the backward {@code aclnnUpsampleLinear1dBackward},
 * on the {@code cpu} platform: the calls go through the same checks, with the same messages, and
 * give the same bits as the two-phase API of {@link io.opscv.op}, on which this class is built.
 * PyTorch's {@code interpolate(mode="linear")} and its gradient are the numerical reference.
 *
 * <p>An instance is immutable and may be shared by any number of threads; the configuring methods
 * return new instances. Every call is synchronous: the result is complete when it returns. The
 * streams, the staging memory and the workspaces behind the calls are pooled in the process, one set
 * per concurrent caller, so reusing an instance, or calling from many threads, costs no stream and
 * no allocation per call.
 *
 * <p><b>Memory.</b> The {@code float[]} and {@code short[]} forms compute on the arrays themselves.
 * The {@link MemorySegment} forms take contiguous row-major segments of exactly the tensor's bytes,
 * heap or off-heap. A segment that other threads may access (from {@code Arena.global()},
 * {@code ofAuto()}, {@code ofShared()}, or a heap segment) is read and written in place by the
 * library's threads. A segment of a confined arena ({@code Arena.ofConfined()}) cannot be touched by
 * them: the calling thread copies it into pooled memory, the operator runs there, and the calling
 * thread copies the result back; the result is the same, at the cost of the two copies. A process
 * may mix arrays and off-heap segments: the kernels are compiled apart for off-heap memory,
 * {@code float[]} and {@code short[]}, so each kind keeps its speed.
 *
 * <p><b>Errors.</b> A null argument, an array or segment of the wrong length, a closed or read-only
 * segment, an output that overlaps the input, or a negative size throws
 * {@link IllegalArgumentException}. A shape, scale or dtype the operator refuses throws
 * {@link AclnnException} with the ACLNN status and the operator's message (for instance 161002 for
 * an input length of 0 or a {@code DOUBLE} dtype).
 */
public final class Upsample1d {
    private final long n;
    private final long c;
    private final long inputLength;
    private final long outputLength;
    private final boolean alignCorners;
    private final double scale;

    private Upsample1d(long n, long c, long inputLength, long outputLength, boolean alignCorners, double scale) {
        this.n = n;
        this.c = c;
        this.inputLength = inputLength;
        this.outputLength = outputLength;
        this.alignCorners = alignCorners;
        this.scale = scale;
    }

    /**
     * Linear interpolation from {@code inputLength} to {@code outputLength} positions along the last
     * axis of (N, C, L) tensors, with {@code alignCorners} false and the scale derived from the sizes.
     *
     * @param n            the batch size N
     * @param c            the channels C
     * @param inputLength  the forward input's length Lin
     * @param outputLength the forward output's length Lout
     * @return the operator
     * @throws IllegalArgumentException when a size is negative; the operator's own limits (sizes of 0,
     *                                  more than 2^20 positions, ...) are checked at the call
     */
    public static Upsample1d linear(long n, long c, long inputLength, long outputLength) {
        return new Upsample1d(Operands.size(n, "n"), Operands.size(c, "c"), Operands.size(inputLength, "inputLength"),
                Operands.size(outputLength, "outputLength"), false, 0.0);
    }

    /**
     * This operator with corners aligned or not, as PyTorch's {@code align_corners}.
     *
     * @param alignCorners true to align the centres of the corner pixels, false (the default) their outer edges
     * @return a new operator; this one is unchanged
     */
    public Upsample1d alignCorners(boolean alignCorners) {
        return new Upsample1d(n, c, inputLength, outputLength, alignCorners, scale);
    }

    /**
     * This operator with an explicit forward multiplier, as aclnn's {@code scales}: with corners not
     * aligned, the source step is {@code 1 / scale} instead of {@code inputLength / outputLength}.
     * The operator requires {@code outputLength == floor(inputLength · scale)} for a scale it uses.
     *
     * @param scale the multiplier Lout / Lin; 0 (the default) derives it from the sizes
     * @return a new operator; this one is unchanged
     */
    public Upsample1d scale(double scale) {
        return new Upsample1d(n, c, inputLength, outputLength, alignCorners, scale);
    }

    /**
     * The forward interpolation of FLOAT values.
     *
     * @param x the input, {@code n·c·inputLength} floats, (N, C, Lin) row-major
     * @return the output, {@code n·c·outputLength} floats, (N, C, Lout) row-major
     * @throws IllegalArgumentException when {@code x} has the wrong length
     * @throws AclnnException           when the operator refuses the shape or the scale
     */
    public float[] forward(float[] x) {
        return forwardCall().floats(x);
    }

    /**
     * The forward interpolation of FLOAT values held in larger arrays.
     *
     * @param x        holds the input's {@code n·c·inputLength} floats from {@code xOffset}
     * @param xOffset  the index of the input's first element in {@code x}
     * @param y        receives the output's {@code n·c·outputLength} floats from {@code yOffset}
     * @param yOffset  the index of the output's first element in {@code y}
     * @throws IllegalArgumentException when a range does not fit its array, or the two overlap
     * @throws AclnnException           when the operator refuses the shape or the scale
     */
    public void forward(float[] x, int xOffset, float[] y, int yOffset) {
        forwardCall().floats(x, xOffset, y, yOffset);
    }

    /**
     * The forward interpolation of FLOAT16 or BF16 values, as their 16-bit patterns.
     *
     * @param x     the input's {@code n·c·inputLength} bit patterns
     * @param dtype {@link DataType#FLOAT16} or {@link DataType#BF16}
     * @return the output's {@code n·c·outputLength} bit patterns
     * @throws IllegalArgumentException when {@code x} has the wrong length or the dtype is not a 16-bit float
     * @throws AclnnException           when the operator refuses the shape or the scale
     */
    public short[] forward(short[] x, DataType dtype) {
        return forwardCall().bits(x, dtype);
    }

    /**
     * The forward interpolation between segments (see the class comment for how confined segments run).
     *
     * @param x     the input, contiguous (N, C, Lin) of {@code dtype}: exactly {@code n·c·inputLength} elements
     * @param y     receives the output, contiguous (N, C, Lout): exactly {@code n·c·outputLength} elements
     * @param dtype {@link DataType#FLOAT}, {@link DataType#FLOAT16} or {@link DataType#BF16}
     * @throws IllegalArgumentException when a segment has the wrong size, is closed or not accessible, or they overlap
     * @throws AclnnException           when the operator refuses the shape, the scale or the dtype
     */
    public void forward(MemorySegment x, MemorySegment y, DataType dtype) {
        forwardCall().segments(x, y, dtype);
    }

    /**
     * The gradient with respect to the forward input, of FLOAT values.
     *
     * @param gradOut the gradient of the forward output, {@code n·c·outputLength} floats, (N, C, Lout) row-major
     * @return the gradient of the forward input, {@code n·c·inputLength} floats, (N, C, Lin) row-major
     * @throws IllegalArgumentException when {@code gradOut} has the wrong length
     * @throws AclnnException           when the operator refuses the shape or the scale
     */
    public float[] backward(float[] gradOut) {
        return backwardCall().floats(gradOut);
    }

    /**
     * The gradient of FLOAT values held in larger arrays.
     *
     * @param gradOut         holds the {@code n·c·outputLength} floats of the output's gradient from {@code gradOutOffset}
     * @param gradOutOffset   the index of its first element
     * @param gradInput       receives the {@code n·c·inputLength} floats of the input's gradient from {@code gradInputOffset}
     * @param gradInputOffset the index of its first element
     * @throws IllegalArgumentException when a range does not fit its array, or the two overlap
     * @throws AclnnException           when the operator refuses the shape or the scale
     */
    public void backward(float[] gradOut, int gradOutOffset, float[] gradInput, int gradInputOffset) {
        backwardCall().floats(gradOut, gradOutOffset, gradInput, gradInputOffset);
    }

    /**
     * The gradient of FLOAT16 or BF16 values, as their 16-bit patterns.
     *
     * @param gradOut the output gradient's {@code n·c·outputLength} bit patterns
     * @param dtype   {@link DataType#FLOAT16} or {@link DataType#BF16}
     * @return the input gradient's {@code n·c·inputLength} bit patterns
     * @throws IllegalArgumentException when {@code gradOut} has the wrong length or the dtype is not a 16-bit float
     * @throws AclnnException           when the operator refuses the shape or the scale
     */
    public short[] backward(short[] gradOut, DataType dtype) {
        return backwardCall().bits(gradOut, dtype);
    }

    /**
     * The gradient between segments (see the class comment for how confined segments run).
     *
     * @param gradOut   contiguous (N, C, Lout) of {@code dtype}: exactly {@code n·c·outputLength} elements
     * @param gradInput receives the gradient, contiguous (N, C, Lin): exactly {@code n·c·inputLength} elements
     * @param dtype     {@link DataType#FLOAT}, {@link DataType#FLOAT16} or {@link DataType#BF16}
     * @throws IllegalArgumentException when a segment has the wrong size, is closed or not accessible, or they overlap
     * @throws AclnnException           when the operator refuses the shape, the scale or the dtype
     */
    public void backward(MemorySegment gradOut, MemorySegment gradInput, DataType dtype) {
        backwardCall().segments(gradOut, gradInput, dtype);
    }

    /** @return the shape and parameters, e.g. {@code Upsample1d.linear(2, 3, 8, 16).alignCorners(true)} */
    @Override
    public String toString() {
        return "Upsample1d.linear(" + n + ", " + c + ", " + inputLength + ", " + outputLength + ").alignCorners("
                + alignCorners + ").scale(" + scale + ")";
    }

    private String shape(long length) {
        return "(N, C, L) = (" + n + ", " + c + ", " + length + ")";
    }

    private Call forwardCall() {
        long[] in = {n, c, inputLength};
        long[] out = {n, c, outputLength};
        return new Call(in, out, Format.ND, "x", "y", shape(inputLength), shape(outputLength),
                (x, y) -> {
                    try (IntArray outputSize = IntArray.of(outputLength)) {
                        return UpsampleLinear1d.getWorkspaceSize(x, outputSize, alignCorners, scale, y);
                    }
                },
                UpsampleLinear1d::run);
    }

    private Call backwardCall() {
        long[] in = {n, c, outputLength};
        long[] out = {n, c, inputLength};
        return new Call(in, out, Format.ND, "gradOut", "gradInput", shape(outputLength), shape(inputLength),
                (gradOut, gradInput) -> {
                    try (IntArray outputSize = IntArray.of(outputLength); IntArray inputSize = IntArray.of(out)) {
                        return UpsampleLinear1dBackward.getWorkspaceSize(gradOut, outputSize, inputSize, alignCorners,
                                scale, gradInput);
                    }
                },
                UpsampleLinear1dBackward::run);
    }
}
