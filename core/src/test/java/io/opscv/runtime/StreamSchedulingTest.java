package io.opscv.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The spinning, lock-free stream keeps the contract: ordered, asynchronous, failures reported once. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StreamSchedulingTest {

    @Test
    void tasksRunInLaunchOrder() {
        try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0); Stream stream = device.createStream()) {
            List<Integer> seen = new ArrayList<>();
            for (int k = 0; k < 10_000; k++) {
                int task = k;
                stream.launch(() -> seen.add(task));
                if (k % 1000 == 999) {
                    stream.synchronize();
                    assertEquals(k + 1, seen.size());
                }
            }
            stream.synchronize();
            for (int k = 0; k < seen.size(); k++) {
                assertEquals(k, seen.get(k));
            }
        }
    }

    @Test
    void launchReturnsBeforeTheTaskRuns() throws InterruptedException {
        try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0); Stream stream = device.createStream()) {
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger done = new AtomicInteger();
            stream.launch(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                done.incrementAndGet();
            });
            stream.launch(done::incrementAndGet);
            assertEquals(0, done.get(), "launch must not wait for the work");
            release.countDown();
            stream.synchronize();
            assertEquals(2, done.get());
        }
    }

    @Test
    void synchronizeReportsTheFirstFailureOnceAndLaterWorkStillRuns() {
        try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0); Stream stream = device.createStream()) {
            AtomicInteger after = new AtomicInteger();
            stream.launch(() -> {
                throw AclnnException.invalid("first failure");
            });
            stream.launch(() -> {
                throw new IllegalStateException("second failure");
            });
            stream.launch(after::incrementAndGet);
            AclnnException e = assertThrows(AclnnException.class, stream::synchronize);
            assertEquals(AclnnStatus.ERR_PARAM_INVALID, e.status());
            assertTrue(e.getMessage().contains("first failure"), e.getMessage());
            assertEquals(1, after.get());
            stream.synchronize();
            stream.launch(() -> {
                throw new IllegalStateException("boom");
            });
            AclnnException runtime = assertThrows(AclnnException.class, stream::synchronize);
            assertEquals(AclnnStatus.ERR_RUNTIME_ERROR, runtime.status());
            assertTrue(runtime.getMessage().contains("boom"), runtime.getMessage());
        }
    }

    @Test
    void synchronizeAfterAnIdlePeriodWakesUp() throws InterruptedException {
        try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0); Stream stream = device.createStream()) {
            // Long enough for the stream thread to stop spinning and park.
            Thread.sleep(20);
            AtomicInteger done = new AtomicInteger();
            stream.launch(() -> {
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                done.incrementAndGet();
            });
            stream.synchronize();
            assertEquals(1, done.get());
        }
    }

    @Test
    void twoThreadsCanSynchronizeTheSameStream() throws InterruptedException {
        try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0); Stream stream = device.createStream()) {
            AtomicInteger done = new AtomicInteger();
            stream.launch(() -> {
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                done.incrementAndGet();
            });
            AtomicInteger seenByOther = new AtomicInteger(-1);
            Thread other = Thread.ofPlatform().start(() -> {
                stream.synchronize();
                seenByOther.set(done.get());
            });
            stream.synchronize();
            other.join();
            assertEquals(1, done.get());
            assertEquals(1, seenByOther.get());
        }
    }

    @Test
    void closeDrainsTheQueueAndLaunchAfterCloseIsRejected() {
        try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0)) {
            Stream stream = device.createStream();
            AtomicInteger done = new AtomicInteger();
            for (int k = 0; k < 100; k++) {
                stream.launch(done::incrementAndGet);
            }
            stream.close();
            assertEquals(100, done.get());
            assertFalse(stream.isOpen());
            AclnnException e = assertThrows(AclnnException.class, () -> stream.launch(done::incrementAndGet));
            assertEquals(AclnnStatus.ERR_PARAM_INVALID, e.status());
        }
    }

    @Test
    void aTaskThatSynchronizesItsOwnStreamFailsInsteadOfWaitingForItself() {
        try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0); Stream stream = device.createStream()) {
            stream.launch(stream::synchronize);
            AclnnException e = assertThrows(AclnnException.class, stream::synchronize);
            assertEquals(AclnnStatus.ERR_PARAM_INVALID, e.status());
            assertTrue(e.getMessage().contains("would wait for itself"), e.getMessage());
        }
    }

    @Test
    void anErrorInATaskIsReportedAndTheStreamKeepsWorking() {
        try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0); Stream stream = device.createStream()) {
            stream.launch(() -> {
                throw new AssertionError("an Error, not an Exception");
            });
            AclnnException e = assertThrows(AclnnException.class, stream::synchronize);
            assertEquals(AclnnStatus.ERR_RUNTIME_ERROR, e.status());
            AtomicInteger done = new AtomicInteger();
            stream.launch(done::incrementAndGet);
            stream.synchronize();
            assertEquals(1, done.get());
        }
    }

    @Test
    void everyCloserReturnsOnlyOnceTheQueueHasDrained() throws InterruptedException {
        try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0)) {
            Stream stream = device.createStream();
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger done = new AtomicInteger();
            stream.launch(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                done.incrementAndGet();
            });
            AtomicInteger seenByFirst = new AtomicInteger(-1);
            AtomicInteger seenBySecond = new AtomicInteger(-1);
            Thread first = Thread.ofPlatform().start(() -> {
                stream.close();
                seenByFirst.set(done.get());
            });
            Thread second = Thread.ofPlatform().start(() -> {
                stream.close();
                seenBySecond.set(done.get());
            });
            Thread.sleep(20);
            release.countDown();
            first.join();
            second.join();
            assertEquals(1, seenByFirst.get());
            assertEquals(1, seenBySecond.get());
        }
    }

    @Test
    void workNobodyWaitsForRunsOnTheStreamsThread() throws InterruptedException {
        try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0); Stream stream = device.createStream()) {
            for (int k = 0; k < 20; k++) {
                // Idle long enough for the stream's thread to park, then launch without synchronizing.
                Thread.sleep(1);
                CountDownLatch ran = new CountDownLatch(1);
                AtomicReference<Thread> runner = new AtomicReference<>();
                stream.launch(() -> {
                    runner.set(Thread.currentThread());
                    ran.countDown();
                });
                assertTrue(ran.await(10, TimeUnit.SECONDS), "a launched task must run without a synchronize");
                assertNotSame(Thread.currentThread(), runner.get());
            }
        }
    }

    @Test
    void aSynchronizeRightAfterLaunchRunsTheTaskOnTheCallerAtLeastSometimes() {
        // Caller-runs: the stream's thread is parked and needs a wake-up, the caller is already there. Which
        // thread wins is up to the scheduler, so this asks only that the caller wins once in many tries.
        try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0); Stream stream = device.createStream()) {
            Thread self = Thread.currentThread();
            AtomicInteger onCaller = new AtomicInteger();
            for (int k = 0; k < 1000 && onCaller.get() == 0; k++) {
                stream.launch(() -> {
                    if (Thread.currentThread() == self) {
                        onCaller.incrementAndGet();
                    }
                });
                stream.synchronize();
            }
            assertTrue(onCaller.get() > 0, "no task of 1000 launch-synchronize round trips ran on the caller");
        }
    }

    /**
     * While launches keep coming, launch leaves the stream's thread parked (it polls): a launch followed by a
     * synchronize costs no wake-up (on the Zen 5 host an unpark took 35 µs of the launching thread) and runs on
     * the caller.
     */
    @Test
    void launchesThatKeepComingDoNotWakeTheStreamsThread() {
        try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0); Stream stream = device.createStream()) {
            Thread self = Thread.currentThread();
            AtomicInteger onCaller = new AtomicInteger();
            int calls = 1000;
            stream.launch(() -> { });
            stream.synchronize();
            long before = stream.wakeUps();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            for (int k = 0; k < calls; k++) {
                // Each launch finds the stream's thread parked: without polling, every one would wake it.
                while (!stream.workerParked()) {
                    assertTrue(System.nanoTime() < deadline, "the stream's thread never parked");
                    Thread.onSpinWait();
                }
                stream.launch(() -> {
                    if (Thread.currentThread() == self) {
                        onCaller.incrementAndGet();
                    }
                });
                stream.synchronize();
            }
            // None, unless the test thread stalls for a whole polling window (a loaded machine): a few at most.
            long woken = stream.wakeUps() - before;
            assertTrue(woken <= 5, woken + " of " + calls + " launches woke the stream's thread");
            assertTrue(onCaller.get() >= calls / 2, onCaller.get() + " of " + calls + " tasks ran on the caller");
        }
    }

    @Test
    void launchesBeforeTheWokenThreadRunsDoNotWakeItAgain() {
        // Whether a launch comes before the woken thread runs depends on the scheduler: five streams.
        long total = 0;
        for (int round = 0; round < 5; round++) {
            try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0); Stream stream = device.createStream()) {
                // A stream no launch reached for a polling window: its thread parks until launch wakes it.
                int calls = 1000;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!stream.workerParked()) {
                    assertTrue(System.nanoTime() < deadline, "the stream's thread never parked");
                    Thread.onSpinWait();
                }
                long before = stream.wakeUps();
                for (int k = 0; k < calls; k++) {
                    stream.launch(() -> { });
                }
                stream.synchronize();
                // One wake-up per park: launches made before the woken thread ran find it already woken.
                long woken = stream.wakeUps() - before;
                assertTrue(woken <= 2, woken + " of " + calls + " launches woke the stream's thread");
                total += woken;
            }
        }
        // The first launch wakes the parked thread (but for a spurious wake-up just before it, so over five streams).
        assertTrue(total >= 1, "no launch woke a parked stream thread");
    }

    @Test
    void workNobodyWaitsForRunsAfterAQuietWindowToo() throws InterruptedException {
        try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0); Stream stream = device.createStream()) {
            for (int k = 0; k < 2; k++) {
                // Longer than the window in which the stream's thread polls: it parks until launch wakes it.
                Thread.sleep(TimeUnit.NANOSECONDS.toMillis(Stream.POLL_WINDOW_NANOS) + 50);
                CountDownLatch ran = new CountDownLatch(1);
                stream.launch(ran::countDown);
                assertTrue(ran.await(10, TimeUnit.SECONDS), "a task launched after a quiet window must run");
            }
        }
    }

    @Test
    void tasksLeftAfterACallerRanItsOwnStillRunOnTheStreamsThread() throws InterruptedException {
        try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0); Stream stream = device.createStream()) {
            Thread self = Thread.currentThread();
            boolean exercised = false;
            for (int attempt = 0; attempt < 20 && !exercised; attempt++) {
                CountDownLatch secondRan = new CountDownLatch(1);
                AtomicBoolean firstOnCaller = new AtomicBoolean();
                stream.launch(() -> {
                    firstOnCaller.set(Thread.currentThread() == self);
                    // Queued behind this task, after the caller's synchronize took its target: not the caller's to run.
                    stream.launch(secondRan::countDown);
                    try {
                        // Long enough for the stream's thread to wake, find the runner role taken, and park.
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                stream.synchronize();
                exercised = firstOnCaller.get();
                assertTrue(secondRan.await(10, TimeUnit.SECONDS),
                        "the task launched by a task that ran on " + (exercised ? "the caller" : "the stream's thread")
                                + " never ran");
            }
            assertTrue(exercised, "the first task never ran on the caller in 20 tries");
        }
    }

    @Test
    void tasksNeverOverlapWhileManyThreadsLaunchAndSynchronize() throws InterruptedException {
        try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0); Stream stream = device.createStream()) {
            int threads = 4;
            int perThread = 5000;
            AtomicBoolean inside = new AtomicBoolean();
            AtomicInteger overlaps = new AtomicInteger();
            int[][] seen = new int[threads][perThread];
            int[] count = new int[threads];
            List<Thread> started = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                started.add(Thread.ofPlatform().start(() -> {
                    for (int k = 0; k < perThread; k++) {
                        int task = k;
                        stream.launch(() -> {
                            if (!inside.compareAndSet(false, true)) {
                                overlaps.incrementAndGet();
                            }
                            // Tasks never overlap, so this plain array needs no lock.
                            seen[thread][count[thread]++] = task;
                            inside.set(false);
                        });
                        if (k % (7 + thread) == 0) {
                            stream.synchronize();
                        }
                    }
                    stream.synchronize();
                }));
            }
            for (Thread t : started) {
                t.join();
            }
            stream.synchronize();
            assertEquals(0, overlaps.get(), "two tasks of one stream ran at the same time");
            for (int t = 0; t < threads; t++) {
                assertEquals(perThread, count[t]);
                for (int k = 0; k < perThread; k++) {
                    assertEquals(k, seen[t][k], "thread " + t + "'s tasks ran out of launch order");
                }
            }
        }
    }

    @Test
    void aTaskRunByASynchronizingCallerThatSynchronizesAgainFails() {
        try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0); Stream stream = device.createStream()) {
            Thread self = Thread.currentThread();
            AtomicInteger onCaller = new AtomicInteger();
            for (int k = 0; k < 200; k++) {
                stream.launch(() -> {
                    if (Thread.currentThread() == self) {
                        onCaller.incrementAndGet();
                    }
                    stream.synchronize();
                });
                AclnnException e = assertThrows(AclnnException.class, stream::synchronize);
                assertTrue(e.getMessage().contains("would wait for itself"), e.getMessage());
            }
            assertTrue(onCaller.get() > 0, "no task ran on the caller in 200 tries");
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void closeWaitsForATaskThatASynchronizingCallerRuns(boolean secondTask) throws InterruptedException {
        try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0)) {
            Thread self = Thread.currentThread();
            boolean exercised = false;
            for (int attempt = 0; attempt < 20 && !exercised; attempt++) {
                Stream stream = device.createStream();
                AtomicBoolean finished = new AtomicBoolean();
                AtomicBoolean seenByCloser = new AtomicBoolean();
                AtomicReference<Thread> closer = new AtomicReference<>();
                AtomicBoolean onCaller = new AtomicBoolean();
                // The closer starts only once everything is queued (launch after close would be refused).
                CountDownLatch queued = new CountDownLatch(1);
                stream.launch(() -> {
                    onCaller.set(Thread.currentThread() == self);
                    try {
                        queued.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    closer.set(Thread.ofPlatform().start(() -> {
                        stream.close();
                        seenByCloser.set(finished.get());
                    }));
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    finished.set(true);
                });
                // A second task is still queued when the closer starts: the stream's thread finds it and parks
                // while the caller runs it, and must be woken to end. Without it, the stream's thread ends at once.
                AtomicBoolean secondRan = new AtomicBoolean(!secondTask);
                if (secondTask) {
                    stream.launch(() -> secondRan.set(true));
                }
                queued.countDown();
                stream.synchronize();
                closer.get().join(10_000);
                assertFalse(closer.get().isAlive(), "close did not return after the caller drained the queue");
                assertTrue(seenByCloser.get(), "close returned while a task of the stream was still running");
                assertTrue(secondRan.get());
                exercised = onCaller.get();
            }
            assertTrue(exercised, "the task never ran on the caller in 20 tries");
        }
    }
}
