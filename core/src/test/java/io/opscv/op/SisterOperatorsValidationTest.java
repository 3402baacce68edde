package io.opscv.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.runtime.AclRuntime;
import io.opscv.runtime.AclnnException;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Tensor;
import io.opscv.testing.TestDevice;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The validation chains of the three sister operators, a row per rule: each row breaks exactly one
 * rule of a call that otherwise succeeds, and expects that rule's status and message, so removing
 * (or reordering past) the rule makes its row fail. The input is a broadcast view of one element and
 * out a placeholder (no memory; a broadcast out would overlap itself), so the limit rows need no memory.
 */
class SisterOperatorsValidationTest {
    static final long BIG = 1L << 31;

    /** A call of any of the three operators, built from plain fields that the rows change. */
    static final class Call {
        String op;
        Platform platform = Platform.CPU;
        long[] input;
        DataType inputType = DataType.FLOAT;
        Format inputFormat;
        long[] out;
        DataType outType = DataType.FLOAT;
        Format outFormat;
        long[] outputSize;
        long[] inputSize;
        double scales;
        double scalesH;
        double scalesW;
        boolean nullInput;
        boolean nullOut;
        /** out as a broadcast view of one element, like the input, instead of a placeholder: it overlaps itself. */
        boolean broadcastOut;
        boolean nullOutputSize;
        boolean nullInputSize;
        boolean destroyInput;
        boolean destroyOut;
        boolean destroyOutputSize;
        boolean destroyInputSize;

        static Call linear1d() {
            Call c = new Call();
            c.op = UpsampleLinear1d.NAME;
            c.input = new long[] {1, 2, 6};
            c.out = new long[] {1, 2, 12};
            c.outputSize = new long[] {12};
            c.scales = 2.0;
            c.inputFormat = Format.ND;
            c.outFormat = Format.ND;
            return c;
        }

        static Call bilinear2dBackward() {
            Call c = new Call();
            c.op = UpsampleBilinear2dBackwardV2.NAME;
            c.input = new long[] {1, 2, 8, 10};
            c.out = new long[] {1, 2, 4, 5};
            c.outputSize = new long[] {8, 10};
            c.inputSize = new long[] {1, 2, 4, 5};
            c.scalesH = 2.0;
            c.scalesW = 2.0;
            c.inputFormat = Format.NCHW;
            c.outFormat = Format.NCHW;
            return c;
        }

        static Call bilinear2d() {
            Call c = new Call();
            c.op = UpsampleBilinear2d.NAME;
            c.input = new long[] {1, 2, 4, 5};
            c.out = new long[] {1, 2, 8, 10};
            c.outputSize = new long[] {8, 10};
            c.scalesH = 2.0;
            c.scalesW = 2.0;
            c.inputFormat = Format.NCHW;
            c.outFormat = Format.NCHW;
            return c;
        }

        WorkspaceAndExecutor invoke(TestDevice dev) {
            Tensor in = nullInput ? null : broadcast(dev, input, inputType, inputFormat);
            Tensor o = nullOut ? null : broadcastOut ? broadcast(dev, out, outType, outFormat)
                    : Tensor.placeholder(out, outType, outFormat);
            IntArray outSize = nullOutputSize ? null : IntArray.of(outputSize);
            IntArray inSize = nullInputSize || inputSize == null ? null : IntArray.of(inputSize);
            if (destroyInput) {
                in.close();
            }
            if (destroyOut) {
                o.close();
            }
            if (destroyOutputSize) {
                outSize.close();
            }
            if (destroyInputSize) {
                inSize.close();
            }
            return switch (op) {
                case UpsampleLinear1d.NAME -> UpsampleLinear1d.getWorkspaceSize(platform, in, outSize, false, scales, o);
                case UpsampleBilinear2dBackwardV2.NAME -> UpsampleBilinear2dBackwardV2.getWorkspaceSize(platform, in, outSize,
                        inSize, false, scalesH, scalesW, o);
                case UpsampleBilinear2d.NAME -> UpsampleBilinear2d.getWorkspaceSize(platform, in, outSize, false, scalesH,
                        scalesW, o);
                default -> throw new IllegalStateException(op);
            };
        }

        static Tensor broadcast(TestDevice dev, long[] shape, DataType type, Format format) {
            return Tensor.create(shape, type, new long[shape.length], 0, format, new long[] {1},
                    dev.device.malloc(Math.max(type.byteSize(), 1)));
        }
    }

