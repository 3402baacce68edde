package io.opscv.runtime;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A stream ({@code aclrtCreateStream}): an ordered, asynchronous queue of work.
 *
 * <ul>
 *   <li><b>Ordering.</b> Tasks run one at a time, in the order their {@link #launch} calls were
 *       accepted; each starts after the previous one has finished, so a task sees everything the
 *       tasks before it wrote. Launches from several threads are ordered by when each was accepted.</li>
 *   <li><b>Where tasks run.</b> On the stream's own thread, or on a thread blocked in
 *       {@link #synchronize()} or {@link #close()} that runs the queued tasks it waits for itself;
 *       either way, never two tasks of one stream at once.</li>
 *   <li><b>Thread safety.</b> {@link #launch}, {@link #synchronize()}, {@link #close()} and
 *       {@link #isOpen()} may be called from any thread, concurrently.</li>
 *   <li><b>Failures.</b> A task that throws does not stop the stream: the tasks after it still run.
 *       {@link #synchronize()} waits for every task queued before it was called and throws the first
 *       failure recorded since the previous synchronize (an {@link AclnnException}; anything else a
 *       task throws becomes 361001), then clears it; later failures of the same interval are not
 *       reported. A synchronize from a task of the same stream is refused with 161002.</li>
 *   <li><b>Close.</b> {@link #close()} ({@code aclrtDestroyStream}) refuses further launches
 *       (161002), runs what is already queued, stops the stream's thread and returns once all of
 *       that is done (also to a second caller). It reports no failure: a synchronize after it
 *       still throws one not reported yet. Called from a task of the same stream, it returns at
 *       once and the queue still drains.</li>
 * </ul>
 */
public final class Stream implements AutoCloseable {
    /*
     * Implementation overview. Tasks go through a lock-free queue. One thread at a time holds the runner
     * role and runs them in order, counting the completed ones: the stream's thread, woken by launch, or a
     * synchronizing thread that finds the queue waiting and runs the tasks it waits for itself (as a
     * caller-runs executor does), so that a launch followed at once by a synchronize needs no hand-over
     * between threads. The stream's thread parks when it finds nothing to do or another thread holds the
     * role (that one wakes it on leaving the role if tasks remain); after running tasks it spins a while
     * before parking, and while launches keep coming it parks for short intervals and launch does not wake
     * it, so that a series of launches costs no wake-ups. Only launch and close take a lock, so that no
     * task is accepted after close has begun draining.
     */
    /** How long the stream's thread (after running tasks) or a waiting synchronizer spins before parking. */
    static final long SPIN_NANOS = 50_000;
    /** How long the stream's thread parks at a time while launches keep coming, at most. */
    static final long POLL_NANOS = 1_000_000;
    /** How long after a launch the stream's thread keeps parking for {@link #POLL_NANOS} at a time. */
    static final long POLL_WINDOW_NANOS = 100_000_000;

    private final Device device;
    private final ReentrantLock admission = new ReentrantLock();
    private final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Thread> parkedSynchronizers = new ConcurrentLinkedQueue<>();
    private final AtomicReference<AclnnException> failure = new AtomicReference<>();
    private final AtomicLong submitted = new AtomicLong();
    /** The thread that runs queued tasks now (the stream's own or a synchronizing one), or null. */
    private final AtomicReference<Thread> runner = new AtomicReference<>();
    private final Thread worker;
    /** Tasks run so far; written only by the runner. */
    private volatile long completed;
    /**
     * Set by the stream's thread before it parks; the launch that wakes it clears it, so that launches
     * made before the woken thread runs do not unpark it again.
     */
    private final AtomicBoolean workerParked = new AtomicBoolean();
    /** The stream's thread parks for {@link #POLL_NANOS} at most: launch need not wake it. */
    private volatile boolean workerPolling;
    /** {@link System#nanoTime} of the last launch. */
    private volatile long lastLaunch;
    /** Times launch woke the stream's thread ({@link #wakeUps}). */
    private final AtomicLong wakeUps = new AtomicLong();
    private volatile boolean closing;

    Stream(Device device) {
        this.device = device;
        // No launch yet: long enough ago that the stream's thread parks until the first one wakes it.
        this.lastLaunch = System.nanoTime() - 2 * POLL_WINDOW_NANOS;
        this.worker = Thread.ofPlatform().daemon().name("opscv-stream-" + device.id()).unstarted(this::work);
        this.worker.start();
    }

    /** {@return the device that created this stream} */
    public Device device() {
        return device;
    }

    /**
     * Queues {@code task} behind everything already queued. A task that throws marks the stream
     * failed; the failure is reported by the next {@link #synchronize()}.
     *
     * @param task the work to run on the stream (161001 when null)
     */
    public void launch(Runnable task) {
        if (task == null) {
            throw AclnnException.nullptr("Expected a proper task but got null for argument task.");
        }
        admission.lock();
        try {
            if (closing) {
                throw AclnnException.invalid("The stream was destroyed (aclrtDestroyStream) and cannot take work.");
            }
            submitted.incrementAndGet();
            queue.add(task);
            lastLaunch = System.nanoTime();
        } finally {
            admission.unlock();
        }
        // A polling thread finds the task by itself (or the caller runs it, synchronizing). One launch
        // wakes a parked thread: the ones after it, until that thread runs, find the flag cleared.
        if (workerParked.get() && !workerPolling && workerParked.compareAndSet(true, false)) {
            wakeUps.incrementAndGet();
            LockSupport.unpark(worker);
        }
    }

    /** How many times launch has woken the stream's thread: for tests of the scheduling. */
    long wakeUps() {
        return wakeUps.get();
    }

    /** Whether the stream's thread is parked (or about to park), not yet woken: for tests of the scheduling. */
    boolean workerParked() {
        return workerParked.get();
    }

    /** {@return whether this stream accepts work} */
    public boolean isOpen() {
        return !closing;
    }

    /**
     * {@code aclrtSynchronizeStream}: waits for all work queued before this call, running queued
     * tasks on the calling thread when the stream's thread has not started them; throws the first
     * failure of that work, if any (and clears it).
     */
    public void synchronize() {
        if (runner.get() == Thread.currentThread()) {
            // A task waiting for the queue it runs in would wait for itself forever.
            throw AclnnException.invalid("aclrtSynchronizeStream was called from a task of the same stream; it would wait"
                    + " for itself.");
        }
        long target = submitted.get();
        if (completed < target) {
            awaitCompleted(target);
        }
        AclnnException f = failure.getAndSet(null);
        if (f != null) {
            // Re-create so that the recent-error text is set on the synchronizing thread.
            throw new AclnnException(f.status(), f.getMessage(), f);
        }
    }

    /** Returns once {@code target} tasks have run, running queued ones itself whenever it can take the runner role. */
    private void awaitCompleted(long target) {
        long spinUntil = System.nanoTime() + SPIN_NANOS;
        int spins = 0;
        boolean interrupted = false;
        while (completed < target) {
            if (runQueued(target) && completed >= target) {
                break;
            }
            if (System.nanoTime() < spinUntil) {
                spin(++spins);
                continue;
            }
            Thread self = Thread.currentThread();
            parkedSynchronizers.add(self);
            if (completed < target && runner.get() != null) {
                LockSupport.park(this);
                interrupted |= Thread.interrupted();
            }
            parkedSynchronizers.remove(self);
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Takes the runner role if it is free and runs queued tasks in order until the queue is empty or
     * {@code until} tasks have run; false when another thread holds the role.
     */
    private boolean runQueued(long until) {
        Thread self = Thread.currentThread();
        if (runner.get() != null || !runner.compareAndSet(null, self)) {
            return false;
        }
        try {
            Runnable task;
            while (completed < until && (task = queue.poll()) != null) {
                runTask(task);
            }
        } finally {
            runner.set(null);
        }
        if (self != worker && (closing || !queue.isEmpty())) {
            // The stream's thread may have parked while this one held the role.
            LockSupport.unpark(worker);
        }
        return true;
    }

    private void runTask(Runnable task) {
        AclnnException error = null;
        try {
            task.run();
        } catch (AclnnException e) {
            error = e;
        } catch (Throwable e) {
            // Every Throwable: a task that escaped would leave synchronize() waiting forever.
            error = AclnnException.runtime("A task on the stream failed: " + describe(e), e);
        }
        if (error != null) {
            failure.compareAndSet(null, error);
        }
        completed = completed + 1;
        if (!parkedSynchronizers.isEmpty()) {
            for (Thread t : parkedSynchronizers) {
                LockSupport.unpark(t);
            }
        }
    }

    /** {@code e.toString()}, or its class name when even that throws. */
    private static String describe(Throwable e) {
        try {
            return String.valueOf(e);
        } catch (Throwable broken) {
            return e.getClass().getName();
        }
    }

    /** The stream's thread: runs what is queued while no synchronizing thread does; ends once closing and drained. */
    private void work() {
        long spinUntil = 0;
        int spins = 0;
        while (true) {
            if (!queue.isEmpty()) {
                if (runQueued(Long.MAX_VALUE)) {
                    spinUntil = System.nanoTime() + SPIN_NANOS;
                    continue;
                }
                // Another thread runs the tasks: park rather than take a core from it.
            } else if (closing) {
                // launch no longer adds (it checks closing under the admission lock close took).
                return;
            } else if (System.nanoTime() < spinUntil) {
                spin(++spins);
                continue;
            }
            // Polling while launches keep coming; written before workerParked, which launch reads first.
            boolean poll = System.nanoTime() - lastLaunch < POLL_WINDOW_NANOS;
            workerPolling = poll;
            workerParked.set(true);
            if (queue.isEmpty() && !closing || runner.get() != null) {
                if (poll) {
                    LockSupport.parkNanos(this, POLL_NANOS);
                } else {
                    LockSupport.park(this);
                }
            }
            workerParked.set(false);
            Thread.interrupted();
        }
    }

    /**
     * One turn of a spin: mostly a pause, now and then a yield, so that a spinning thread does not
     * hold a core that the thread it waits for needs (the machine may have fewer free cores than
     * spinning threads).
     */
    private static void spin(int spins) {
        if ((spins & 31) == 0) {
            Thread.yield();
        } else {
            Thread.onSpinWait();
        }
    }

    /**
     * {@code aclrtDestroyStream}: runs what is queued, then stops the stream's thread. Every caller
     * returns only once the queue has drained, also when another thread started the close; a task
     * of this stream that closes it returns at once.
     */
    @Override
    public void close() {
        admission.lock();
        try {
            closing = true;
        } finally {
            admission.unlock();
        }
        LockSupport.unpark(worker);
        Thread self = Thread.currentThread();
        if (self != worker && runner.get() != self) {
            awaitCompleted(submitted.get());
            boolean interrupted = false;
            while (true) {
                try {
                    worker.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                self.interrupt();
            }
        }
        device.forget(this);
    }

    @Override
    public String toString() {
        return "Stream[device " + device.id() + (isOpen() ? "]" : ", destroyed]");
    }
}
