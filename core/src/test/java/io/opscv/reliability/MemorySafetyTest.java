package io.opscv.reliability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.op.UpsampleBilinear2d;
import io.opscv.op.UpsampleBilinear2dBackwardV2;
import io.opscv.op.UpsampleLinear1d;
import io.opscv.op.UpsampleLinear1dBackward;
import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.runtime.AclRuntime;
import io.opscv.runtime.AclnnException;
import io.opscv.runtime.AclnnStatus;
import io.opscv.runtime.DataType;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Tensor;
import io.opscv.testing.TestDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Memory safety of views (issue 6, item 2): a tensor that reaches outside its memory is refused
 * when it is created (161002), whatever the arithmetic; an out that shares memory with the input
 * (gradOut or self) or with itself is refused by phase 1 of every operator with a message naming
 * both; placeholders validate but never run.
 */
class MemorySafetyTest {
    private final TestDevice dev = new TestDevice();

    @AfterEach
    void close() {
        dev.close();
    }

    static AclnnException refused(AclnnStatus status, String text, Executable call) {
        AclnnException e = assertThrows(AclnnException.class, call);
        assertEquals(status, e.status(), e.getMessage());
        assertTrue(e.getMessage().contains(text), () -> "'" + e.getMessage() + "' lacks '" + text + "'");
        assertEquals(e.getMessage(), AclRuntime.getRecentErrMsg());
        return e;
    }

    static AclnnException invalid(String text, Executable call) {
        return refused(AclnnStatus.ERR_PARAM_INVALID, text, call);
    }

    Tensor create(long[] shape, long[] strides, long offset, long[] storage, DeviceMemory memory) {
        return Tensor.create(shape, DataType.FLOAT, strides, offset, Format.ND, storage, memory);
    }

    @Nested
    class Creation {
        @Test
        void aViewOneElementBeyondItsMemoryIsRefusedAndAnExactFitAccepted() {
            DeviceMemory m = dev.device.malloc(6 * 4);
            create(new long[] {2, 3}, null, 0, null, m);
            create(new long[] {3, 2}, new long[] {1, 3}, 0, null, m);
            create(new long[] {2, 2}, new long[] {3, 1}, 1, null, m);
            invalid("does not fit in its device memory of 24 bytes", () -> create(new long[] {2, 2}, new long[] {3, 1}, 2, null, m));
            invalid("does not fit", () -> create(new long[] {2, 3}, new long[] {4, 1}, 0, null, m));
            invalid("outside its storage", () -> create(new long[] {2, 3}, null, 0, new long[] {5}, m));
        }

        @Test
        void overflowingExtentsAreRefusedNotWrappedIntoSmallOnes() {
            DeviceMemory m = dev.device.malloc(64);
            // (2^62 + 1) * 4 wraps to 4 in 64 bits: a wrapped check would take this view for one that fits.
            invalid("beyond 2^63", () -> create(new long[] {5}, new long[] {(1L << 62) + 1}, 0, null, m));
            invalid("beyond 2^63", () -> create(new long[] {2}, new long[] {1}, Long.MAX_VALUE, null, m));
            invalid("more than 2^63 elements", () -> create(new long[] {1L << 32, 1L << 32}, null, 0, null, m));
            invalid("exceeds 2^63 bytes", () -> create(new long[] {1}, null, 0, new long[] {1L << 62}, m));
            invalid("storageShape", () -> create(new long[] {1}, null, 0, new long[] {1L << 40, 1L << 40}, m));
        }

        @Test
        void contiguousStridesThatWouldWrapAreRefusedWithTheRealReason() {
            DeviceMemory m = dev.device.malloc(64);
            // More than 2^63 elements: the message says so (the strides are not computed first and found negative).
            invalid("more than 2^63 elements", () -> create(new long[] {3, 1L << 62, 2}, null, 0, null, m));
            // No element at all, but the row-major strides of the other dimensions do not fit a long.
            invalid("contiguous strides", () -> create(new long[] {0, 1L << 62, 1L << 62}, null, 0, null, m));
            invalid("contiguous strides", () -> Tensor.contiguousStrides(new long[] {2, 1L << 62, 1L << 62}));
        }

