package io.opscv.op;

import io.opscv.runtime.AclnnException;
import io.opscv.runtime.AclnnStatus;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Tensor;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The validation rules the operators share, each written once with its message (the upstream
 * texts where SPEC gives them). Every method throws {@link AclnnException} when its rule is broken
 * and returns normally otherwise.
 */
public final class Checks {
    /** SPEC §5: every dimension of gradOut and out is at most 2^20. */
    public static final long MAX_DIM_SIZE = 1L << 20;
    /** SPEC §5: N · C &lt; 2^31. */
    public static final long MAX_NC_EXCLUSIVE = 1L << 31;
    /** SPEC §5: (gradOut_L + out_L + out_L) · N · C · sizeof(dtype) &lt; 60 GiB. */
    public static final long MAX_MEMORY_BYTES_EXCLUSIVE = 60L << 30;
    /** SPEC §5: scales ≤ 500 and outputSize / inputSize ≤ 500. */
    public static final double MAX_SCALE = 500.0;
    /** SPEC §5: below this |scales| counts as "not given" for the floor rule. */
    public static final double SCALES_EPSILON = 1e-9;

    private Checks() {}

    /**
     * The platform a phase-1 call is asked to behave as is given (161001 otherwise).
     *
     * @param platform the product the call plans for
     */
    public static void platformGiven(Platform platform) {
        if (platform == null) {
            throw new AclnnException(AclnnStatus.ERR_PARAM_NULLPTR, "Expected a proper Platform but got null for argument platform.");
        }
    }

    /**
     * CheckNotNull: 161001 with upstream's text.
     *
     * @param argument the argument the caller passed
     * @param name the argument's name in the message (e.g. gradOut)
     */
    public static void notNull(Object argument, String name) {
        if (argument == null) {
            throw new AclnnException(AclnnStatus.ERR_PARAM_NULLPTR, "Expected a proper Tensor but got null for argument " + name + ".");
        }
    }

    /**
     * A destroyed tensor or freed memory is a dangling argument.
     *
     * @param tensor the tensor argument
     * @param name its name in the message
     */
    public static void usable(Tensor tensor, String name) {
        if (!tensor.isUsable()) {
            throw AclnnException.invalid("Tensor " + name + " was destroyed or its device memory freed: " + tensor + ".");
        }
    }

    /**
     * A destroyed int array is a dangling argument.
     *
     * @param array the int array argument (e.g. outputSize)
     * @param name its name in the message
     */
    public static void usable(IntArray array, String name) {
        if (!array.isUsable()) {
            throw AclnnException.invalid("IntArray " + name + " was destroyed (aclDestroyIntArray).");
        }
    }

    /**
     * CheckShape: {@code tensor} has {@code dims} dimensions.
     *
     * @param tensor the tensor argument
     * @param dims the number of dimensions the operator takes
     * @param name its name in the message
     */
    public static void dimension(Tensor tensor, int dims, String name) {
        if (tensor.dim() != dims) {
            throw AclnnException.invalid("Expected " + dims + " dimension input, but got " + name + " with sizes "
                    + Arrays.toString(tensor.shape()) + ".");
        }
    }

    /**
     * CheckShape: an int array has {@code size} elements.
     *
     * @param array the int array argument
     * @param size the number of elements it must have
     * @param name its name as upstream spells it in the message, e.g. output_size
     */
    public static void arraySize(IntArray array, int size, String name) {
        if (array.size() != size) {
            throw AclnnException.invalid("It is expected " + name + " equals to " + size + ", but got size " + array.size());
        }
    }

    /**
     * The platform runs the operator at all (SPEC §6).
     *
     * @param platform the product the call plans for
     */
    public static void platformSupported(Platform platform) {
        if (!platform.supported()) {
            throw AclnnException.invalid("the operator doesn't support " + platform.socName() + " npuArch");
        }
    }

    /**
     * CheckDtypeValid: {@code tensor}'s dtype is in {@code supported}.
     *
     * @param tensor the tensor argument
     * @param name its name in the message
     * @param supported the dtypes the operator takes on this platform
     */
    public static void dtypeIn(Tensor tensor, String name, List<DataType> supported) {
        if (!supported.contains(tensor.dataType())) {
            throw AclnnException.invalid("Tensor " + name + " not implemented for " + tensor.dataType().dtName()
                    + ", should be in dtype support list " + dtNames(supported) + ".");
        }
    }

    /**
     * CheckDtypeValid: {@code tensor}'s dtype equals {@code expected}.
     *
     * @param tensor the tensor argument
     * @param name its name in the message
     * @param expected the dtype it must have (usually another argument's)
     */
    public static void dtypeEquals(Tensor tensor, String name, DataType expected) {
        if (tensor.dataType() != expected) {
            throw AclnnException.invalid("Tensor " + name + " expected dtype is " + expected.dtName() + " but found "
                    + tensor.dataType().dtName() + ".");
        }
    }

