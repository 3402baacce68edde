package io.opscv.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.runtime.AclRuntime;
import io.opscv.runtime.AclnnException;
import io.opscv.runtime.AclnnStatus;
import io.opscv.runtime.DataType;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Tensor;
import io.opscv.testing.TestDevice;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The validation contract of phase 1 (SPEC §4, §5) and the upstream unit-test table (SPEC §7).
 * Each failing case asserts the status and the message of the rule that must fire, so that removing
 * a rule fails its test even when a later rule would also reject the call.
 */
class UpsampleLinear1dBackwardValidationTest {
    private final TestDevice dev = new TestDevice();

    @AfterEach
    void close() {
        dev.close();
    }

    /**
     * One phase-1 call. gradOut is a broadcast view (all strides 0 over one element) and out a placeholder (no
     * memory; a broadcast out would overlap itself, which phase 1 refuses), so huge shapes cost no memory:
     * validation looks at shapes only.
     */
    final class Call {
        Platform platform = Platform.ASCEND910B;
        DataType gradOutType = DataType.FLOAT;
        DataType outType = null;
        long[] gradOutShape = {1, 1, 3};
        long[] outShape = {1, 1, 6};
        long[] outputSize = {3};
        long[] inputSize = {1, 1, 6};
        boolean alignCorners = false;
        double scales = 2.0;
        boolean nullGradOut;
        boolean nullOut;
        boolean nullOutputSize;
        boolean nullInputSize;

        Call platform(Platform p) { platform = p; return this; }
        Call dtype(DataType t) { gradOutType = t; return this; }
        Call outDtype(DataType t) { outType = t; return this; }
        Call gradOut(long... s) { gradOutShape = s; return this; }
        Call out(long... s) { outShape = s; return this; }
        Call outputSize(long... s) { outputSize = s; return this; }
        Call inputSize(long... s) { inputSize = s; return this; }
        Call alignCorners() { alignCorners = true; return this; }
        Call scales(double s) { scales = s; return this; }

        WorkspaceAndExecutor call() {
            Tensor g = nullGradOut ? null : broadcast(gradOutShape, gradOutType);
            Tensor o = nullOut ? null : Tensor.placeholder(outShape, outType == null ? gradOutType : outType, Format.NCL);
            IntArray os = nullOutputSize ? null : IntArray.of(outputSize);
            IntArray is = nullInputSize ? null : IntArray.of(inputSize);
            return UpsampleLinear1dBackward.getWorkspaceSize(platform, g, os, is, alignCorners, scales, o);
        }

        private Tensor broadcast(long[] shape, DataType type) {
            DeviceMemory one = dev.device.malloc(16);
            return Tensor.create(shape, type, new long[shape.length], 0, Format.NCL, new long[] {1}, one);
        }

        /** Asserts the call fails with {@code status} and a message containing {@code text}; returns the message. */
        String fails(AclnnStatus status, String text) {
            AclnnException e = assertThrows(AclnnException.class, this::call);
            assertEquals(status, e.status(), e.getMessage());
            assertTrue(e.getMessage().contains(text), () -> "message '" + e.getMessage() + "' lacks '" + text + "'");
            assertEquals(e.getMessage(), AclRuntime.getRecentErrMsg(), "the recent-error text is the message");
            return e.getMessage();
        }

        String invalid(String text) {
            return fails(AclnnStatus.ERR_PARAM_INVALID, text);
        }

        WorkspaceAndExecutor succeeds() {
            return call();
        }
    }

    Call call() {
        return new Call();
    }

    /** SPEC §7: the upstream unit tests, by number. Default: FP32, scales 2.0, {1,1,3} -> {1,1,6}, Ascend910B. */
    @Nested
    class UpstreamCases {
        @Test
        void case001_theDefaultCaseBreaksTheFloorRuleOnEveryPlatform() {
            for (Platform p : new Platform[] {Platform.CPU, Platform.ASCEND950, Platform.ASCEND910B, Platform.ASCEND910_93,
                    Platform.ASCEND910}) {
                call().platform(p).invalid("outputSize[0] (3) should equal floor(inputSize[2] (6) * scales (2.0)) = 12");
            }
        }

