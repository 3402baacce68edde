package io.opscv.runtime;

import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A stream ({@code aclrtCreateStream}): an ordered, asynchronous queue of work run by one thread of
 * its own. {@link #synchronize()} waits until everything queued so far has run and reports the
 * first failure since the last synchronize; {@link #close()} ({@code aclrtDestroyStream}) drains
 * the queue first.
 */
public final class Stream implements AutoCloseable {
    private final Device device;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
    private final Thread worker;
    private long submitted;
    private long completed;
    private AclnnException failure;
    private boolean closing;
    private boolean closed;

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
        lock.lock();
        try {
            if (closing || closed) {
                throw AclnnException.invalid("The stream was destroyed (aclrtDestroyStream) and cannot take work.");
            }
            queue.addLast(task);
            submitted++;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Whether this stream accepts work. */
    public boolean isOpen() {
        lock.lock();
        try {
            return !closing && !closed;
        } finally {
            lock.unlock();
        }
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
        lock.lock();
        try {
            long target = submitted;
            boolean interrupted = false;
            while (completed < target) {
                try {
                    changed.await();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            AclnnException f = failure;
            failure = null;
            if (f != null) {
                // Re-create so that the recent-error text is set on the synchronizing thread.
                throw new AclnnException(f.status(), f.getMessage(), f);
            }
        } finally {
            lock.unlock();
        }
    }

    private void work() {
        while (true) {
            Runnable task;
            lock.lock();
            try {
                while (queue.isEmpty() && !closing) {
                    changed.awaitUninterruptibly();
                }
                if (queue.isEmpty()) {
                    closed = true;
                    changed.signalAll();
                    return;
                }
                task = queue.pollFirst();
            } finally {
                lock.unlock();
            }
            AclnnException error = null;
            try {
                task.run();
            } catch (AclnnException e) {
                error = e;
            } catch (RuntimeException | Error e) {
                // Every Error too: a worker that died would leave synchronize() waiting forever.
                error = AclnnException.runtime("A task on the stream failed: " + e, e);
            }
            lock.lock();
            try {
                completed++;
                if (error != null && failure == null) {
                    failure = error;
                }
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * {@code aclrtDestroyStream}: runs what is queued, then stops the stream's thread. Every caller
     * returns only once the queue has drained, also when another thread started the close.
     */
    @Override
    public void close() {
        lock.lock();
        try {
            closing = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
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
