package io.opscv.reliability;

import static io.opscv.reliability.MemorySafetyTest.invalid;

import io.opscv.op.Checks;
import io.opscv.op.UpsampleLinear1dBackward;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Tensor;
import io.opscv.testing.TestDevice;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * SPEC §5's limits with overflow-safe arithmetic (issue 6, item 4): products that overflow a long
 * are "too large", never wrapped into a small, valid-looking value.
 */
class ResourceLimitsTest {
    private final TestDevice dev = new TestDevice();

    @AfterEach
    void close() {
        dev.close();
    }

    @Test
    void batchTimesChannelsNeverWrapsIntoValid() {
        Checks.batchBelowLimit((1L << 31) - 1, 1);
        Checks.batchBelowLimit(46340, 46340);
        invalid("= 2147488281", () -> Checks.batchBelowLimit(46341, 46341));
        // 2^32 * 2^32 is 0 in 64-bit arithmetic; 3 * (2^63 / 3 + 1) wraps to a negative number.
        invalid("beyond 2^63", () -> Checks.batchBelowLimit(1L << 32, 1L << 32));
        invalid("beyond 2^63", () -> Checks.batchBelowLimit(3, Long.MAX_VALUE / 3 + 1));
        invalid("beyond 2^63", () -> Checks.batchBelowLimit(Long.MAX_VALUE, Long.MAX_VALUE));
    }

    @Test
    void memoryNeverWrapsIntoValid() {
        Checks.memoryBelowLimit(15L << 28, 4, DataType.FLOAT16, "f");
        invalid("= 64424509440 bytes", () -> Checks.memoryBelowLimit(15L << 28, 4, DataType.FLOAT, "f"));
        // (2^61 + 1) * 8 wraps to 8, and 8 * 4 bytes would look tiny.
        invalid("more than 2^63", () -> Checks.memoryBelowLimit((1L << 61) + 1, 8, DataType.FLOAT, "f"));
        invalid("more than 2^63", () -> Checks.memoryBelowLimit(1L << 62, 1, DataType.FLOAT, "f"));
        invalid("more than 2^63", () -> Checks.memoryBelowLimit(Long.MAX_VALUE, Long.MAX_VALUE, DataType.BF16, "f"));
    }

    @Test
    void theShrinkRatioIsExactEvenWhere500TimesTheLengthOverflows() {
        Checks.ratioAtMost500(1000, 2, "L");
        invalid("1001 / 2", () -> Checks.ratioAtMost500(1001, 2, "L"));
        // 500 * (Long.MAX_VALUE / 100) overflows; the ratio is tiny and must pass.
        Checks.ratioAtMost500(5, Long.MAX_VALUE / 100, "L");
        Checks.ratioAtMost500(Long.MAX_VALUE, Long.MAX_VALUE / 400, "L");
    }

    @Test
    void phase1RefusesHugeCallsWithoutAllocatingAnything() {
        // Placeholders: shapes and dtypes only. N * C = 2^31 exactly; then N * C * L that overflows 2^63.
        Tensor g = dev.tensor(new long[] {1, 1, 1}, DataType.FLOAT, new float[1]);
        Tensor huge = Tensor.create(new long[] {1L << 11, 1L << 20, 2}, DataType.FLOAT, new long[3], 0, Format.ND, new long[] {1},
                dev.device.malloc(4));
        Tensor out = Tensor.placeholder(new long[] {1L << 11, 1L << 20, 2}, DataType.FLOAT, Format.ND);
        invalid("N * C should be < 2^31", () -> UpsampleLinear1dBackward.getWorkspaceSize(huge, IntArray.of(2),
                IntArray.of(1L << 11, 1L << 20, 2), false, 0, out));
        Tensor wide = Tensor.placeholder(new long[] {1L << 20, 1L << 10, 1L << 20}, DataType.FLOAT, Format.ND);
        Tensor wideGrad = Tensor.create(new long[] {1L << 20, 1L << 10, 1L << 20}, DataType.FLOAT, new long[3], 0, Format.ND,
                new long[] {1}, dev.device.malloc(4));
        invalid("should be < 60 GiB", () -> UpsampleLinear1dBackward.getWorkspaceSize(wideGrad, IntArray.of(1L << 20),
                IntArray.of(1L << 20, 1L << 10, 1L << 20), false, 0, wide));
        invalid("Every dimension of out should be <= 1048576", () -> UpsampleLinear1dBackward.getWorkspaceSize(g,
                IntArray.of(1), IntArray.of(1, 1, 1L << 40),
                false, 0, Tensor.placeholder(new long[] {1, 1, 1L << 40}, DataType.FLOAT, Format.ND)));
    }

    /**
     * SPEC §10 lets the 2-D operators take axes up to INT32_MAX; the per-axis coordinate table such an axis needs
     * (~24 GiB at 2^31 - 1) is refused with ACLNN_ERR_RUNTIME_ERROR before anything is allocated, not with a
     * NegativeArraySizeException or an OutOfMemoryError.
     */
    @Test
    void coordinateTablesThatCannotExistAreARuntimeErrorNotACrash() {
        // Hin = 2^31 - 1 down to 1: more positions than a Java array holds.
        tableRefused(new long[] {1, 1, 1, 1}, new long[] {1, 1, Integer.MAX_VALUE, 1}, "an axis can have at most");
        // 2^22 up to 2^30: 12 GiB of table, more than this JVM's heap.
        org.junit.jupiter.api.Assumptions.assumeTrue(Runtime.getRuntime().maxMemory() < 12L << 30);
        tableRefused(new long[] {1, 1, 1L << 30, 1}, new long[] {1, 1, 1L << 22, 1}, "the heap holds at most");
    }

    private static void tableRefused(long[] gradOutShape, long[] inputSize, String why) {
        Tensor gradOut = Tensor.placeholder(gradOutShape, DataType.FLOAT, Format.NCHW);
        Tensor out = Tensor.placeholder(inputSize, DataType.FLOAT, Format.NCHW);
        io.opscv.runtime.AclnnException e = org.junit.jupiter.api.Assertions.assertThrows(
                io.opscv.runtime.AclnnException.class,
                () -> io.opscv.op.UpsampleBilinear2dBackwardV2.getWorkspaceSize(io.opscv.runtime.Platform.CPU, gradOut,
                        IntArray.of(gradOutShape[2], 1), IntArray.of(inputSize), false, 0, 0, out));
        org.junit.jupiter.api.Assertions.assertEquals(io.opscv.runtime.AclnnStatus.ERR_RUNTIME_ERROR, e.status(),
                e.getMessage());
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().startsWith("The coordinate table of an axis of "
                + inputSize[2] + " -> " + gradOutShape[2] + " positions") && e.getMessage().contains(why), e.getMessage());
    }
}