        @ParameterizedTest(name = "case003-012 {0}")
        @EnumSource(value = DataType.class, names = {"DOUBLE", "INT8", "UINT8", "INT32", "INT64", "INT16", "BOOL",
            "COMPLEX64", "COMPLEX128"})
        void case003to012_unsupportedDtypes(DataType type) {
            call().dtype(type).invalid("Tensor gradOut not implemented for " + type.dtName()
                    + ", should be in dtype support list [DT_FLOAT16, DT_FLOAT, DT_BF16].");
        }

        @Test
        void case013_consistentEmptyBatchSucceedsWithNoWorkspace() {
            WorkspaceAndExecutor p = call().inputSize(0, 1, 6).gradOut(0, 1, 3).out(0, 1, 6).succeeds();
            assertEquals(0, p.workspaceSize());
            assertTrue(p.executor().steps().isEmpty());
        }

        @Test
        void case014_gradOut2d() {
            call().gradOut(2, 2).invalid("Expected 3 dimension input, but got gradOut with sizes [2, 2].");
        }

        @Test
        void case015_gradOut5d() {
            call().gradOut(1, 1, 1, 2, 2).invalid("Expected 3 dimension input, but got gradOut with sizes [1, 1, 1, 2, 2].");
        }

        @Test
        void case016_nullGradOut() {
            Call c = call();
            c.nullGradOut = true;
            c.fails(AclnnStatus.ERR_PARAM_NULLPTR, "Expected a proper Tensor but got null for argument gradOut.");
        }

        @Test
        void case017_outFloat16() {
            call().outDtype(DataType.FLOAT16).invalid("Tensor out expected dtype is DT_FLOAT but found DT_FLOAT16.");
        }

        @Test
        void case018_outputSizeOfTwo() {
            call().outputSize(2, 2).invalid("It is expected output_size equals to 1, but got size 2");
        }

        @Test
        void case019_outputSizeZero() {
            call().outputSize(0).invalid("Input and output sizes should greater than 0, but got input (L: 6), output (L: 0)");
        }

        @Test
        void case020_inputSizeOfFive() {
            call().inputSize(1, 1, 3, 3, 3).invalid("It is expected input_size equals to 3, but got size 5");
        }

        @Test
        void case021_emptyInputSizeButFullGradOut() {
            call().inputSize(0, 1, 6).invalid(
                    "Expected grad_output to have the same shape as output; output.size(0) = 0 but got grad_output.size(0) = 1");
        }

        @Test
        void case022_sameWithAlignCorners() {
            call().inputSize(0, 1, 6).alignCorners().invalid("output.size(0) = 0 but got grad_output.size(0) = 1");
        }

        @Test
        void case023_batchMismatch() {
            call().alignCorners().inputSize(2, 1, 6).invalid("output.size(0) = 2 but got grad_output.size(0) = 1");
        }

        @Test
        void case024_lengthMismatch() {
            call().alignCorners().outputSize(2).invalid("output.size(2) = 2 but got grad_output.size(2) = 3");
        }

        @Test
        void scale501_scalesAbove500() {
            call().scales(550).outputSize(3300).gradOut(1, 1, 3300).invalid("scales should be <= 500, but got 550.0.");
        }

        @Test
        void scale400_succeeds() {
            WorkspaceAndExecutor p = call().scales(400).outputSize(2400).gradOut(1, 1, 2400).succeeds();
            // Ascend910B's plan: Contiguous(gradOut) into the workspace (2400 floats = 9600 B, 512-aligned: 9728 B),
            // then UpsampleBilinear2dGrad into a workspace intermediate of 6 floats (512 B).
            assertEquals(9728 + 512, p.workspaceSize());
            assertEquals(p.executor().workspaceSize(), p.workspaceSize());
        }

