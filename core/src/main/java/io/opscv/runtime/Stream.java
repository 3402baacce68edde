package io.opscv.runtime;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A stream ({@code aclrtCreateStream}): an ordered, asynchronous queue of work run by one thread of
 * its own. {@link #synchronize()} waits until everything queued so far has run and reports the
 * first failure since the last synchronize; {@link #close()} ({@code aclrtDestroyStream}) drains
 * the queue first.
 *
 * <p>Implementation overview. Tasks go through a lock-free queue to the stream's single thread,
 * which runs them in order and then publishes the count of completed tasks. Both that thread (when
 * the queue is empty) and a synchronizing thread (while work is pending) spin for
 * {@link #SPIN_NANOS} before parking, so that a short launch-and-synchronize round trip costs no
 * thread wake-up; past that they park and are unparked by the other side. Only launch and close
 * take a lock, so that no task is accepted after close has begun draining.
 */
public final class Stream implements AutoCloseable {
    /** How long an idle stream thread or a synchronizing caller spins before parking. */
    static final long SPIN_NANOS = 50_000;

    private final Device device;
    private final ReentrantLock admission = new ReentrantLock();
    private final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Thread> parkedSynchronizers = new ConcurrentLinkedQueue<>();
    private final AtomicReference<AclnnException> failure = new AtomicReference<>();
    private final AtomicLong submitted = new AtomicLong();
    private final Thread worker;
    private volatile long completed;
    private volatile boolean workerParked;
    private volatile boolean closing;

    Stream(Device device) {
        this.device = device;
        this.worker = Thread.ofPlatform().daemon().name("opscv-stream-" + device.id()).unstarted(this::work);
        this.worker.start();
    }

    public Device device() {
        return device;
    }

    /**
     * Queues {@code task} behind everything already queued. A task that throws marks the stream
     * failed; the failure is reported by the next {@link #synchronize()}.
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
        } finally {
            admission.unlock();
        }
        if (workerParked) {
            LockSupport.unpark(worker);
        }
    }

    /** Whether this stream accepts work. */
    public boolean isOpen() {
        return !closing;
    }

    /**
     * {@code aclrtSynchronizeStream}: waits for all work queued before this call; throws the first
     * failure of that work, if any (and clears it).
     */
    public void synchronize() {
        if (Thread.currentThread() == worker) {
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

    private void awaitCompleted(long target) {
        long spinUntil = System.nanoTime() + SPIN_NANOS;
        int spins = 0;
        while (completed < target) {
            if (System.nanoTime() < spinUntil) {
                spin(++spins);
                continue;
            }
            Thread self = Thread.currentThread();
            parkedSynchronizers.add(self);
            boolean interrupted = false;
            while (completed < target) {
                LockSupport.park(this);
                interrupted |= Thread.interrupted();
            }
            parkedSynchronizers.remove(self);
            if (interrupted) {
                self.interrupt();
            }
        }
    }

    private void work() {
        long done = 0;
        while (true) {
            Runnable task = queue.poll();
            if (task == null) {
                task = awaitTask();
                if (task == null) {
                    return;
                }
            }
            AclnnException error = null;
            try {
                task.run();
            } catch (AclnnException e) {
                error = e;
            } catch (Throwable e) {
                // Every Throwable: a worker that died would leave synchronize() waiting forever.
                error = AclnnException.runtime("A task on the stream failed: " + describe(e), e);
            }
            if (error != null) {
                failure.compareAndSet(null, error);
            }
            completed = ++done;
            if (!parkedSynchronizers.isEmpty()) {
                for (Thread t : parkedSynchronizers) {
                    LockSupport.unpark(t);
                }
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

    /** The next task, or null once the stream is closing and drained. */
    private Runnable awaitTask() {
        long spinUntil = System.nanoTime() + SPIN_NANOS;
        int spins = 0;
        while (true) {
            Runnable task = queue.poll();
            if (task != null) {
                return task;
            }
            if (closing) {
                // launch no longer adds (it checks closing under the admission lock close took).
                task = queue.poll();
                return task;
            }
            if (System.nanoTime() < spinUntil) {
                spin(++spins);
                continue;
            }
            workerParked = true;
            if (queue.isEmpty() && !closing) {
                LockSupport.park(this);
            }
            workerParked = false;
            Thread.interrupted();
            spinUntil = System.nanoTime() + SPIN_NANOS;
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
     * returns only once the queue has drained, also when another thread started the close.
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
        if (Thread.currentThread() != worker) {
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
                Thread.currentThread().interrupt();
            }
        }
        device.forget(this);
    }

    @Override
    public String toString() {
        return "Stream[device " + device.id() + (isOpen() ? "]" : ", destroyed]");
    }
}