    /**
     * SPEC §5: every dimension of {@code tensor} is at most {@code max} (the operators pass
     * {@link #MAX_DIM_SIZE}).
     *
     * @param tensor the tensor argument
     * @param name its name in the message
     * @param max the largest size a dimension may have
     */
    public static void dimensionsAtMost(Tensor tensor, String name, long max) {
        for (long d : tensor.shape()) {
            if (d > max) {
                throw AclnnException.invalid("Every dimension of " + name + " should be <= " + max + ", but got " + name
                        + " with sizes " + Arrays.toString(tensor.shape()) + ".");
            }
        }
    }

    /**
     * SPEC §5: N · C &lt; 2^31, computed without overflow.
     *
     * @param n the batch size N
     * @param c the channel count C
     */
    public static void batchBelowLimit(long n, long c) {
        long nc;
        try {
            nc = Math.multiplyExact(n, c);
        } catch (ArithmeticException e) {
            nc = Long.MAX_VALUE;
        }
        if (nc >= MAX_NC_EXCLUSIVE) {
            throw AclnnException.invalid("N * C should be < 2^31 (" + MAX_NC_EXCLUSIVE + "), but got N (" + n + ") * C (" + c
                    + ")" + (nc == Long.MAX_VALUE ? " beyond 2^63" : " = " + nc) + ".");
        }
    }

    /**
     * SPEC §5: the bytes an operator touches, {@code elementsPerRow · rows · sizeof(dtype)}, stay below 60 GiB;
     * products that overflow a long count as too large.
     *
     * @param elementsPerRow the elements per (n, c) row, summed over the tensors the rule counts
     * @param rows the number of rows, N · C
     * @param dtype the element type
     * @param formula the product written out for the message
     */
    public static void memoryBelowLimit(long elementsPerRow, long rows, DataType dtype, String formula) {
        long bytes;
        try {
            bytes = Math.multiplyExact(Math.multiplyExact(elementsPerRow, rows), (long) dtype.byteSize());
        } catch (ArithmeticException e) {
            bytes = Long.MAX_VALUE;
        }
        if (bytes >= MAX_MEMORY_BYTES_EXCLUSIVE) {
            throw AclnnException.invalid("The memory the operator needs, " + formula + " = "
                    + (bytes == Long.MAX_VALUE ? "more than 2^63" : Long.toString(bytes)) + " bytes, should be < 60 GiB ("
                    + MAX_MEMORY_BYTES_EXCLUSIVE + " bytes).");
        }
    }

    /**
     * scales is a number (NaN would silently mean "not given").
     *
     * @param scales the scale factor argument
     * @param name its name in the message
     */
    public static void scalesIsNumber(double scales, String name) {
        if (Double.isNaN(scales)) {
            throw AclnnException.invalid(name + " should be a number, but got NaN.");
        }
    }

    /**
     * SPEC §5: scales ≤ 500.
     *
     * @param scales the scale factor argument
     * @param name its name in the message
     */
    public static void scalesAtMost500(double scales, String name) {
        if (scales > MAX_SCALE) {
            throw AclnnException.invalid(name + " should be <= 500, but got " + scales + ".");
        }
    }

    /**
     * SPEC §5: outputSize / inputSize ≤ 500 (the backward's shrink ratio), in exact integer arithmetic.
     *
     * @param outputLength the output length along the axis
     * @param inputLength the input length along the axis
     * @param axis the axis's name in the message (e.g. H)
     */
    public static void ratioAtMost500(long outputLength, long inputLength, String axis) {
        boolean tooLarge;
        try {
            tooLarge = outputLength > Math.multiplyExact(500L, inputLength);
        } catch (ArithmeticException e) {
            // 500 · inputLength is beyond a long: no long outputLength exceeds it (or all do, if negative).
            tooLarge = inputLength < 0;
        }
        if (tooLarge) {
            throw AclnnException.invalid("The size ratio outputSize / inputSize along " + axis + " should be <= 500, but got "
                    + outputLength + " / " + inputLength + ".");
        }
    }

    /**
     * SPEC §5: when |scales| > 1e-9, outputLength == floor(inputLength · scales). {@code scales} is the
     * forward multiplier: 6 → 3 is 0.5, not 2.
     *
     * @param scales the forward's scale factor along the axis
     * @param inputLength the forward input's length along the axis
     * @param outputLength the forward output's length along the axis
     * @param scalesName the scale argument's name in the message
     * @param outputName the output length's name in the message
     * @param inputName the input length's name in the message
     */
    public static void scalesMatchSizes(double scales, long inputLength, long outputLength, String scalesName,
                                        String outputName, String inputName) {
        if (Math.abs(scales) > SCALES_EPSILON) {
            floorRule(scales, inputLength, outputLength, scalesName, outputName, inputName);
        }
    }

