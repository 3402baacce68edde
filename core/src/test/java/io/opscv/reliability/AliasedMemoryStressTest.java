package io.opscv.reliability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.op.UpsampleLinear1dBackward;
import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.runtime.AclRuntime;
import io.opscv.runtime.AclnnException;
import io.opscv.runtime.AclnnStatus;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Device;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * Wrapped memory that aliases {@code malloc} memory, used by two streams at once, and freed while they
 * run: every plan gives the right answer or a status, never a JVM crash (kernels touch memory only through
 * the tensors' segments, whose accesses the JDK checks), and a valid program never gets a status.
 *
 * <p>Layout of the 16 MiB block: gradOut's values in the first 8 MiB, read by both streams (stream 1
 * through a strided view of the block, stream 2 through a contiguous view of a wrap of it); stream 1's out
 * at 8 MiB, stream 2's at 10 MiB (in the wrap).
 */
class AliasedMemoryStressTest {
    private static final long MIB = 1 << 20;
    private static final int PLANS_1 = 40;
    private static final int PLANS_2 = 80;

    /** The two streams' calls on one block and its alias. */
    private static final class Scenario implements AutoCloseable {
        final AclRuntime acl = AclRuntime.init();
        final Device device = acl.setDevice(0);
        final Stream one = device.createStream();
        final Stream two = device.createStream();
        final DeviceMemory block = device.malloc(16 * MIB);
        final DeviceMemory alias = device.wrap(block.segment());
        final Tensor stridedGradOut;
        final Tensor out1;
        final Tensor gradOut2;
        final Tensor out2;

        Scenario() {
            MemorySegment s = block.segment();
            Random random = new Random(23);
            for (long e = 0; e < 2 * MIB; e++) {
                s.setAtIndex(ValueLayout.JAVA_FLOAT, e, (float) random.nextGaussian());
            }
            // (4, 16, 16384) reading every other float of the first 8 MiB; out (4, 16, 8192) at 8 MiB.
            stridedGradOut = Tensor.create(new long[] {4, 16, 16384}, DataType.FLOAT, new long[] {16 * 32768, 32768, 2},
                    0, Format.ND, new long[] {4 * MIB}, block);
            out1 = Tensor.create(new long[] {4, 16, 8192}, DataType.FLOAT, new long[] {16 * 8192, 8192, 1}, 2 * MIB,
                    Format.ND, new long[] {4 * MIB}, block);
            // (8, 16, 16384) contiguous over the same 8 MiB of the wrap; out (8, 16, 8192) at 10 MiB.
            gradOut2 = Tensor.create(new long[] {8, 16, 16384}, DataType.FLOAT, Format.ND, alias);
            out2 = Tensor.create(new long[] {8, 16, 8192}, DataType.FLOAT, new long[] {16 * 8192, 8192, 1},
                    2 * MIB + MIB / 2, Format.ND, new long[] {4 * MIB}, alias);
        }

        void launch(Tensor gradOut, Tensor out, Stream stream) {
            long[] shape = out.shape();
            WorkspaceAndExecutor p = UpsampleLinear1dBackward.getWorkspaceSize(gradOut, IntArray.of(gradOut.shape()[2]),
                    IntArray.of(shape[0], shape[1], shape[2]), false, 0, out);
            UpsampleLinear1dBackward.run(null, 0, p.executor(), stream);
        }

        float[] read(Tensor t, long firstFloat, int count) {
            float[] values = new float[count];
            MemorySegment.copy(block.segment(), ValueLayout.JAVA_FLOAT, firstFloat * 4, values, 0, count);
            return values;
        }

        @Override
        public void close() {
            one.close();
            two.close();
            block.close();
            device.close();
            acl.close();
        }
    }

    @Test
    void twoStreamsOnABlockAndItsWrapGetTheRightAnswerAndNoStatus() {
        try (Scenario s = new Scenario()) {
            s.launch(s.stridedGradOut, s.out1, s.one);
            s.launch(s.gradOut2, s.out2, s.two);
            s.one.synchronize();
            s.two.synchronize();
            float[] expected1 = s.read(s.out1, 2 * MIB, 4 * 16 * 8192);
            float[] expected2 = s.read(s.out2, 2 * MIB + MIB / 2, 8 * 16 * 8192);
            for (int round = 0; round < 3; round++) {
                for (int k = 0; k < Math.max(PLANS_1, PLANS_2); k++) {
                    if (k < PLANS_1) {
                        s.launch(s.stridedGradOut, s.out1, s.one);
                    }
                    if (k < PLANS_2) {
                        s.launch(s.gradOut2, s.out2, s.two);
                    }
                }
                // A valid program: no status on either stream.
                s.one.synchronize();
                s.two.synchronize();
                assertArrayEquals(expected1, s.read(s.out1, 2 * MIB, expected1.length), "stream 1, round " + round);
                assertArrayEquals(expected2, s.read(s.out2, 2 * MIB + MIB / 2, expected2.length), "stream 2, round " + round);
            }
        }
    }

    /** The scenario, the block freed at a random moment while both streams run; repeated for races. */
    @RepeatedTest(6)
    void freeingTheBlockWhileBothStreamsRunGivesStatusesNeverACrash() throws InterruptedException {
        Scenario s = new Scenario();
        try {
            for (int k = 0; k < PLANS_2; k++) {
                if (k < PLANS_1) {
                    s.launch(s.stridedGradOut, s.out1, s.one);
                }
                s.launch(s.gradOut2, s.out2, s.two);
            }
            Thread.sleep(new Random().nextInt(40));
            s.block.close();
            for (Stream stream : new Stream[] {s.one, s.two}) {
                try {
                    stream.synchronize();
                } catch (AclnnException e) {
                    // The plans queued or running on freed memory report it as a status.
                    assertEquals(AclnnStatus.ERR_PARAM_INVALID, e.status(), e.getMessage());
                    assertTrue(e.getMessage().contains("freed"), e.getMessage());
                }
            }
        } finally {
            s.close();
        }
    }
}