        @Test
        void aViewWithAZeroDimensionHasNoElementsWhateverTheOrderOfItsDimensions() {
            DeviceMemory m = dev.device.malloc(64);
            // 2 * 2^62 overflows before the 0 is reached: the count is still exactly 0, not "more than 2^63".
            assertEquals(0, create(new long[] {2, 1L << 62, 0}, new long[] {1, 2, 1}, 0, null, m).numel());
            assertEquals(0, create(new long[] {0, 1L << 62, 2}, new long[] {1, 2, 1}, 0, null, m).numel());
            assertEquals(0, Tensor.placeholder(new long[] {2, 1L << 62, 0}, DataType.FLOAT, Format.ND).numel());
            assertEquals(0, create(new long[] {0}, null, 0, new long[] {1L << 62, 4, 0}, m).numel());
        }

        @Test
        void zeroSizeMemoryHoldsOnlyEmptyViews() {
            DeviceMemory empty = dev.device.wrap(MemorySegment.ofArray(new byte[0]));
            assertEquals(0, empty.size());
            assertEquals(0, create(new long[] {0, 3}, null, 0, null, empty).numel());
            invalid("does not fit in its device memory of 0 bytes", () -> create(new long[] {1}, null, 0, null, empty));
            invalid("does not fit", () -> create(new long[] {0, 3}, null, 1, null, empty));
        }

        @Test
        void hugeOffsetsAreRefusedAlsoForEmptyViews() {
            DeviceMemory m = dev.device.malloc(64);
            invalid("exceeds 2^63 bytes", () -> create(new long[] {0}, null, Long.MAX_VALUE, null, m));
            invalid("does not fit", () -> create(new long[] {0}, null, 1L << 40, null, m));
            invalid("storageOffset must be >= 0", () -> create(new long[] {1}, null, Long.MIN_VALUE, null, m));
        }

        @Test
        void dimensionAndArrayIndicesAreChecked() {
            Tensor t = create(new long[] {1, 2, 3}, null, 0, null, dev.device.malloc(24));
            invalid("Dimension 3 is out of range", () -> t.size(3));
            invalid("Dimension -1 is out of range", () -> t.stride(-1));
            IntArray a = IntArray.of(5);
            invalid("Index 1 is out of range for an IntArray of size 1", () -> a.get(1));
        }
    }

    @Nested
    class Placeholders {
        @Test
        void aPlaceholderIsValidatedByPhase1AndRefusedByPhase2() {
            Tensor gradOut = dev.tensor(new long[] {1, 1, 3}, DataType.FLOAT, new float[] {1, 2, 3});
            Tensor out = Tensor.placeholder(new long[] {1, 1, 6}, DataType.FLOAT, Format.ND);
            assertTrue(out.isPlaceholder());
            assertEquals(6, out.numel());
            WorkspaceAndExecutor p = UpsampleLinear1dBackward.getWorkspaceSize(gradOut, IntArray.of(3), IntArray.of(1, 1, 6),
                    true, 0.5, out);
            invalid("placeholder without device memory",
                    () -> UpsampleLinear1dBackward.run(null, p.workspaceSize(), p.executor(), dev.stream));
            invalid("placeholder without device memory", out::segment);
            // Refused before queueing, so the executor is still unused.
            assertTrue(!p.executor().isLaunched());
        }

        @Test
        void placeholdersFollowTheShapeRulesOfRealTensors() {
            assertEquals(1L << 60, Tensor.placeholder(new long[] {1L << 20, 1L << 20, 1L << 20}, DataType.BF16, Format.ND).numel());
            invalid("more than 2^63 elements",
                    () -> Tensor.placeholder(new long[] {1L << 40, 1L << 40}, DataType.FLOAT, Format.ND));
            invalid("must be >= 0", () -> Tensor.placeholder(new long[] {-1}, DataType.FLOAT, Format.ND));
            invalid("at most 8 dimensions", () -> Tensor.placeholder(new long[9], DataType.FLOAT, Format.ND));
            assertEquals(MemorySegment.NULL, Tensor.placeholder(new long[] {0, 4}, DataType.FLOAT, Format.ND).segment());
        }
    }

    /** The sample of SPEC §8 in one memory: gradOut [1, 2, 3] at elements {@code g..g+2}, out (6) at {@code o..o+5}. */
    private WorkspaceAndExecutor sampleInOneMemory(DeviceMemory m, long g, long[] gStrides, long o, long[] oStrides) {
        MemorySegment seg = m.segment();
        Tensor gradOut = create(new long[] {1, 1, 3}, gStrides, g, null, m);
        for (int j = 0; j < 3; j++) {
            seg.set(ValueLayout.JAVA_FLOAT_UNALIGNED, (g + j * gStrides[2]) * 4, j + 1);
        }
        Tensor out = create(new long[] {1, 1, 6}, oStrides, o, null, m);
        return UpsampleLinear1dBackward.getWorkspaceSize(gradOut, IntArray.of(3), IntArray.of(1, 1, 6), true, 0.5, out);
    }

