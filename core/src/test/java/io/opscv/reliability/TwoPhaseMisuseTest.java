package io.opscv.reliability;

import static io.opscv.reliability.MemorySafetyTest.invalid;
import static io.opscv.reliability.MemorySafetyTest.refused;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.op.UpsampleBilinear2d;
import io.opscv.op.UpsampleBilinear2dBackwardV2;
import io.opscv.op.UpsampleLinear1d;
import io.opscv.op.UpsampleLinear1dBackward;
import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.plan.Executor;
import io.opscv.plan.PlanStep;
import io.opscv.runtime.AclnnException;
import io.opscv.runtime.AclnnStatus;
import io.opscv.runtime.DataType;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;
import io.opscv.testing.TestDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.Pipe;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Misuse of the two-phase protocol (issue 6, item 3): each misuse is a status with a message, and
 * nothing is corrupted: the executor, the stream and the memory stay usable where they should.
 */
class TwoPhaseMisuseTest {
    private static final Duration LIMIT = Duration.ofSeconds(30);
    private final TestDevice dev = new TestDevice();

    @AfterEach
    void close() {
        dev.close();
    }

    /** SPEC §8's sample: gradOut [1, 2, 3], out of length 6, alignCorners, scales 0.5 -> 1, 0, 1, 1, 0, 3. */
    private final class Sample {
        final Tensor gradOut = dev.tensor(new long[] {1, 1, 3}, DataType.FLOAT, new float[] {1, 2, 3});
        final Tensor out = dev.tensor(new long[] {1, 1, 6}, DataType.FLOAT, new float[6]);
        final WorkspaceAndExecutor phase1 = UpsampleLinear1dBackward.getWorkspaceSize(gradOut, IntArray.of(3),
                IntArray.of(1, 1, 6), true, 0.5, out);

        void run(Stream stream) {
            UpsampleLinear1dBackward.run(null, phase1.workspaceSize(), phase1.executor(), stream);
        }

        void assertComputed() {
            assertArrayEquals(new double[] {1, 0, 1, 1, 0, 3}, TestDevice.read(out));
        }
    }

    @Test
    void phase2BeforePhase1HasNoExecutor() {
        refused(AclnnStatus.ERR_PARAM_NULLPTR,
                "got null for argument executor (call aclnnUpsampleLinear1dBackwardGetWorkspaceSize first)",
                () -> UpsampleLinear1dBackward.run(null, 0, null, dev.stream));
    }

    @Test
    void aMissingStreamIsNullptrAndTheExecutorStaysUnused() {
        Sample s = new Sample();
        refused(AclnnStatus.ERR_PARAM_NULLPTR, "argument stream", () -> s.run(null));
        s.run(dev.stream);
        dev.stream.synchronize();
        s.assertComputed();
    }

    @Test
    void anExecutorRunsOnceOnly() {
        Sample s = new Sample();
        s.run(dev.stream);
        invalid("single-use", () -> s.run(dev.stream));
        dev.stream.synchronize();
        s.assertComputed();
    }

    @Test
    void anExecutorOfAnotherOperatorIsRefused() {
        Sample s = new Sample();
        invalid("built by aclnnUpsampleLinear1dBackwardGetWorkspaceSize and cannot be run by aclnnUpsampleLinear1d",
                () -> Executor.launch("aclnnUpsampleLinear1d", null, 0, s.phase1.executor(), dev.stream));
        assertFalse(s.phase1.executor().isLaunched());
    }

    /** Phase 1 and phase 2 of one operator, on small tensors of the test device. */
    private record Operator(String name, java.util.function.Function<TestDevice, Executor> phase1, Phase2 phase2) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** The phase-2 entry point of an operator. */
    private interface Phase2 {
        void run(DeviceMemory workspace, long workspaceSize, Executor executor, Stream stream);
    }