    /**
     * SPEC §10 (the forward): when {@code scales > 0}, outputLength == floor(inputLength · scales);
     * a zero or negative scales means "not given" and skips the rule.
     *
     * @param scales the scale factor along the axis
     * @param inputLength the input's length along the axis
     * @param outputLength the output's length along the axis
     * @param scalesName the scale argument's name in the message
     * @param outputName the output length's name in the message
     * @param inputName the input length's name in the message
     */
    public static void positiveScalesMatchSizes(double scales, long inputLength, long outputLength, String scalesName,
                                                String outputName, String inputName) {
        if (scales > 0) {
            floorRule(scales, inputLength, outputLength, scalesName, outputName, inputName);
        }
    }

    private static void floorRule(double scales, long inputLength, long outputLength, String scalesName, String outputName,
                                  String inputName) {
        double expected = Math.floor(inputLength * scales);
        if (expected != (double) outputLength) {
            throw AclnnException.invalid(outputName + " (" + outputLength + ") should equal floor(" + inputName + " ("
                    + inputLength + ") * " + scalesName + " (" + scales + ")) = " + formatFloor(expected)
                    + "; " + scalesName + " is the forward multiplier (output / input).");
        }
    }

    /**
     * aclnnUpsampleBilinear2d: scalesH and scalesW cannot be negative (upstream's CheckScalesValid).
     *
     * @param scalesH the scale factor along H
     * @param scalesW the scale factor along W
     */
    public static void scalesNotNegative(double scalesH, double scalesW) {
        if (scalesH < 0 || scalesW < 0) {
            throw AclnnException.invalid("scalesH and scalesW cannot be negative, but got scalesH (" + scalesH
                    + ") and scalesW (" + scalesW + ").");
        }
    }

    /**
     * A forward's input has data: every dimension but the batch is non-zero (PyTorch's and upstream's
     * "Non-empty 3D data tensor expected" rule).
     *
     * @param self the forward's input tensor
     */
    public static void nonEmptyData(Tensor self) {
        for (int d = 1; d < self.dim(); d++) {
            if (self.size(d) == 0) {
                throw AclnnException.invalid("Non-empty " + self.dim() + "D data tensor expected but got a tensor with sizes "
                        + Arrays.toString(self.shape()) + ".");
            }
        }
    }

    /**
     * The requested lengths are > 0.
     *
     * @param input the input lengths, one per axis; {@code null} when they come from a tensor already checked
     * @param output the output lengths, one per axis
     * @param axes the axes' names in the message (e.g. H, W)
     */
    public static void lengthsPositive(long[] input, long[] output, String... axes) {
        boolean ok = true;
        for (int k = 0; k < axes.length; k++) {
            ok &= output[k] > 0 && (input == null || input[k] > 0);
        }
        if (!ok) {
            throw AclnnException.invalid("Input and output sizes should greater than 0, but got "
                    + (input == null ? "" : "input " + axisList(input, axes) + ", ") + "output " + axisList(output, axes));
        }
    }

    /**
     * The batch and channel sizes requested are not negative.
     *
     * @param n the batch size N
     * @param c the channel count C
     * @param name the argument's name in the message (e.g. inputSize)
     */
    public static void batchAndChannelsNotNegative(long n, long c, String name) {
        if (n < 0 || c < 0) {
            throw AclnnException.invalid(name + " should not have negative sizes, but got N (" + n + ") and C (" + c + ").");
        }
    }

    /**
     * gradOut has the shape of the forward output, dimension by dimension (upstream's
     * CheckInputsElement text).
     *
     * @param gradOut the gradient of the forward output
     * @param fullOutputSize the forward output's shape, every dimension
     */
    public static void gradOutMatchesOutput(Tensor gradOut, long[] fullOutputSize) {
        for (int d = 0; d < fullOutputSize.length; d++) {
            if (gradOut.size(d) != fullOutputSize[d]) {
                throw AclnnException.invalid("Expected grad_output to have the same shape as output; output.size(" + d
                        + ") = " + fullOutputSize[d] + " but got grad_output.size(" + d + ") = " + gradOut.size(d));
            }
        }
    }

    /**
     * {@code out} has exactly the shape {@code expected}.
     *
     * @param out the output tensor
     * @param expected the shape it must have
     * @param expectedName what the shape comes from, for the message (e.g. inputSize)
     */
    public static void outShapeEquals(Tensor out, long[] expected, String expectedName) {
        if (!Arrays.equals(out.shape(), expected)) {
            throw AclnnException.invalid("Expected out to have the shape of " + expectedName + " " + Arrays.toString(expected)
                    + ", but got out " + Arrays.toString(out.shape()) + ".");
        }
    }

