package io.opscv.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The spinning, lock-free stream keeps the contract: ordered, asynchronous, failures reported once. */
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
}