    @Nested
    class Overlap {
        final long[] dense = {6, 6, 1};

        @Test
        void outInTheSameMemoryAfterGradOutIsComputedCorrectly() {
            DeviceMemory m = dev.device.malloc(9 * 4);
            WorkspaceAndExecutor p = sampleInOneMemory(m, 0, new long[] {3, 3, 1}, 3, dense);
            UpsampleLinear1dBackward.run(null, p.workspaceSize(), p.executor(), dev.stream);
            dev.stream.synchronize();
            float[] all = m.segment().toArray(ValueLayout.JAVA_FLOAT);
            assertArrayEquals(new float[] {1, 2, 3, 1, 0, 1, 1, 0, 3}, all, "gradOut kept, out = SPEC §8's result");
        }

        @Test
        void outOverlappingGradOutIsRefusedNamingBoth() {
            DeviceMemory m = dev.device.malloc(9 * 4);
            invalid("Tensor out shares memory with gradOut", () -> sampleInOneMemory(m, 0, new long[] {3, 3, 1}, 2, dense));
            invalid("must not share memory with gradOut", () -> sampleInOneMemory(m, 6, new long[] {3, 3, 1}, 1, dense));
        }

        @Test
        void inPlaceIsRefused() {
            Tensor t = dev.tensor(new long[] {1, 2, 4}, DataType.FLOAT16, new float[8]);
            invalid("Tensor out shares memory with gradOut", () -> UpsampleLinear1dBackward.getWorkspaceSize(t, IntArray.of(4),
                    IntArray.of(1, 2, 4), false, 0, t));
        }

        @Test
        void interleavedViewsAreRefusedToo() {
            // gradOut on even elements 0..4, out on odd elements 1..11: no element shared, but the ranges intersect,
            // and the rule (documented in Checks.outputMemoryDisjoint) compares ranges.
            DeviceMemory m = dev.device.malloc(12 * 4);
            invalid("shares memory", () -> sampleInOneMemory(m, 0, new long[] {6, 6, 2}, 1, new long[] {12, 12, 2}));
        }

        @Test
        void aliasesThroughTwoWrapsOfOneSegmentAreFound() {
            try (Arena arena = Arena.ofShared()) {
                MemorySegment seg = arena.allocate(9 * 4);
                DeviceMemory a = dev.device.wrap(seg);
                DeviceMemory b = dev.device.wrap(seg.asSlice(8));
                Tensor gradOut = create(new long[] {1, 1, 3}, null, 0, null, a);
                Tensor out = create(new long[] {1, 1, 6}, null, 0, null, b);
                invalid("shares memory", () -> UpsampleLinear1dBackward.getWorkspaceSize(gradOut, IntArray.of(3),
                        IntArray.of(1, 1, 6), true, 0.5, out));
                // Heap memory of two different arrays is not confused with each other, though their offsets match.
                Tensor heapGradOut = create(new long[] {1, 1, 3}, null, 0, null, dev.device.wrap(MemorySegment.ofArray(new float[3])));
                Tensor heapOut = create(new long[] {1, 1, 6}, null, 0, null, dev.device.wrap(MemorySegment.ofArray(new float[6])));
                UpsampleLinear1dBackward.getWorkspaceSize(heapGradOut, IntArray.of(3), IntArray.of(1, 1, 6), true, 0.5, heapOut);
            }
        }

        @Test
        void anOutThatOverlapsItselfIsRefused() {
            Tensor gradOut = dev.tensor(new long[] {2, 1, 3}, DataType.FLOAT, new float[6]);
            IntArray outputSize = IntArray.of(3);
            IntArray inputSize = IntArray.of(2, 1, 6);
            Tensor broadcast = create(new long[] {2, 1, 6}, new long[] {0, 6, 1}, 0, null, dev.device.malloc(6 * 4));
            invalid("Tensor out overlaps itself (shape [2, 1, 6], strides [0, 6, 1])",
                    () -> UpsampleLinear1dBackward.getWorkspaceSize(gradOut, outputSize, inputSize, true, 0.5, broadcast));
            Tensor rowsOverlap = create(new long[] {2, 1, 6}, new long[] {3, 3, 1}, 0, null, dev.device.malloc(9 * 4));
            invalid("overlaps itself",
                    () -> UpsampleLinear1dBackward.getWorkspaceSize(gradOut, outputSize, inputSize, true, 0.5, rowsOverlap));
            // Transposed and padded outs are fine.
            Tensor transposed = create(new long[] {2, 1, 6}, new long[] {1, 12, 2}, 0, null, dev.device.malloc(12 * 4));
            UpsampleLinear1dBackward.getWorkspaceSize(gradOut, outputSize, inputSize, true, 0.5, transposed);
            Tensor padded = create(new long[] {2, 1, 6}, new long[] {9, 9, 1}, 0, null, dev.device.malloc(15 * 4));
            UpsampleLinear1dBackward.getWorkspaceSize(gradOut, outputSize, inputSize, true, 0.5, padded);
        }