    static Arguments row(String rule, Call base, Consumer<Call> change, int code, String message) {
        change.accept(base);
        return Arguments.of(base.op + ": " + rule, base, code, message);
    }

    static Stream<Arguments> linear1dRules() {
        return Stream.of(
                row("self null", Call.linear1d(), c -> c.nullInput = true, 161001,
                        "Expected a proper Tensor but got null for argument self."),
                row("outputSize null", Call.linear1d(), c -> c.nullOutputSize = true, 161001, "for argument outputSize."),
                row("out null", Call.linear1d(), c -> c.nullOut = true, 161001, "for argument out."),
                row("self destroyed", Call.linear1d(), c -> c.destroyInput = true, 161002, "Tensor self was destroyed"),
                row("outputSize destroyed", Call.linear1d(), c -> c.destroyOutputSize = true, 161002,
                        "IntArray outputSize was destroyed"),
                row("out destroyed", Call.linear1d(), c -> c.destroyOut = true, 161002, "Tensor out was destroyed"),
                row("self 2-D", Call.linear1d(), c -> c.input = new long[] {2, 6}, 161002,
                        "Expected 3 dimension input, but got self with sizes [2, 6]."),
                row("out 4-D", Call.linear1d(), c -> c.out = new long[] {1, 2, 1, 12}, 161002,
                        "Expected 3 dimension input, but got out with sizes [1, 2, 1, 12]."),
                row("outputSize of 2", Call.linear1d(), c -> c.outputSize = new long[] {12, 1}, 161002,
                        "It is expected outputSize equals to 1, but got size 2"),
                row("unsupported product", Call.linear1d(), c -> c.platform = Platform.ASCEND310P, 161002,
                        "the operator doesn't support Ascend310P npuArch"),
                row("self DOUBLE", Call.linear1d(), c -> {
                    c.inputType = DataType.DOUBLE;
                    c.outType = DataType.DOUBLE;
                }, 161002, "Tensor self not implemented for DT_DOUBLE, should be in dtype support list [DT_FLOAT16, DT_FLOAT, DT_BF16]."),
                row("BF16 on the training series", Call.linear1d(), c -> {
                    c.platform = Platform.ASCEND910;
                    c.inputType = DataType.BF16;
                    c.outType = DataType.BF16;
                }, 161002, "Tensor self not implemented for DT_BF16, should be in dtype support list [DT_FLOAT16, DT_FLOAT]."),
                row("out dtype", Call.linear1d(), c -> c.outType = DataType.FLOAT16, 161002,
                        "Tensor out expected dtype is DT_FLOAT but found DT_FLOAT16."),
                row("self C 0", Call.linear1d(), c -> {
                    c.input = new long[] {1, 0, 6};
                    c.out = new long[] {1, 0, 12};
                }, 161002, "Non-empty 3D data tensor expected but got a tensor with sizes [1, 0, 6]."),
                row("self L 0", Call.linear1d(), c -> c.input = new long[] {1, 2, 0}, 161002,
                        "Non-empty 3D data tensor expected but got a tensor with sizes [1, 2, 0]."),
                row("outputSize 0", Call.linear1d(), c -> {
                    c.outputSize = new long[] {0};
                    c.out = new long[] {1, 2, 0};
                    c.scales = 0;
                }, 161002, "Input and output sizes should greater than 0, but got output (L: 0)"),
                row("out L", Call.linear1d(), c -> c.out = new long[] {1, 2, 11}, 161002,
                        "Expected out to have the shape of {N, C, outputSize[0]} [1, 2, 12], but got out [1, 2, 11]."),
                row("out N", Call.linear1d(), c -> c.out = new long[] {2, 2, 12}, 161002,
                        "Expected out to have the shape of {N, C, outputSize[0]} [1, 2, 12], but got out [2, 2, 12]."),
                row("self dimension over 2^20", Call.linear1d(), c -> {
                    c.input = new long[] {1, 1, (1 << 20) + 1};
                    c.outputSize = new long[] {(1 << 20) + 1};
                    c.out = new long[] {1, 1, (1 << 20) + 1};
                    c.scales = 0;
                }, 161002, "Every dimension of self should be <= 1048576"),
                row("out dimension over 2^20", Call.linear1d(), c -> {
                    c.input = new long[] {1, 1, 1000};
                    c.outputSize = new long[] {(1 << 20) + 1};
                    c.out = new long[] {1, 1, (1 << 20) + 1};
                    c.scales = 0;
                }, 161002, "Every dimension of out should be <= 1048576"),
                row("N * C", Call.linear1d(), c -> {
                    c.input = new long[] {1 << 16, 1 << 15, 2};
                    c.outputSize = new long[] {4};
                    c.out = new long[] {1 << 16, 1 << 15, 4};
                }, 161002, "N * C should be < 2^31"),
                row("60 GiB", Call.linear1d(), c -> {
                    c.input = new long[] {1 << 15, 1 << 15, 20};
                    c.outputSize = new long[] {40};
                    c.out = new long[] {1 << 15, 1 << 15, 40};
                }, 161002, "The memory the operator needs, (self_L + out_L) * N * C * sizeof(DT_FLOAT)"),
                row("scales NaN", Call.linear1d(), c -> c.scales = Double.NaN, 161002, "scales should be a number, but got NaN."),
                row("scales over 500", Call.linear1d(), c -> {
                    c.outputSize = new long[] {3300};
                    c.out = new long[] {1, 2, 3300};
                    c.scales = 550;
                }, 161002, "scales should be <= 500, but got 550.0."),
                row("ratio over 500", Call.linear1d(), c -> {
                    c.input = new long[] {1, 2, 2};
                    c.outputSize = new long[] {1002};
                    c.out = new long[] {1, 2, 1002};
                    c.scales = 0;
                }, 161002, "The size ratio outputSize / inputSize along L should be <= 500, but got 1002 / 2."),
                row("floor rule", Call.linear1d(), c -> c.scales = 0.5, 161002,
                        "outputSize[0] (12) should equal floor(self.size(2) (6) * scales (0.5)) = 3"),
                row("out overlaps itself (last: this project's memory rule)", Call.linear1d(), c -> c.broadcastOut = true, 161002,
                        "Tensor out overlaps itself (shape [1, 2, 12], strides [0, 0, 0])"));
    }

