package io.opscv;

import io.opscv.op.UpsampleBilinear2d;
import io.opscv.op.UpsampleBilinear2dBackwardV2;
import io.opscv.runtime.AclnnException;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import java.lang.foreign.MemorySegment;

/**
 * Bilinear interpolation of (N, C, H, W) tensors, or (N, H, W, C) ones, and its gradient, in one call each:
 *
 * <pre>{@code
 * Upsample2d op = Upsample2d.bilinear(n, c, h, w, outH, outW);   // NCHW; .channelsLast() for NHWC
 * float[] y  = op.forward(x);     // x: n·c·h·w floats
 * float[] gx = op.backward(gy);   // gy: n·c·outH·outW floats
 * }</pre>
 *
 * <p>The forward is {@code aclnnUpsampleBilinear2d}, the backward
 * {@code aclnnUpsampleBilinear2dBackwardV2}, on the {@code cpu} platform, through the two-phase API
 * of {@link io.opscv.op}; PyTorch's {@code interpolate(mode="bilinear")} is the numerical reference.
 * Instances are immutable and thread-safe, calls synchronous, streams and memory pooled, arrays and
 * segments handled, and errors reported as {@link Upsample1d} describes.
 */
public final class Upsample2d {
    private final long n;
    private final long c;
    private final long h;
    private final long w;
    private final long outH;
    private final long outW;
    private final boolean channelsLast;
    private final boolean alignCorners;
    private final double scalesH;
    private final double scalesW;

    private Upsample2d(long n, long c, long h, long w, long outH, long outW, boolean channelsLast, boolean alignCorners,
                       double scalesH, double scalesW) {
        this.n = n;
        this.c = c;
        this.h = h;
        this.w = w;
        this.outH = outH;
        this.outW = outW;
        this.channelsLast = channelsLast;
        this.alignCorners = alignCorners;
        this.scalesH = scalesH;
        this.scalesW = scalesW;
    }

    /**
     * Bilinear interpolation from (h, w) to (outH, outW) of NCHW tensors, with {@code alignCorners}
     * false and the scales derived from the sizes.
     *
     * @param n    the batch size N
     * @param c    the channels C
     * @param h    the forward input's height
     * @param w    the forward input's width
     * @param outH the forward output's height
     * @param outW the forward output's width
     * @return the operator
     * @throws IllegalArgumentException when a size is negative; the operator's own limits are checked at the call
     */
    public static Upsample2d bilinear(long n, long c, long h, long w, long outH, long outW) {
        return new Upsample2d(Operands.size(n, "n"), Operands.size(c, "c"), Operands.size(h, "h"), Operands.size(w, "w"),
                Operands.size(outH, "outH"), Operands.size(outW, "outW"), false, false, 0.0, 0.0);
    }

    /**
     * This operator on channels-last tensors: (N, H, W, C) row-major, NHWC.
     *
     * @return a new operator; this one is unchanged
     */
    public Upsample2d channelsLast() {
        return new Upsample2d(n, c, h, w, outH, outW, true, alignCorners, scalesH, scalesW);
    }

    /**
     * This operator with corners aligned or not, as PyTorch's {@code align_corners}.
     *
     * @param alignCorners true to align the centres of the corner pixels, false (the default) their outer edges
     * @return a new operator; this one is unchanged
     */
    public Upsample2d alignCorners(boolean alignCorners) {
        return new Upsample2d(n, c, h, w, outH, outW, channelsLast, alignCorners, scalesH, scalesW);
    }

    /**
     * This operator with explicit forward multipliers, as aclnn's {@code scalesH} and {@code scalesW}.
     * The backward requires {@code outH == floor(h · scalesH)} (and the same along W) for a scale it uses.
     *
     * @param scalesH the multiplier along H; 0 (the default) derives it from the sizes
     * @param scalesW the multiplier along W; 0 (the default) derives it from the sizes
     * @return a new operator; this one is unchanged
     */
    public Upsample2d scales(double scalesH, double scalesW) {
        return new Upsample2d(n, c, h, w, outH, outW, channelsLast, alignCorners, scalesH, scalesW);
    }

    /**
     * The forward interpolation of FLOAT values.
     *
     * @param x the input, {@code n·c·h·w} floats in this operator's layout
     * @return the output, {@code n·c·outH·outW} floats in the same layout
     * @throws IllegalArgumentException when {@code x} has the wrong length
     * @throws AclnnException           when the operator refuses the shape or the scales
     */
    public float[] forward(float[] x) {
        return forwardCall().floats(x);
    }

    /**
     * The forward interpolation of FLOAT values held in larger arrays.
     *
     * @param x       holds the input's {@code n·c·h·w} floats from {@code xOffset}
     * @param xOffset the index of the input's first element in {@code x}
     * @param y       receives the output's {@code n·c·outH·outW} floats from {@code yOffset}
     * @param yOffset the index of the output's first element in {@code y}
     * @throws IllegalArgumentException when a range does not fit its array, or the two overlap
     * @throws AclnnException           when the operator refuses the shape or the scales
     */
    public void forward(float[] x, int xOffset, float[] y, int yOffset) {
        forwardCall().floats(x, xOffset, y, yOffset);
    }

    /**
     * The forward interpolation of FLOAT16 or BF16 values, as their 16-bit patterns.
     *
     * @param x     the input's {@code n·c·h·w} bit patterns
     * @param dtype {@link DataType#FLOAT16} or {@link DataType#BF16}
     * @return the output's {@code n·c·outH·outW} bit patterns
     * @throws IllegalArgumentException when {@code x} has the wrong length or the dtype is not a 16-bit float
     * @throws AclnnException           when the operator refuses the shape or the scales
     */
    public short[] forward(short[] x, DataType dtype) {
        return forwardCall().bits(x, dtype);
    }