        @Test
        void aBroadcastGradOutIsAnAllowedInput() {
            Tensor gradOut = create(new long[] {2, 3, 3}, new long[] {0, 0, 1}, 0, null, dev.device.malloc(3 * 4));
            gradOut.segment().copyFrom(MemorySegment.ofArray(new float[] {1, 2, 3}));
            Tensor out = dev.tensor(new long[] {2, 3, 6}, DataType.FLOAT, new float[36]);
            WorkspaceAndExecutor p = UpsampleLinear1dBackward.getWorkspaceSize(gradOut, IntArray.of(3), IntArray.of(2, 3, 6),
                    true, 0.5, out);
            UpsampleLinear1dBackward.run(null, p.workspaceSize(), p.executor(), dev.stream);
            dev.stream.synchronize();
            double[] got = TestDevice.read(out);
            for (int row = 0; row < 6; row++) {
                assertArrayEquals(new double[] {1, 0, 1, 1, 0, 3}, java.util.Arrays.copyOfRange(got, row * 6, row * 6 + 6));
            }
        }
    }

    /**
     * The same rule in the sister operators (their last phase-1 check, after SPEC's): an out that shares memory
     * with the input or overlaps itself is refused naming both; an out beside the input in one memory computes.
     */
    @Nested
    class SisterOperators {
        /** A tensor of {@code shape} at element {@code offset} of {@code m}, contiguous unless {@code strides} are given. */
        Tensor in(DeviceMemory m, long[] shape, long[] strides, long offset, Format format) {
            return Tensor.create(shape, DataType.FLOAT, strides, offset, format, null, m);
        }

        void fill(DeviceMemory m, long offset, float... values) {
            for (int k = 0; k < values.length; k++) {
                m.segment().set(ValueLayout.JAVA_FLOAT_UNALIGNED, (offset + k) * 4, values[k]);
            }
        }

        WorkspaceAndExecutor linear1d(Tensor self, Tensor out) {
            return UpsampleLinear1d.getWorkspaceSize(self, IntArray.of(5), true, 0, out);
        }

        WorkspaceAndExecutor bilinear2d(Tensor self, Tensor out) {
            return UpsampleBilinear2d.getWorkspaceSize(self, IntArray.of(3, 3), true, 0, 0, out);
        }

        WorkspaceAndExecutor bilinear2dBackward(Tensor gradOut, Tensor out) {
            return UpsampleBilinear2dBackwardV2.getWorkspaceSize(gradOut, IntArray.of(3, 3), IntArray.of(1, 1, 2, 2), true, 0, 0,
                    out);
        }

        @Test
        void linear1dRefusesAnOutOverlappingSelfOrItselfAndComputesBesideIt() {
            // self [1, 2, 3] -> 5 with alignCorners: [1, 1.5, 2, 2.5, 3].
            DeviceMemory m = dev.device.malloc(8 * 4);
            fill(m, 0, 1, 2, 3);
            Tensor self = in(m, new long[] {1, 1, 3}, null, 0, Format.ND);
            invalid("Tensor out shares memory with self", () -> linear1d(self, in(m, new long[] {1, 1, 5}, null, 2, Format.ND)));
            invalid("Tensor out shares memory with self", () -> UpsampleLinear1d.getWorkspaceSize(self, IntArray.of(3), true, 0,
                    self));
            Tensor broadcast = create(new long[] {2, 1, 5}, new long[] {0, 5, 1}, 0, null, dev.device.malloc(5 * 4));
            Tensor twoRows = dev.tensor(new long[] {2, 1, 3}, DataType.FLOAT, new float[6]);
            invalid("Tensor out overlaps itself", () -> UpsampleLinear1d.getWorkspaceSize(twoRows, IntArray.of(5), true, 0, broadcast));
            WorkspaceAndExecutor p = linear1d(self, in(m, new long[] {1, 1, 5}, null, 3, Format.ND));
            UpsampleLinear1d.run(null, p.workspaceSize(), p.executor(), dev.stream);
            dev.stream.synchronize();
            assertArrayEquals(new float[] {1, 2, 3, 1, 1.5f, 2, 2.5f, 3}, m.segment().toArray(ValueLayout.JAVA_FLOAT));
        }