        @Test
        void checkNC_channelMismatch() {
            call().scales(400).outputSize(2400).gradOut(1, 2, 2400)
                    .invalid("output.size(1) = 1 but got grad_output.size(1) = 2");
        }

        @Test
        void case950_consistentScalesOnAscend950() {
            WorkspaceAndExecutor p = call().platform(Platform.ASCEND950).scales(0.5).succeeds();
            assertEquals(UpsampleLinear1dBackward.NAME, p.executor().operator());
            assertEquals(Platform.ASCEND950, p.executor().platform());
        }
    }

    /** SPEC §4: each rule of the chain, and its place in the order. */
    @Nested
    class Chain {
        @Test
        void nullOutputSizeInputSizeAndOut() {
            Call a = call();
            a.nullOutputSize = true;
            a.fails(AclnnStatus.ERR_PARAM_NULLPTR, "for argument outputSize.");
            Call b = call();
            b.nullInputSize = true;
            b.fails(AclnnStatus.ERR_PARAM_NULLPTR, "for argument inputSize.");
            Call c = call();
            c.nullOut = true;
            c.fails(AclnnStatus.ERR_PARAM_NULLPTR, "for argument out.");
        }

        @Test
        void nullComesBeforeEverything() {
            Call c = call().dtype(DataType.DOUBLE).gradOut(2, 2);
            c.nullOut = true;
            c.fails(AclnnStatus.ERR_PARAM_NULLPTR, "for argument out.");
        }

        @Test
        void out3d() {
            call().out(1, 6).invalid("Expected 3 dimension input, but got out with sizes [1, 6].");
        }

        @Test
        void shapeComesBeforeDtype() {
            call().gradOut(2, 2).dtype(DataType.DOUBLE).invalid("Expected 3 dimension input");
        }

        @Test
        void dtypeComesBeforeElements() {
            call().dtype(DataType.INT32).outputSize(0).invalid("not implemented for DT_INT32");
        }

        @ParameterizedTest
        @EnumSource(value = Platform.class, names = {"ASCEND310B", "ASCEND310P"})
        void unsupportedProducts(Platform p) {
            call().platform(p).scales(0.5).invalid("the operator doesn't support " + p.socName() + " npuArch");
        }

        @Test
        void trainingSeriesHasNoBf16() {
            call().platform(Platform.ASCEND910).dtype(DataType.BF16).scales(0.5)
                    .invalid("Tensor gradOut not implemented for DT_BF16, should be in dtype support list [DT_FLOAT16, DT_FLOAT].");
        }

        @ParameterizedTest
        @EnumSource(value = Platform.class, names = {"ASCEND910B", "ASCEND910_93"})
        void dav2201RunsBf16OnlyWithoutInterpolation(Platform p) {
            call().platform(p).dtype(DataType.BF16).scales(0.5).invalid("only when gradOut's shape equals inputSize");
            WorkspaceAndExecutor same = call().platform(p).dtype(DataType.BF16).scales(0).outputSize(6).gradOut(1, 1, 6)
                    .succeeds();
            assertEquals("ViewCopy", same.executor().steps().getFirst().name());
        }

        @ParameterizedTest
        @EnumSource(value = Platform.class, names = {"CPU", "ASCEND950"})
        void bf16InterpolatesOnCpuAndAscend950(Platform p) {
            call().platform(p).dtype(DataType.BF16).scales(0.5).succeeds();
        }

        @Test
        void float16IsAcceptedEverywhereSupported() {
            for (Platform p : Platform.values()) {
                if (p.supported()) {
                    call().platform(p).dtype(DataType.FLOAT16).scales(0.5).succeeds();
                }
            }
        }

        @Test
        void inputLengthZero() {
            call().inputSize(1, 1, 0).out(1, 1, 0)
                    .invalid("Input and output sizes should greater than 0, but got input (L: 0), output (L: 3)");
        }