    private static List<Operator> operators() {
        return List.of(
                new Operator(UpsampleLinear1dBackward.NAME, d -> UpsampleLinear1dBackward.getWorkspaceSize(
                        d.tensor(new long[] {1, 1, 3}, DataType.FLOAT, new float[] {1, 2, 3}), IntArray.of(3), IntArray.of(1, 1, 6),
                        true, 0.5, d.tensor(new long[] {1, 1, 6}, DataType.FLOAT, new float[6])).executor(),
                        UpsampleLinear1dBackward::run),
                new Operator(UpsampleLinear1d.NAME, d -> UpsampleLinear1d.getWorkspaceSize(
                        d.tensor(new long[] {1, 1, 3}, DataType.FLOAT, new float[] {1, 2, 3}), IntArray.of(5), true, 0,
                        d.tensor(new long[] {1, 1, 5}, DataType.FLOAT, new float[5])).executor(), UpsampleLinear1d::run),
                new Operator(UpsampleBilinear2dBackwardV2.NAME, d -> UpsampleBilinear2dBackwardV2.getWorkspaceSize(
                        d.tensor(new long[] {1, 1, 3, 3}, DataType.FLOAT, new float[9], Format.NCHW), IntArray.of(3, 3),
                        IntArray.of(1, 1, 2, 2), true, 0, 0, d.tensor(new long[] {1, 1, 2, 2}, DataType.FLOAT, new float[4],
                        Format.NCHW)).executor(), UpsampleBilinear2dBackwardV2::run),
                new Operator(UpsampleBilinear2d.NAME, d -> UpsampleBilinear2d.getWorkspaceSize(
                        d.tensor(new long[] {1, 1, 2, 2}, DataType.FLOAT, new float[4], Format.NCHW), IntArray.of(3, 3), true, 0, 0,
                        d.tensor(new long[] {1, 1, 3, 3}, DataType.FLOAT, new float[9], Format.NCHW)).executor(),
                        UpsampleBilinear2d::run));
    }

    @Test
    void everyOperatorRefusesPhase2BeforePhase1ASecondRunAndTheExecutorsOfTheOthers() {
        for (Operator op : operators()) {
            refused(AclnnStatus.ERR_PARAM_NULLPTR, "got null for argument executor (call " + op.name() + "GetWorkspaceSize first)",
                    () -> op.phase2().run(null, 0, null, dev.stream));
            for (Operator other : operators()) {
                if (other.name().equals(op.name())) {
                    continue;
                }
                Executor foreign = other.phase1().apply(dev);
                invalid("built by " + other.name() + "GetWorkspaceSize and cannot be run by " + op.name(),
                        () -> op.phase2().run(null, 0, foreign, dev.stream));
                assertFalse(foreign.isLaunched(), "the refusal left " + other + "'s executor unused");
                other.phase2().run(null, 0, foreign, dev.stream);
                dev.stream.synchronize();
                assertTrue(foreign.isLaunched());
            }
            Executor own = op.phase1().apply(dev);
            op.phase2().run(null, 0, own, dev.stream);
            invalid("single-use", () -> op.phase2().run(null, 0, own, dev.stream));
            dev.stream.synchronize();
        }
    }

    @Test
    void tensorsDestroyedOrFreedAfterPhase1AreRefused() {
        Sample destroyed = new Sample();
        destroyed.gradOut.close();
        invalid("destroyed or its memory freed after phase 1", () -> destroyed.run(dev.stream));
        Sample freed = new Sample();
        freed.out.memory().close();
        invalid("destroyed or its memory freed after phase 1", () -> freed.run(dev.stream));
    }

    @Test
    void aDestroyedStreamOrResetDeviceIsRefusedAndTheExecutorCanStillRun() {
        Sample s = new Sample();
        Stream other = dev.device.createStream();
        other.close();
        invalid("The stream was destroyed", () -> s.run(other));
        assertFalse(s.phase1.executor().isLaunched());
        s.run(dev.stream);
        dev.stream.synchronize();
        s.assertComputed();
        try (TestDevice second = new TestDevice()) {
            Stream stream = second.stream;
            second.device.close();
            invalid("destroyed", () -> new Sample().run(stream));
        }
    }

    /** A plan step that needs {@code bytes} of workspace: fills it with 7s and copies its last byte into out's first. */
    private record WorkspaceStep(long bytes, Tensor out) implements PlanStep {
        @Override
        public String name() {
            return "WorkspaceProbe";
        }

        @Override
        public String describe() {
            return bytes + " bytes";
        }

        @Override
        public long workspaceBytes() {
            return bytes;
        }

        @Override
        public void run(MemorySegment workspace) {
            workspace.asSlice(0, bytes).fill((byte) 7);
            out.segment().set(ValueLayout.JAVA_BYTE, 0, workspace.get(ValueLayout.JAVA_BYTE, bytes - 1));
        }
    }

    private Executor workspaceExecutor(Tensor out) {
        return new Executor(UpsampleLinear1dBackward.NAME, Platform.CPU, List.of(new WorkspaceStep(256, out)), List.of(out));
    }

    private void launch(DeviceMemory workspace, long size, Executor executor) {
        UpsampleLinear1dBackward.run(workspace, size, executor, dev.stream);
    }