        @Test
        void bilinear2dRefusesAnOutOverlappingSelfOrItselfAndComputesBesideIt() {
            // self [[1, 2], [3, 4]] -> 3 x 3 with alignCorners: [[1, 1.5, 2], [2, 2.5, 3], [3, 3.5, 4]].
            DeviceMemory m = dev.device.malloc(13 * 4);
            fill(m, 0, 1, 2, 3, 4);
            Tensor self = in(m, new long[] {1, 1, 2, 2}, null, 0, Format.NCHW);
            invalid("Tensor out shares memory with self", () -> bilinear2d(self, in(m, new long[] {1, 1, 3, 3}, null, 3,
                    Format.NCHW)));
            Tensor selfNhwc = in(m, new long[] {1, 2, 2, 1}, null, 0, Format.NHWC);
            invalid("Tensor out shares memory with self", () -> UpsampleBilinear2d.getWorkspaceSize(selfNhwc, IntArray.of(2, 2),
                    false, 0, 0, selfNhwc));
            Tensor broadcast = create(new long[] {1, 2, 3, 3}, new long[] {9, 0, 3, 1}, 0, null, dev.device.malloc(9 * 4));
            Tensor twoChannels = dev.tensor(new long[] {1, 2, 2, 2}, DataType.FLOAT, new float[8], Format.NCHW);
            invalid("Tensor out overlaps itself", () -> UpsampleBilinear2d.getWorkspaceSize(twoChannels, IntArray.of(3, 3), true,
                    0, 0, broadcast));
            WorkspaceAndExecutor p = bilinear2d(self, in(m, new long[] {1, 1, 3, 3}, null, 4, Format.NCHW));
            UpsampleBilinear2d.run(null, p.workspaceSize(), p.executor(), dev.stream);
            dev.stream.synchronize();
            assertArrayEquals(new float[] {1, 2, 3, 4, 1, 1.5f, 2, 2, 2.5f, 3, 3, 3.5f, 4},
                    m.segment().toArray(ValueLayout.JAVA_FLOAT));
        }

        @Test
        void bilinear2dBackwardRefusesAnOutOverlappingGradOutOrItselfAndComputesBesideIt() {
            // gradOut of ones (3 x 3) -> 2 x 2 with alignCorners: each axis spreads [1, 1, 1] as [1.5, 1.5]: 2.25 each.
            DeviceMemory m = dev.device.malloc(13 * 4);
            fill(m, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1);
            Tensor gradOut = in(m, new long[] {1, 1, 3, 3}, null, 0, Format.NCHW);
            invalid("Tensor out shares memory with gradOut", () -> bilinear2dBackward(gradOut, in(m, new long[] {1, 1, 2, 2}, null,
                    8, Format.NCHW)));
            invalid("Tensor out shares memory with gradOut", () -> UpsampleBilinear2dBackwardV2.getWorkspaceSize(gradOut,
                    IntArray.of(3, 3), IntArray.of(1, 1, 3, 3), false, 0, 0, gradOut));
            Tensor rowsOverlap = create(new long[] {1, 1, 2, 2}, new long[] {4, 4, 1, 1}, 0, null, dev.device.malloc(3 * 4));
            Tensor another = dev.tensor(new long[] {1, 1, 3, 3}, DataType.FLOAT, new float[9], Format.NCHW);
            invalid("Tensor out overlaps itself", () -> bilinear2dBackward(another, rowsOverlap));
            WorkspaceAndExecutor p = bilinear2dBackward(gradOut, in(m, new long[] {1, 1, 2, 2}, null, 9, Format.NCHW));
            UpsampleBilinear2dBackwardV2.run(null, p.workspaceSize(), p.executor(), dev.stream);
            dev.stream.synchronize();
            assertArrayEquals(new float[] {1, 1, 1, 1, 1, 1, 1, 1, 1, 2.25f, 2.25f, 2.25f, 2.25f},
                    m.segment().toArray(ValueLayout.JAVA_FLOAT));
        }
    }
}