    /**
     * The forward interpolation between segments (see {@link Upsample1d} for how confined segments run).
     *
     * @param x     the input, contiguous in this operator's layout: exactly {@code n·c·h·w} elements of {@code dtype}
     * @param y     receives the output: exactly {@code n·c·outH·outW} elements
     * @param dtype {@link DataType#FLOAT}, {@link DataType#FLOAT16} or {@link DataType#BF16}
     * @throws IllegalArgumentException when a segment has the wrong size, is closed or not accessible, or they overlap
     * @throws AclnnException           when the operator refuses the shape, the scales or the dtype
     */
    public void forward(MemorySegment x, MemorySegment y, DataType dtype) {
        forwardCall().segments(x, y, dtype);
    }

    /**
     * The gradient with respect to the forward input, of FLOAT values.
     *
     * @param gradOut the gradient of the forward output, {@code n·c·outH·outW} floats in this operator's layout
     * @return the gradient of the forward input, {@code n·c·h·w} floats in the same layout
     * @throws IllegalArgumentException when {@code gradOut} has the wrong length
     * @throws AclnnException           when the operator refuses the shape or the scales
     */
    public float[] backward(float[] gradOut) {
        return backwardCall().floats(gradOut);
    }

    /**
     * The gradient of FLOAT values held in larger arrays.
     *
     * @param gradOut         holds the output gradient's {@code n·c·outH·outW} floats from {@code gradOutOffset}
     * @param gradOutOffset   the index of its first element
     * @param gradInput       receives the input gradient's {@code n·c·h·w} floats from {@code gradInputOffset}
     * @param gradInputOffset the index of its first element
     * @throws IllegalArgumentException when a range does not fit its array, or the two overlap
     * @throws AclnnException           when the operator refuses the shape or the scales
     */
    public void backward(float[] gradOut, int gradOutOffset, float[] gradInput, int gradInputOffset) {
        backwardCall().floats(gradOut, gradOutOffset, gradInput, gradInputOffset);
    }

    /**
     * The gradient of FLOAT16 or BF16 values, as their 16-bit patterns.
     *
     * @param gradOut the output gradient's {@code n·c·outH·outW} bit patterns
     * @param dtype   {@link DataType#FLOAT16} or {@link DataType#BF16}
     * @return the input gradient's {@code n·c·h·w} bit patterns
     * @throws IllegalArgumentException when {@code gradOut} has the wrong length or the dtype is not a 16-bit float
     * @throws AclnnException           when the operator refuses the shape or the scales
     */
    public short[] backward(short[] gradOut, DataType dtype) {
        return backwardCall().bits(gradOut, dtype);
    }

    /**
     * The gradient between segments (see {@link Upsample1d} for how confined segments run).
     *
     * @param gradOut   contiguous in this operator's layout: exactly {@code n·c·outH·outW} elements of {@code dtype}
     * @param gradInput receives the gradient: exactly {@code n·c·h·w} elements
     * @param dtype     {@link DataType#FLOAT}, {@link DataType#FLOAT16} or {@link DataType#BF16}
     * @throws IllegalArgumentException when a segment has the wrong size, is closed or not accessible, or they overlap
     * @throws AclnnException           when the operator refuses the shape, the scales or the dtype
     */
    public void backward(MemorySegment gradOut, MemorySegment gradInput, DataType dtype) {
        backwardCall().segments(gradOut, gradInput, dtype);
    }

    /** @return the shape and parameters, e.g. {@code Upsample2d.bilinear(1, 3, 8, 8, 16, 16).alignCorners(false)} */
    @Override
    public String toString() {
        return "Upsample2d.bilinear(" + n + ", " + c + ", " + h + ", " + w + ", " + outH + ", " + outW + ")"
                + (channelsLast ? ".channelsLast()" : "") + ".alignCorners(" + alignCorners + ").scales(" + scalesH
                + ", " + scalesW + ")";
    }

    /** The shape in this operator's layout: (N, C, H, W) or (N, H, W, C). */
    private long[] shape(long height, long width) {
        return channelsLast ? new long[] {n, height, width, c} : new long[] {n, c, height, width};
    }

    private String describe(long height, long width) {
        long[] s = shape(height, width);
        return (channelsLast ? "(N, H, W, C)" : "(N, C, H, W)") + " = (" + s[0] + ", " + s[1] + ", " + s[2] + ", " + s[3]
                + ")";
    }

    private Format format() {
        return channelsLast ? Format.NHWC : Format.NCHW;
    }

    private Call forwardCall() {
        return new Call(shape(h, w), shape(outH, outW), format(), "x", "y", describe(h, w), describe(outH, outW),
                (x, y) -> {
                    try (IntArray outputSize = IntArray.of(outH, outW)) {
                        return UpsampleBilinear2d.getWorkspaceSize(x, outputSize, alignCorners, scalesH, scalesW, y);
                    }
                },
                UpsampleBilinear2d::run);
    }

    private Call backwardCall() {
        long[] in = shape(h, w);
        return new Call(shape(outH, outW), in, format(), "gradOut", "gradInput", describe(outH, outW), describe(h, w),
                (gradOut, gradInput) -> {
                    try (IntArray outputSize = IntArray.of(outH, outW); IntArray inputSize = IntArray.of(in)) {
                        return UpsampleBilinear2dBackwardV2.getWorkspaceSize(gradOut, outputSize, inputSize,
                                alignCorners, scalesH, scalesW, gradInput);
                    }
                },
                UpsampleBilinear2dBackwardV2::run);
    }
}