        @Test
        void negativeBatchOrChannels() {
            call().inputSize(-1, 1, 6).invalid("inputSize should not have negative sizes, but got N (-1) and C (1).");
            call().inputSize(1, -2, 6).invalid("but got N (1) and C (-2).");
        }

        @Test
        void outBatchAndChannelsFollowGradOut() {
            call().scales(0.5).out(2, 1, 6).invalid("gradOut and out should have the same N and C, but got gradOut [1, 1, 3] and out [2, 1, 6].");
        }

        @Test
        void outLengthFollowsInputSize() {
            call().scales(0.5).out(1, 1, 5).invalid("Expected out to have the shape of inputSize [1, 1, 6], but got out [1, 1, 5].");
        }

        @Test
        void destroyedTensorIsRejected() {
            Call c = call();
            Tensor g = Tensor.create(new long[] {1, 1, 3}, DataType.FLOAT, Format.ND, dev.device.malloc(12));
            Tensor o = Tensor.create(new long[] {1, 1, 6}, DataType.FLOAT, Format.ND, dev.device.malloc(24));
            o.close();
            AclnnException e = assertThrows(AclnnException.class, () -> UpsampleLinear1dBackward.getWorkspaceSize(
                    c.platform, g, IntArray.of(3), IntArray.of(1, 1, 6), false, 0.5, o));
            assertEquals(AclnnStatus.ERR_PARAM_INVALID, e.status());
            assertTrue(e.getMessage().startsWith("Tensor out was destroyed"), e.getMessage());
        }

        @Test
        void recentErrorIsClearedOnRead() {
            call().gradOut(2, 2).invalid("Expected 3 dimension input");
            assertNull(AclRuntime.getRecentErrMsg());
        }

        @Test
        void platformComesFromTheTensorsDevice() {
            try (TestDevice p310 = new TestDevice(Platform.ASCEND310P)) {
                Tensor g = p310.tensor(new long[] {1, 1, 3}, DataType.FLOAT, new float[3]);
                Tensor o = p310.tensor(new long[] {1, 1, 6}, DataType.FLOAT, new float[6]);
                AclnnException e = assertThrows(AclnnException.class, () -> UpsampleLinear1dBackward.getWorkspaceSize(
                        g, IntArray.of(3), IntArray.of(1, 1, 6), false, 0.5, o));
                assertEquals("the operator doesn't support Ascend310P npuArch", e.getMessage());
            }
        }
    }

    /** SPEC §5: the documented limits, at their boundaries. */
    @Nested
    class Limits {
        @Test
        void everyDimensionOfOutAtMost2pow20() {
            call().scales(0).inputSize(1, 1, (1 << 20) + 1).out(1, 1, (1 << 20) + 1)
                    .invalid("Every dimension of out should be <= 1048576, but got out with sizes [1, 1, 1048577].");
        }

        @Test
        void everyDimensionOfGradOutAtMost2pow20() {
            long big = (1 << 20) + 1;
            call().scales(0).inputSize(big, 1, 6).gradOut(big, 1, 3).out(big, 1, 6)
                    .invalid("Every dimension of gradOut should be <= 1048576");
        }

        @Test
        void dimensionOf2pow20IsAllowed() {
            long l = 1 << 20;
            WorkspaceAndExecutor p = call().scales(0).outputSize(l).gradOut(1, 1, l).inputSize(1, 1, l).out(1, 1, l).succeeds();
            assertEquals("ViewCopy", p.executor().steps().getFirst().name());
        }

        @Test
        void batchTimesChannelsBelow2pow31() {
            long n = 1 << 20;
            long c = 1 << 11;
            call().dtype(DataType.FLOAT16).scales(0).outputSize(1).gradOut(n, c, 1).inputSize(n, c, 1).out(n, c, 1)
                    .invalid("N * C should be < 2^31 (2147483648), but got N (1048576) * C (2048) = 2147483648.");
            long c2 = 2047; // N * C = 2^31 - 2^20: allowed, and (1 + 2) * N * C * 2 bytes < 60 GiB
            call().dtype(DataType.FLOAT16).scales(0).outputSize(1).gradOut(n, c2, 1).inputSize(n, c2, 1).out(n, c2, 1)
                    .succeeds();
        }