    /** The formats the 2-D operators read: NCHW and NHWC, with ND read as NCHW. */
    public static final List<Format> FORMATS_2D = List.of(Format.NCHW, Format.NHWC, Format.ND);

    /**
     * A 2-D operator's tensor is NCHW, NHWC or ND (read as NCHW).
     *
     * @param tensor the tensor argument
     * @param name its name in the message
     */
    public static void format2d(Tensor tensor, String name) {
        if (!FORMATS_2D.contains(tensor.format())) {
            throw AclnnException.invalid("Tensor " + name + " has format " + tensor.format().name()
                    + ", but should be in format support list [NCHW, NHWC] (ND is read as NCHW).");
        }
    }

    /**
     * Two tensors of a 2-D operator share one layout: both NHWC, or both NCHW / ND.
     *
     * @param a the first tensor
     * @param aName its name in the message
     * @param b the second tensor
     * @param bName its name in the message
     */
    public static void sameLayout(Tensor a, String aName, Tensor b, String bName) {
        if ((a.format() == Format.NHWC) != (b.format() == Format.NHWC)) {
            throw AclnnException.invalid("Format of " + aName + " and " + bName + " should be equal, but got " + aName + " ["
                    + a.format().name() + "] and " + bName + " [" + b.format().name() + "].");
        }
    }

    private static String axisList(long[] values, String[] axes) {
        StringBuilder sb = new StringBuilder("(");
        for (int k = 0; k < axes.length; k++) {
            sb.append(k == 0 ? "" : ", ").append(axes[k]).append(": ").append(values[k]);
        }
        return sb.append(')').toString();
    }

    /**
     * Memory safety (this project's rule; SPEC has none, upstream does not check): the elements of
     * {@code output} are written, so none of them may share memory with {@code input} or with
     * another element of {@code output}. A shared byte would make the result depend on the order
     * in which a kernel reads and writes (PyTorch refuses the same: "unsupported operation: some
     * elements of the input tensor and the written-to tensor refer to a single memory location").
     *
     * <ul>
     *   <li>{@code output} and {@code input} overlap when they lie in the same memory and the byte
     *       ranges their views span (first to last element) intersect; views that interleave
     *       without sharing an element are refused too: the range test is simple and certain.</li>
     *   <li>{@code output} overlaps itself unless, taking its dimensions of size > 1 in increasing
     *       order of stride, each stride is at least the span of the dimensions before it: true
     *       for every contiguous, transposed, sliced or padded view; false for a broadcast
     *       (stride 0) and for views whose rows overlap.</li>
     * </ul>
     * Empty tensors and placeholders (no memory) overlap nothing.
     *
     * @param output the tensor the operator writes
     * @param outputName its name in the message
     * @param input a tensor the operator reads
     * @param inputName its name in the message
     */
    public static void outputMemoryDisjoint(Tensor output, String outputName, Tensor input, String inputName) {
        if (output.isEmpty() || output.memory() == null) {
            return;
        }
        long[] shape = output.shape();
        long[] strides = output.strides();
        Integer[] order = new Integer[shape.length];
        for (int d = 0; d < order.length; d++) {
            order[d] = d;
        }
        Arrays.sort(order, (a, b) -> Long.compare(strides[a], strides[b]));
        long span = 1;
        for (int d : order) {
            if (shape[d] == 1) {
                continue;
            }
            if (strides[d] < span) {
                throw AclnnException.invalid("Tensor " + outputName + " overlaps itself (shape " + Arrays.toString(shape)
                        + ", strides " + Arrays.toString(strides) + "): ordered by stride, each dimension's stride must be at"
                        + " least the span of the dimensions before it, so that every element of " + outputName
                        + " has memory of its own.");
            }
            // Bounded by the view's extent, which creation checked to fit in its memory.
            span += strides[d] * (shape[d] - 1);
        }
        MemorySegment outBytes = output.spannedBytes();
        MemorySegment inBytes = input.spannedBytes();
        if (inBytes != null && outBytes.asOverlappingSlice(inBytes).isPresent()) {
            throw AclnnException.invalid("Tensor " + outputName + " shares memory with " + inputName + ": the bytes "
                    + outputName + "'s view spans (" + outBytes.byteSize() + " bytes) overlap those " + inputName
                    + "'s view spans (" + inBytes.byteSize() + " bytes); " + outputName + " must not share memory with "
                    + inputName + " (compute into separate memory, then copy).");
        }
    }

    private static String formatFloor(double value) {
        return Double.isFinite(value) && Math.abs(value) < 1e18 ? Long.toString((long) value) : Double.toString(value);
    }

    static String dtNames(List<DataType> types) {
        return types.stream().map(DataType::dtName).collect(Collectors.joining(", ", "[", "]"));
    }
}