    @Test
    void workspaceMissingSmallerNegativeOrFreedIsRefused() {
        Tensor out = dev.tensor(new long[] {4}, DataType.FLOAT, new float[4]);
        Executor e = workspaceExecutor(out);
        assertEquals(256, e.workspaceSize());
        refused(AclnnStatus.ERR_PARAM_NULLPTR, "workspace of 256 bytes but got null", () -> launch(null, 256, e));
        invalid("workspaceSize 255 is smaller than the 256 bytes", () -> launch(dev.device.malloc(256), 255, e));
        invalid("workspaceSize must be >= 0", () -> launch(dev.device.malloc(256), -1, e));
        invalid("is larger than the workspace, which has 128 bytes", () -> launch(dev.device.malloc(128), 256, e));
        DeviceMemory freed = dev.device.malloc(256);
        freed.close();
        invalid("The workspace was freed", () -> launch(freed, 256, e));
        assertFalse(e.isLaunched(), "every refusal left the executor unused");
        DeviceMemory workspace = dev.device.malloc(300);
        launch(workspace, 300, e);
        dev.stream.synchronize();
        assertEquals(7, out.segment().get(ValueLayout.JAVA_BYTE, 0));
    }

    /** Blocks the stream until the returned latch is counted down, so that what follows is queued but not run. */
    private CountDownLatch blockStream() {
        CountDownLatch release = new CountDownLatch(1);
        dev.stream.launch(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        return release;
    }

    @Test
    void memoryFreedAfterLaunchBeforeTheStreamRunsItIsAStatusAtSynchronize() {
        assertTimeoutPreemptively(LIMIT, () -> {
            Sample s = new Sample();
            CountDownLatch release = blockStream();
            s.run(dev.stream);
            s.out.memory().close();
            release.countDown();
            invalid("after aclnnUpsampleLinear1dBackward was queued, before the stream ran it", dev.stream::synchronize);
            // The stream goes on.
            Sample next = new Sample();
            next.run(dev.stream);
            dev.stream.synchronize();
            next.assertComputed();
        });
    }

    @Test
    void aWorkspaceFreedAfterLaunchIsAStatusAtSynchronize() {
        assertTimeoutPreemptively(LIMIT, () -> {
            Tensor out = dev.tensor(new long[] {4}, DataType.FLOAT, new float[4]);
            DeviceMemory workspace = dev.device.malloc(256);
            CountDownLatch release = blockStream();
            launch(workspace, 256, workspaceExecutor(out));
            workspace.close();
            release.countDown();
            invalid("The workspace was freed (aclrtFree) after", dev.stream::synchronize);
            assertEquals(0f, out.segment().get(ValueLayout.JAVA_FLOAT, 0), "nothing written");
        });
    }

    /** A step that signals when it runs, waits for {@code proceed}, then writes all of {@code out}. */
    private static PlanStep writerWaitingFor(Tensor out, CountDownLatch running, CountDownLatch proceed) {
        return new PlanStep() {
            @Override
            public String name() {
                return "FreedUnderfoot";
            }

            @Override
            public String describe() {
                return "";
            }

            @Override
            public void run(MemorySegment workspace) {
                MemorySegment seg = out.segment();
                running.countDown();
                try {
                    proceed.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                seg.fill((byte) 1);
            }
        };
    }

    @Test
    void aFreeWhileAStepRunsWaitsForTheStep() {
        assertTimeoutPreemptively(LIMIT, () -> {
            Tensor out = dev.tensor(new long[] {1 << 16}, DataType.FLOAT, new float[1 << 16]);
            MemorySegment memory = out.segment();
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch proceed = new CountDownLatch(1);
            Executor e = new Executor(UpsampleLinear1dBackward.NAME, Platform.CPU, List.of(writerWaitingFor(out, running,
                    proceed)), List.of(out));
            launch(null, 0, e);
            running.await();
            Thread free = Thread.ofPlatform().start(out.memory()::close);
            free.join(200);
            assertTrue(free.isAlive(), "aclrtFree went on under a running step");
            assertTrue(memory.scope().isAlive());
            proceed.countDown();
            dev.stream.synchronize();
            free.join();
            assertFalse(memory.scope().isAlive(), "freed once the step had finished");
        });
    }

    @Test
    void wrappedMemoryClosedByItsOwnerWhileAStepRunsIsAStatusNotACrash() {
        assertTimeoutPreemptively(LIMIT, () -> {
            Arena owner = Arena.ofShared();
            Tensor out = Tensor.create(new long[] {1 << 16}, DataType.FLOAT, Format.ND,
                    dev.device.wrap(owner.allocate(4L << 16)));
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch proceed = new CountDownLatch(1);
            Executor e = new Executor(UpsampleLinear1dBackward.NAME, Platform.CPU, List.of(writerWaitingFor(out, running,
                    proceed)), List.of(out));
            launch(null, 0, e);
            running.await();
            // The owner's arena is not ours to pin: closing it goes through, and the step's access fails cleanly.
            owner.close();
            proceed.countDown();
            AclnnException failure = assertThrows(AclnnException.class, dev.stream::synchronize);
            assertEquals(AclnnStatus.ERR_PARAM_INVALID, failure.status(), failure.getMessage());
            assertTrue(failure.getMessage().contains("while aclnnUpsampleLinear1dBackward ran on the stream"), failure.getMessage());
            assertFalse(out.isUsable());
        });
    }

    @Test
    void freeingDuringTheRealKernelGivesSuccessOrAStatusOnly() {
        assertTimeoutPreemptively(LIMIT, () -> {
            for (int k = 0; k < 20; k++) {
                Tensor gradOut = dev.tensor(new long[] {4, 16, 4096}, DataType.FLOAT16, new float[4 * 16 * 4096]);
                Tensor out = dev.tensor(new long[] {4, 16, 1500}, DataType.FLOAT16, new float[4 * 16 * 1500]);
                WorkspaceAndExecutor p = UpsampleLinear1dBackward.getWorkspaceSize(gradOut, IntArray.of(4096),
                        IntArray.of(4, 16, 1500), false, 0, out);
                UpsampleLinear1dBackward.run(null, 0, p.executor(), dev.stream);
                (k % 2 == 0 ? out : gradOut).memory().close();
                try {
                    dev.stream.synchronize();
                } catch (AclnnException e) {
                    assertEquals(AclnnStatus.ERR_PARAM_INVALID, e.status(), e.getMessage());
                    assertTrue(e.getMessage().contains("freed"), e.getMessage());
                }
            }
        });
    }

    @Test
    void aDestroyedTensorAfterLaunchFailsTheRunWithAStatus() {
        assertTimeoutPreemptively(LIMIT, () -> {
            Sample s = new Sample();
            CountDownLatch release = blockStream();
            s.run(dev.stream);
            s.gradOut.close();
            release.countDown();
            invalid("was destroyed", dev.stream::synchronize);
        });
    }

    @Test
    void freeingMemoryThatAnIoOperationHoldsIsRefusedAndTheMemoryStaysUsable() throws Exception {
        DeviceMemory memory = dev.device.malloc(64);
        Pipe pipe = Pipe.open();
        Thread[] readerThread = new Thread[1];
        ExecutorService reader = Executors.newSingleThreadExecutor(r -> readerThread[0] = new Thread(r, "pipe-reader"));
        try {
            Future<Integer> read = reader.submit(() -> pipe.source().read(memory.segment().asByteBuffer()));
            // Wait until the read blocks in the native call: the channel holds the memory's arena from then on.
            assertTimeoutPreemptively(LIMIT, () -> {
                while (readerThread[0] == null || java.util.Arrays.stream(readerThread[0].getStackTrace())
                        .noneMatch(f -> f.getMethodName().equals("read0"))) {
                    Thread.onSpinWait();
                }
            });
            refused(AclnnStatus.ERR_RUNTIME_ERROR, "an I/O operation on another thread is using it",
                    () -> memory.close());
            assertFalse(memory.isFreed());
            pipe.sink().write(java.nio.ByteBuffer.wrap(new byte[] {42}));
            assertEquals(1, read.get(30, TimeUnit.SECONDS));
            assertEquals(42, memory.segment().get(ValueLayout.JAVA_BYTE, 0), "the memory was not freed under the read");
            memory.close();
            assertTrue(memory.isFreed());
        } finally {
            reader.shutdownNow();
            pipe.source().close();
            pipe.sink().close();
        }
    }

    @Test
    void synchronizeFromATaskOfTheSameStreamIsRefusedInsteadOfWaitingForever() {
        assertTimeoutPreemptively(LIMIT, () -> {
            dev.stream.launch(dev.stream::synchronize);
            invalid("called from a task of the same stream", dev.stream::synchronize);
        });
    }

    @Test
    void anErrorInATaskIsAStatusAndTheStreamGoesOn() {
        assertTimeoutPreemptively(LIMIT, () -> {
            dev.stream.launch(() -> {
                throw new AssertionError("boom");
            });
            refused(AclnnStatus.ERR_RUNTIME_ERROR, "AssertionError: boom", () -> dev.stream.synchronize());
            Sample s = new Sample();
            s.run(dev.stream);
            dev.stream.synchronize();
            s.assertComputed();
        });
    }
}
