package io.opscv.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.runtime.AclnnException;
import io.opscv.runtime.AclnnStatus;
import io.opscv.runtime.DataType;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Tensor;
import io.opscv.testing.TestDevice;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Phase 2 runs a plan on pinned memory: its kernels may use raw addresses, and a free waits for the plan. */
class ExecutorPinningTest {

    /** A step that records whether its tensor's memory is held, and tries to free it meanwhile. */
    private static final class FreeDuringRun implements PlanStep {
        final Tensor tensor;
        final AtomicBoolean held = new AtomicBoolean();
        final AtomicBoolean freeWaited = new AtomicBoolean();
        final AtomicReference<Thread> free = new AtomicReference<>();

        FreeDuringRun(Tensor tensor) {
            this.tensor = tensor;
        }

        @Override
        public String name() {
            return "FreeDuringRun";
        }

        @Override
        public String describe() {
            return name();
        }

        @Override
        public void run(MemorySegment workspace) {
            held.set(tensor.segment().scope().isAlive());
            Thread t = Thread.ofPlatform().start(tensor.memory()::close);
            free.set(t);
            try {
                t.join(300);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            freeWaited.set(t.isAlive());
        }
    }

    @Test
    void theRunHoldsItsMemoryAndAFreeDuringItWaitsForTheEnd() throws InterruptedException {
        try (TestDevice dev = new TestDevice()) {
            Tensor t = dev.tensor(new long[] {4}, DataType.FLOAT, new float[4]);
            DeviceMemory memory = t.memory();
            MemorySegment segment = memory.segment();
            FreeDuringRun step = new FreeDuringRun(t);
            Executor executor = new Executor("aclnnProbe", Platform.CPU, List.of(step), List.of(t));
            Executor.launch("aclnnProbe", null, 0, executor, dev.stream);
            dev.stream.synchronize();
            assertTrue(step.held.get(), "the plan's memory was not alive while it ran");
            assertTrue(step.freeWaited.get(), "aclrtFree returned while the plan was running on the memory");
            step.free.get().join(10_000);
            assertTrue(memory.isFreed());
            assertFalse(segment.scope().isAlive(), "the free went on once the plan had finished");
        }
    }

    @Test
    void memoryFreedBeforeTheRunFailsItWithoutTouchingTheMemory() {
        try (TestDevice dev = new TestDevice()) {
            Tensor t = dev.tensor(new long[] {4}, DataType.FLOAT, new float[4]);
            AtomicBoolean ran = new AtomicBoolean();
            CountDownLatch gate = new CountDownLatch(1);
            // The stream is kept busy until the memory is freed, so the plan starts after the free.
            dev.stream.launch(() -> {
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            PlanStep step = new PlanStep() {
                @Override
                public String name() {
                    return "Probe";
                }

                @Override
                public String describe() {
                    return name();
                }

                @Override
                public void run(MemorySegment workspace) {
                    ran.set(true);
                }
            };
            Executor executor = new Executor("aclnnProbe", Platform.CPU, List.of(step), List.of(t));
            Executor.launch("aclnnProbe", null, 0, executor, dev.stream);
            t.memory().close();
            gate.countDown();
            AclnnException e = assertThrows(AclnnException.class, dev.stream::synchronize);
            assertEquals(AclnnStatus.ERR_PARAM_INVALID, e.status());
            assertTrue(e.getMessage().contains("before the stream ran it"), e.getMessage());
            assertFalse(ran.get());
        }
    }
}