    static Stream<Arguments> bilinear2dBackwardRules() {
        return Stream.of(
                row("gradOut null", Call.bilinear2dBackward(), c -> c.nullInput = true, 161001, "for argument gradOut."),
                row("outputSize null", Call.bilinear2dBackward(), c -> c.nullOutputSize = true, 161001,
                        "for argument outputSize."),
                row("inputSize null", Call.bilinear2dBackward(), c -> c.nullInputSize = true, 161001,
                        "for argument inputSize."),
                row("out null", Call.bilinear2dBackward(), c -> c.nullOut = true, 161001, "for argument out."),
                row("gradOut destroyed", Call.bilinear2dBackward(), c -> c.destroyInput = true, 161002,
                        "Tensor gradOut was destroyed"),
                row("outputSize destroyed", Call.bilinear2dBackward(), c -> c.destroyOutputSize = true, 161002,
                        "IntArray outputSize was destroyed"),
                row("inputSize destroyed", Call.bilinear2dBackward(), c -> c.destroyInputSize = true, 161002,
                        "IntArray inputSize was destroyed"),
                row("out destroyed", Call.bilinear2dBackward(), c -> c.destroyOut = true, 161002, "Tensor out was destroyed"),
                row("gradOut 3-D", Call.bilinear2dBackward(), c -> c.input = new long[] {2, 8, 10}, 161002,
                        "Expected 4 dimension input, but got gradOut with sizes [2, 8, 10]."),
                row("out 3-D", Call.bilinear2dBackward(), c -> c.out = new long[] {2, 4, 5}, 161002,
                        "Expected 4 dimension input, but got out with sizes [2, 4, 5]."),
                row("outputSize of 3", Call.bilinear2dBackward(), c -> c.outputSize = new long[] {8, 10, 1}, 161002,
                        "It is expected output_size equals to 2, but got size 3"),
                row("inputSize of 3", Call.bilinear2dBackward(), c -> c.inputSize = new long[] {2, 4, 5}, 161002,
                        "It is expected input_size equals to 4, but got size 3"),
                row("gradOut format", Call.bilinear2dBackward(), c -> c.inputFormat = Format.NCL, 161002,
                        "Tensor gradOut has format NCL, but should be in format support list [NCHW, NHWC]"),
                row("out format", Call.bilinear2dBackward(), c -> c.outFormat = Format.NC1HWC0, 161002,
                        "Tensor out has format NC1HWC0, but should be in format support list [NCHW, NHWC]"),
                row("layouts differ", Call.bilinear2dBackward(), c -> c.inputFormat = Format.NHWC, 161002,
                        "Format of gradOut and out should be equal, but got gradOut [NHWC] and out [NCHW]."),
                row("unsupported product", Call.bilinear2dBackward(), c -> c.platform = Platform.ASCEND310B, 161002,
                        "the operator doesn't support Ascend310B npuArch"),
                row("gradOut INT32", Call.bilinear2dBackward(), c -> {
                    c.inputType = DataType.INT32;
                    c.outType = DataType.INT32;
                }, 161002, "Tensor gradOut not implemented for DT_INT32"),
                row("BF16 on the training series", Call.bilinear2dBackward(), c -> {
                    c.platform = Platform.ASCEND910;
                    c.inputType = DataType.BF16;
                    c.outType = DataType.BF16;
                }, 161002, "should be in dtype support list [DT_FLOAT16, DT_FLOAT]."),
                row("out dtype", Call.bilinear2dBackward(), c -> c.outType = DataType.BF16, 161002,
                        "Tensor out expected dtype is DT_FLOAT but found DT_BF16."),
                row("Hin 0", Call.bilinear2dBackward(), c -> {
                    c.inputSize = new long[] {1, 2, 0, 5};
                    c.out = new long[] {1, 2, 0, 5};
                }, 161002, "Input and output sizes should greater than 0, but got input (H: 0, W: 5), output (H: 8, W: 10)"),
                row("Wout 0", Call.bilinear2dBackward(), c -> {
                    c.outputSize = new long[] {8, 0};
                    c.input = new long[] {1, 2, 8, 0};
                }, 161002, "but got input (H: 4, W: 5), output (H: 8, W: 0)"),
                row("negative N", Call.bilinear2dBackward(), c -> c.inputSize = new long[] {-1, 2, 4, 5}, 161002,
                        "inputSize should not have negative sizes, but got N (-1) and C (2)."),
                row("gradOut H", Call.bilinear2dBackward(), c -> c.input = new long[] {1, 2, 9, 10}, 161002,
                        "Expected grad_output to have the same shape as output; output.size(2) = 8 but got grad_output.size(2) = 9"),
                row("gradOut C", Call.bilinear2dBackward(), c -> c.input = new long[] {1, 3, 8, 10}, 161002,
                        "output.size(1) = 2 but got grad_output.size(1) = 3"),
                row("NHWC inputSize in NCHW order", Call.bilinear2dBackward(), c -> {
                    c.inputFormat = Format.NHWC;
                    c.outFormat = Format.NHWC;
                    c.input = new long[] {1, 8, 10, 2};
                    c.out = new long[] {1, 4, 5, 2};
                }, 161002, "output.size(3) = 5 but got grad_output.size(3) = 2"),
                row("out W", Call.bilinear2dBackward(), c -> c.out = new long[] {1, 2, 4, 6}, 161002,
                        "Expected out to have the shape of inputSize [1, 2, 4, 5], but got out [1, 2, 4, 6]."),
                row("out N", Call.bilinear2dBackward(), c -> c.out = new long[] {2, 2, 4, 5}, 161002,
                        "Expected out to have the shape of inputSize [1, 2, 4, 5], but got out [2, 2, 4, 5]."),
                row("gradOut dimension over INT32_MAX", Call.bilinear2dBackward(), c -> {
                    c.input = new long[] {1, 1, BIG, 1};
                    c.outputSize = new long[] {BIG, 1};
                    c.inputSize = new long[] {1, 1, 4, 1};
                    c.out = new long[] {1, 1, 4, 1};
                    c.scalesH = 0;
                    c.scalesW = 0;
                }, 161002, "Every dimension of gradOut should be <= 2147483647"),
                row("out dimension over INT32_MAX", Call.bilinear2dBackward(), c -> {
                    c.input = new long[] {1, 1, 2, 1};
                    c.outputSize = new long[] {2, 1};
                    c.inputSize = new long[] {1, 1, BIG, 1};
                    c.out = new long[] {1, 1, BIG, 1};
                    c.scalesH = 0;
                    c.scalesW = 0;
                }, 161002, "Every dimension of out should be <= 2147483647"),
                row("scalesH NaN", Call.bilinear2dBackward(), c -> c.scalesH = Double.NaN, 161002,
                        "scalesH should be a number, but got NaN."),
                row("scalesW NaN", Call.bilinear2dBackward(), c -> c.scalesW = Double.NaN, 161002,
                        "scalesW should be a number, but got NaN."),
                row("scalesH floor rule", Call.bilinear2dBackward(), c -> c.scalesH = 2.5, 161002,
                        "outputSize[0] (8) should equal floor(Hin (4) * scalesH (2.5)) = 10"),
                row("scalesW floor rule", Call.bilinear2dBackward(), c -> c.scalesW = 0.5, 161002,
                        "outputSize[1] (10) should equal floor(Win (5) * scalesW (0.5)) = 2"),
                row("out overlaps itself (last: this project's memory rule)", Call.bilinear2dBackward(), c -> c.broadcastOut = true,
                        161002, "Tensor out overlaps itself (shape [1, 2, 4, 5], strides [0, 0, 0, 0])"));
    }

