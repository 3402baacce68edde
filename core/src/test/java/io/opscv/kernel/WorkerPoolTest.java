package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

class WorkerPoolTest {

    @Test
    void everyTaskRunsExactlyOnceOnEveryCall() {
        try (WorkerPool pool = new WorkerPool(3)) {
            for (int call = 0; call < 200; call++) {
                int tasks = 1 + call % 37;
                AtomicIntegerArray runs = new AtomicIntegerArray(tasks);
                pool.forEach(tasks, (task, slot) -> {
                    assertTrue(slot >= 0 && slot < 3, "slot " + slot);
                    runs.incrementAndGet(task);
                });
                for (int t = 0; t < tasks; t++) {
                    assertEquals(1, runs.get(t), "call " + call + ", task " + t);
                }
            }
        }
    }

    @Test
    void theFirstFailureIsRethrownAfterTheOtherTasksRan() {
        try (WorkerPool pool = new WorkerPool(2)) {
            AtomicIntegerArray runs = new AtomicIntegerArray(50);
            IllegalStateException boom = new IllegalStateException("task 7 failed");
            IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> pool.forEach(50, (task, slot) -> {
                runs.incrementAndGet(task);
                if (task == 7) {
                    throw boom;
                }
            }));
            assertSame(boom, thrown);
            for (int t = 0; t < 50; t++) {
                assertEquals(1, runs.get(t), "task " + t);
            }
        }
    }

    @Test
    void aLoopStartedWhileAnotherRunsCompletesOnItsCaller() throws Exception {
        try (WorkerPool pool = new WorkerPool(2)) {
            CountDownLatch inside = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Thread first = Thread.ofPlatform().start(() -> pool.forEach(2, (task, slot) -> {
                inside.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
            inside.await();
            AtomicIntegerArray runs = new AtomicIntegerArray(10);
            pool.forEach(10, (task, slot) -> {
                assertEquals(0, slot, "runs inline on the caller");
                runs.incrementAndGet(task);
            });
            for (int t = 0; t < 10; t++) {
                assertEquals(1, runs.get(t));
            }
            release.countDown();
            first.join();
        }
    }

    @Test
    void aClosedPoolRunsLoopsOnTheCaller() {
        WorkerPool pool = new WorkerPool(4);
        pool.close();
        AtomicIntegerArray runs = new AtomicIntegerArray(5);
        pool.forEach(5, (task, slot) -> runs.incrementAndGet(task));
        for (int t = 0; t < 5; t++) {
            assertEquals(1, runs.get(t));
        }
    }

    @Test
    void parallelismBelowOneIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new WorkerPool(0));
        assertTrue(e.getMessage().contains("parallelism (0)"), e.getMessage());
    }
}
