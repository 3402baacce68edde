package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.junit.jupiter.api.Assertions.assertNotSame;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
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
            AtomicIntegerArray runs = new AtomicIntegerArray(10);
            whileAnotherCallRuns(pool, () -> pool.forEach(10, (task, slot) -> {
                assertEquals(0, slot, "runs inline on the caller");
                runs.incrementAndGet(task);
            }));
            for (int t = 0; t < 10; t++) {
                assertEquals(1, runs.get(t));
            }
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

    /** Runs {@code body} while a call from another thread holds the pool. */
    private static void whileAnotherCallRuns(WorkerPool pool, Runnable body) throws InterruptedException {
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
        try {
            body.run();
        } finally {
            release.countDown();
            first.join();
        }
    }

    /** The arrays every thread's scratch of one call took, each scratch asking for {@code sizes}. */
    private static Set<float[]> scratchArrays(WorkerPool pool, int tasks, boolean inline, int... sizes) {
        Set<float[]> arrays = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
        pool.forEach(tasks, inline, b -> {
            for (int n : sizes) {
                float[] a = b.floats(n);
                assertTrue(a.length >= n, a.length + " floats for " + n);
                assertTrue(arrays.add(a), "an array lent twice in one call");
            }
            return b;
        }, (task, b) -> { });
        return arrays;
    }

    @Test
    void aCallGetsTheScratchArraysTheLastCallOfTheSameSizesHad() {
        try (WorkerPool pool = new WorkerPool(2)) {
            Set<float[]> first = scratchArrays(pool, 1, true, 5000, 300, 300);
            Set<float[]> second = scratchArrays(pool, 1, true, 5000, 300, 300);
            assertEquals(first, second);
            // A call asking for more than was kept gets new arrays where nothing kept is large enough.
            Set<float[]> third = scratchArrays(pool, 1, true, 5000, 300, 300, 9000);
            assertTrue(third.containsAll(first));
            assertEquals(4, third.size());
            // A parallel call's threads each make one scratch, slot 0's from the arrays the caller kept.
            Set<float[]> parallel = scratchArrays(pool, 64, false, 700);
            assertTrue(parallel.size() <= 2, parallel.size() + " arrays");
        }
    }

    @Test
    void keptArraysStayWithinTheBoundAndAreHandedBackPoisonedInTests() {
        Buffers b = new Buffers(2000);
        float[] big = b.floats(900);
        float[] small = b.floats(80);
        big[0] = 1f;
        small[3] = 2f;
        b.release();
        assertTrue(b.keptBytes() <= 2000, b.keptBytes() + " bytes kept");
        assertEquals(320, b.keptBytes(), "the largest array is dropped first");
        assertSame(small, b.floats(10), "the smallest array that holds a request");
        assertNotSame(small, b.floats(10), "an array is lent once a call");
        // The build's tests run with -Dopscv.poisonBuffers=true: a kernel reading scratch it never wrote shows NaN.
        assertTrue(Buffers.POISON, "the test JVM runs without -Dopscv.poisonBuffers=true");
        assertTrue(Float.isNaN(small[3]), "a released array is poisoned");
        float[] fresh = Buffers.FRESH.floats(16);
        Buffers.FRESH.release();
        assertNotSame(fresh, Buffers.FRESH.floats(16), "FRESH keeps nothing");
        assertEquals(0, Buffers.FRESH.keptBytes());
    }

    @Test
    void aCallBesideAnotherKeepsNothing() throws Exception {
        try (WorkerPool pool = new WorkerPool(2)) {
            whileAnotherCallRuns(pool, () -> pool.forEach(3, false, b -> {
                assertSame(Buffers.FRESH, b, "a concurrent call must not share a slot's kept arrays");
                return b;
            }, (task, b) -> { }));
            // Nor does a call nested in a task of the caller's own.
            pool.forEach(1, true, outer -> outer, (task, outer) -> pool.forEach(1, true, inner -> {
                assertSame(Buffers.FRESH, inner, "a nested call must not take its caller's slot");
                return inner;
            }, (t, inner) -> { }));
        }
    }
}