    static Stream<Arguments> bilinear2dRules() {
        return Stream.of(
                row("self null", Call.bilinear2d(), c -> c.nullInput = true, 161001, "for argument self."),
                row("outputSize null", Call.bilinear2d(), c -> c.nullOutputSize = true, 161001, "for argument outputSize."),
                row("out null", Call.bilinear2d(), c -> c.nullOut = true, 161001, "for argument out."),
                row("self destroyed", Call.bilinear2d(), c -> c.destroyInput = true, 161002, "Tensor self was destroyed"),
                row("outputSize destroyed", Call.bilinear2d(), c -> c.destroyOutputSize = true, 161002,
                        "IntArray outputSize was destroyed"),
                row("out destroyed", Call.bilinear2d(), c -> c.destroyOut = true, 161002, "Tensor out was destroyed"),
                row("self 3-D", Call.bilinear2d(), c -> c.input = new long[] {2, 4, 5}, 161002,
                        "Expected 4 dimension input, but got self with sizes [2, 4, 5]."),
                row("out 5-D", Call.bilinear2d(), c -> c.out = new long[] {1, 2, 8, 10, 1}, 161002,
                        "Expected 4 dimension input, but got out with sizes [1, 2, 8, 10, 1]."),
                row("outputSize of 1", Call.bilinear2d(), c -> c.outputSize = new long[] {8}, 161002,
                        "It is expected outputSize equals to 2, but got size 1"),
                row("self format", Call.bilinear2d(), c -> c.inputFormat = Format.NCL, 161002,
                        "Tensor self has format NCL, but should be in format support list"),
                row("out format", Call.bilinear2d(), c -> c.outFormat = Format.HWCN, 161002,
                        "Tensor out has format HWCN, but should be in format support list"),
                row("layouts differ", Call.bilinear2d(), c -> c.outFormat = Format.NHWC, 161002,
                        "Format of self and out should be equal, but got self [NCHW] and out [NHWC]."),
                row("unsupported product", Call.bilinear2d(), c -> c.platform = Platform.ASCEND310P, 161002,
                        "the operator doesn't support Ascend310P npuArch"),
                row("self BOOL", Call.bilinear2d(), c -> {
                    c.inputType = DataType.BOOL;
                    c.outType = DataType.BOOL;
                }, 161002, "Tensor self not implemented for DT_BOOL"),
                row("BF16 on the training series", Call.bilinear2d(), c -> {
                    c.platform = Platform.ASCEND910;
                    c.inputType = DataType.BF16;
                    c.outType = DataType.BF16;
                }, 161002, "should be in dtype support list [DT_FLOAT16, DT_FLOAT]."),
                row("out dtype", Call.bilinear2d(), c -> c.outType = DataType.FLOAT16, 161002,
                        "Tensor out expected dtype is DT_FLOAT but found DT_FLOAT16."),
                row("self C 0", Call.bilinear2d(), c -> {
                    c.input = new long[] {1, 0, 4, 5};
                    c.out = new long[] {1, 0, 8, 10};
                }, 161002, "Non-empty 4D data tensor expected but got a tensor with sizes [1, 0, 4, 5]."),
                row("self W 0", Call.bilinear2d(), c -> c.input = new long[] {1, 2, 4, 0}, 161002,
                        "Non-empty 4D data tensor expected but got a tensor with sizes [1, 2, 4, 0]."),
                row("outputSize H 0", Call.bilinear2d(), c -> {
                    c.outputSize = new long[] {0, 10};
                    c.out = new long[] {1, 2, 0, 10};
                }, 161002, "Input and output sizes should greater than 0, but got output (H: 0, W: 10)"),
                row("out W", Call.bilinear2d(), c -> c.out = new long[] {1, 2, 8, 11}, 161002,
                        "Expected out to have the shape of {N, C, outputSize[0], outputSize[1]} [1, 2, 8, 10], but got out [1, 2, 8, 11]."),
                row("NHWC out in NCHW order", Call.bilinear2d(), c -> {
                    c.inputFormat = Format.NHWC;
                    c.outFormat = Format.NHWC;
                    c.input = new long[] {1, 4, 5, 2};
                }, 161002, "Expected out to have the shape of {N, outputSize[0], outputSize[1], C} [1, 8, 10, 2], but got out [1, 2, 8, 10]."),
                row("self dimension over INT32_MAX", Call.bilinear2d(), c -> {
                    c.input = new long[] {1, 1, BIG, 1};
                    c.outputSize = new long[] {2, 1};
                    c.out = new long[] {1, 1, 2, 1};
                }, 161002, "Every dimension of self should be <= 2147483647"),
                row("out dimension over INT32_MAX", Call.bilinear2d(), c -> {
                    c.input = new long[] {1, 1, 2, 1};
                    c.outputSize = new long[] {BIG, 1};
                    c.out = new long[] {1, 1, BIG, 1};
                }, 161002, "Every dimension of out should be <= 2147483647"),
                row("scalesH NaN", Call.bilinear2d(), c -> c.scalesH = Double.NaN, 161002, "scalesH should be a number, but got NaN."),
                row("scalesW NaN", Call.bilinear2d(), c -> c.scalesW = Double.NaN, 161002, "scalesW should be a number, but got NaN."),
                row("negative scales", Call.bilinear2d(), c -> c.scalesH = -1.0, 161002,
                        "scalesH and scalesW cannot be negative, but got scalesH (-1.0) and scalesW (2.0)."),
                row("out overlaps itself (last: this project's memory rule)", Call.bilinear2d(), c -> c.broadcastOut = true, 161002,
                        "Tensor out overlaps itself (shape [1, 2, 8, 10], strides [0, 0, 0, 0])"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource({"linear1dRules", "bilinear2dBackwardRules", "bilinear2dRules"})
    void everyRuleRefusesWithItsStatusAndMessage(String rule, Call call, int code, String message) {
        try (TestDevice dev = new TestDevice()) {
            AclRuntime.getRecentErrMsg();
            AclnnException e = assertThrows(AclnnException.class, () -> call.invoke(dev), rule);
            assertEquals(code, e.code(), rule + ": " + e.getMessage());
            assertTrue(e.getMessage().contains(message), rule + ": got '" + e.getMessage() + "'");
            assertEquals(e.getMessage(), AclRuntime.getRecentErrMsg());
        }
    }

    @Test
    void theBaseCallsSucceed() {
        try (TestDevice dev = new TestDevice()) {
            for (Call call : new Call[] {Call.linear1d(), Call.bilinear2dBackward(), Call.bilinear2d()}) {
                assertTrue(call.invoke(dev).executor() != null);
            }
        }
    }

    @Test
    void theForwardsAcceptWhatTheirUpstreamAccepts() {
        try (TestDevice dev = new TestDevice()) {
            // aclnnUpsampleLinear1d: a negative scales is "not given".
            Call linear = Call.linear1d();
            linear.scales = -1;
            linear.invoke(dev);
            // aclnnUpsampleBilinear2d: scales need not match the sizes (as upstream's forward and PyTorch).
            Call bilinear = Call.bilinear2d();
            bilinear.scalesH = 2.5;
            bilinear.invoke(dev);
            // aclnnUpsampleBilinear2dBackwardV2: a scales of 0 on one axis skips that axis' floor rule.
            Call backward = Call.bilinear2dBackward();
            backward.scalesH = 0;
            backward.invoke(dev);
            // ND is read as NCHW.
            Call nd = Call.bilinear2dBackward();
            nd.inputFormat = Format.ND;
            nd.invoke(dev);
        }
    }
}