        @Test
        void memoryBelow60GiB() {
            // (Lout + 2 Lin) * N * C * 4 = (1 + 14) * 2^30 * 4 = exactly 60 GiB: rejected (strictly less is required).
            long n = 1 << 10;
            long c = 1 << 20;
            call().scales(0).outputSize(1).gradOut(n, c, 1).inputSize(n, c, 7).out(n, c, 7)
                    .invalid("should be < 60 GiB (64424509440 bytes)");
            // N * C = 2^30 - 1 = 32767 * 32769: 60 GiB - 60 bytes, allowed.
            call().scales(0).outputSize(1).gradOut(32767, 32769, 1).inputSize(32767, 32769, 7).out(32767, 32769, 7)
                    .succeeds();
        }

        @Test
        void limitsComeBeforeTheEmptyPassthrough() {
            call().scales(0).inputSize(0, 1, (1 << 20) + 1).gradOut(0, 1, 3).out(0, 1, (1 << 20) + 1)
                    .invalid("Every dimension of out should be <= 1048576");
        }

        @Test
        void scalesAt500AndJustAbove() {
            call().scales(500).inputSize(1, 1, 2).out(1, 1, 2).outputSize(1000).gradOut(1, 1, 1000).succeeds();
            call().scales(500.0000001).inputSize(1, 1, 2).out(1, 1, 2).outputSize(1000).gradOut(1, 1, 1000)
                    .invalid("scales should be <= 500, but got 500.0000001.");
        }

        @Test
        void sizeRatioAtMost500() {
            call().scales(0).inputSize(1, 1, 2).out(1, 1, 2).outputSize(1000).gradOut(1, 1, 1000).succeeds();
            call().scales(0).inputSize(1, 1, 2).out(1, 1, 2).outputSize(1001).gradOut(1, 1, 1001)
                    .invalid("The size ratio outputSize / inputSize along L should be <= 500, but got 1001 / 2.");
        }

        @Test
        void floorRule() {
            call().scales(2.3).inputSize(1, 1, 7).out(1, 1, 7).outputSize(16).gradOut(1, 1, 16).succeeds();
            call().scales(2.2).inputSize(1, 1, 7).out(1, 1, 7).outputSize(16).gradOut(1, 1, 16)
                    .invalid("outputSize[0] (16) should equal floor(inputSize[2] (7) * scales (2.2)) = 15");
        }

        @Test
        void negativeScalesBreakTheFloorRule() {
            call().scales(-0.5).invalid("should equal floor(inputSize[2] (6) * scales (-0.5)) = -3");
        }

        @Test
        void tinyScalesCountAsNotGiven() {
            call().scales(1e-10).succeeds();
            call().scales(-1e-10).succeeds();
            call().scales(2e-9).invalid("should equal floor(inputSize[2] (6) * scales (2.0E-9)) = 0");
        }

        @Test
        void nanScalesAreRejected() {
            call().scales(Double.NaN).invalid("scales should be a number, but got NaN.");
        }

        @Test
        void infiniteScalesAreRejected() {
            call().scales(Double.POSITIVE_INFINITY).invalid("scales should be <= 500, but got Infinity.");
            call().scales(Double.NEGATIVE_INFINITY).invalid("should equal floor");
        }

        @Test
        void emptyComesBeforeScales() {
            // case 013's scales (2.0) break the floor rule, but an empty call returns before scales are checked.
            call().inputSize(1, 0, 6).gradOut(1, 0, 3).out(1, 0, 6).scales(2.0).succeeds();
            call().inputSize(1, 0, 6).gradOut(1, 0, 3).out(1, 0, 6).scales(Double.NaN).succeeds();
        }
    }
}
