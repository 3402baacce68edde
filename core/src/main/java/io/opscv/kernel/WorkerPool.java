package io.opscv.kernel;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * A fixed set of kernel threads that run the tasks of one parallel loop at a time: the thread that
 * calls {@link #forEach} works too, so a pool of parallelism K owns K - 1 threads, created once.
 *
 * <p>Implementation overview. A loop is published as a {@code Job}; tasks are claimed one at a
 * time from an atomic counter, so a fast thread takes more of them. Results never depend on which
 * thread ran which task: kernels give each task its own outputs and each output one task. A worker
 * that finishes spins for a short while ({@link #SPIN_NANOS}) before parking, so that the next
 * loop of a sequence of calls starts without a wake-up; the caller likewise spins briefly before
 * parking while the last tasks finish. A loop submitted while another one runs (from a second
 * stream) runs on its caller alone rather than waiting, so that pools never deadlock and never
 * oversubscribe the machine.
 */
public final class WorkerPool implements AutoCloseable {
    /** How long an idle thread spins before parking; short enough not to steal a core from others for long. */
    static final long SPIN_NANOS = 50_000;
    private static final String THREADS_PROPERTY = "opscv.threads";
    private static volatile WorkerPool shared;

    /** The body of a parallel loop. */
    @FunctionalInterface
    public interface Task {
        /**
         * Runs task {@code task}; {@code slot} (0 ≤ slot &lt; parallelism) identifies the thread,
         * so that per-thread scratch can be kept in an array indexed by it.
         */
        void run(int task, int slot);
    }

    private final int parallelism;
    private final Worker[] workers;
    private final ReentrantLock running = new ReentrantLock();
    /** Each slot's scratch arrays, kept from call to call; a slot's are used by whoever holds {@link #running}. */
    private final Buffers[] kept;
    private volatile Job current;
    private volatile boolean closed;

    /** A pool of {@code parallelism} threads in all (the caller plus {@code parallelism - 1} of its own). */
    public WorkerPool(int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism (" + parallelism + ") must be >= 1");
        }
        this.parallelism = parallelism;
        this.workers = new Worker[parallelism - 1];
        this.kept = new Buffers[parallelism];
        for (int slot = 0; slot < parallelism; slot++) {
            kept[slot] = new Buffers(Buffers.KEEP_BYTES);
        }
        for (int w = 0; w < workers.length; w++) {
            workers[w] = new Worker(w + 1);
        }
        for (Worker worker : workers) {
            worker.thread.start();
        }
    }

    /**
     * The pool the operators use: {@code -Dopscv.threads=K} threads, else one per available
     * processor.
     */
    public static WorkerPool shared() {
        WorkerPool pool = shared;
        if (pool == null) {
            synchronized (WorkerPool.class) {
                pool = shared;
                if (pool == null) {
                    pool = new WorkerPool(defaultParallelism());
                    shared = pool;
                }
            }
        }
        return pool;
    }

    /**
     * Replaces the shared pool by one of {@code parallelism} threads (benchmarks, {@code --threads});
     * results do not change, only speed. A loop already running on the old pool finishes on it.
     */
    public static synchronized void setSharedParallelism(int parallelism) {
        WorkerPool old = shared;
        if (old != null && old.parallelism == parallelism) {
            return;
        }
        shared = new WorkerPool(parallelism);
        if (old != null) {
            old.close();
        }
    }

    private static int defaultParallelism() {
        String value = System.getProperty(THREADS_PROPERTY);
        if (value != null) {
            try {
                int k = Integer.parseInt(value.trim());
                if (k >= 1) {
                    return k;
                }
            } catch (NumberFormatException e) {
                // fall through to the processor count
            }
        }
        return Math.max(1, Runtime.getRuntime().availableProcessors());
    }

    /** Threads a loop may use, the caller included. */
    public int parallelism() {
        return parallelism;
    }

    /**
     * Runs {@code task.run(t, slot)} for every {@code 0 ≤ t < taskCount} and returns when all have
     * finished. The first exception a task throws is rethrown here (the other tasks still run).
     */
    public void forEach(int taskCount, Task task) {
        if (taskCount <= 0) {
            return;
        }
        if (workers.length == 0 || taskCount == 1 || closed || !running.tryLock()) {
            runInline(taskCount, task);
            return;
        }
        try {
            Job job = new Job(taskCount, task, Thread.currentThread());
            current = job;
            for (Worker worker : workers) {
                if (worker.parked) {
                    LockSupport.unpark(worker.thread);
                }
            }
            job.work(0);
            job.awaitDone();
            job.rethrow();
        } finally {
            current = null;
            running.unlock();
        }
    }

    /** The body of a parallel loop whose threads each keep a scratch of their own. */
    @FunctionalInterface
    public interface ScratchTask<S> {
        /** Runs task {@code task} with the running thread's scratch. */
        void run(int task, S scratch);
    }

    /**
     * {@link #forEach(int, Task)} with one scratch per thread, made by {@code scratch} on the thread's first
     * task and reused for its later ones; every task on the caller (one scratch) when {@code inline}. The
     * scratch takes its large arrays from the {@link Buffers} it is given: the slot's, kept from the last call,
     * where this call owns the pool (no other call runs on it), else ones that keep nothing.
     */
    <S> void forEach(int taskCount, boolean inline, Function<Buffers, S> scratch, ScratchTask<S> task) {
        if (taskCount <= 0) {
            return;
        }
        // The slots' kept arrays belong to the call holding the pool; a nested or concurrent call gets fresh ones.
        boolean owns = running.tryLock();
        if (owns && running.getHoldCount() > 1) {
            running.unlock();
            owns = false;
        }
        boolean own = owns;
        Object[] scratches = new Object[inline ? 1 : parallelism];
        Task body = (t, slot) -> {
            @SuppressWarnings("unchecked")
            S s = (S) scratches[slot];
            if (s == null) {
                s = scratch.apply(own ? kept[slot] : Buffers.FRESH);
                scratches[slot] = s;
            }
            task.run(t, s);
        };
        try {
            if (inline || !own) {
                runInline(taskCount, body);
            } else {
                forEach(taskCount, body);
            }
        } finally {
            if (own) {
                // A slot that lent nothing this call has nothing to take back.
                for (int slot = 0; slot < scratches.length; slot++) {
                    kept[slot].release();
                }
                running.unlock();
            }
        }
    }

    /** The body of a loop over chunks of a call, each with the running thread's scratch. */
    @FunctionalInterface
    interface ChunkTask<S> {
        /** Runs chunk {@code chunk} with the running thread's scratch. */
        void run(long chunk, S scratch);
    }

    /** Elements (read plus written) a task of chunks should cover at least: handing one out costs about 1 µs. */
    private static final long CHUNK_TASK_ELEMENTS = 1 << 15;

    /**
     * Chunks {@code 0 .. chunks - 1} of {@code elements} elements each, cut into tasks of consecutive chunks:
     * enough per task to be worth handing out, few enough to give every thread about four tasks.
     */
    <S> void forEachChunk(long chunks, long elements, Function<Buffers, S> scratch, ChunkTask<S> body) {
        long byWork = Math.max(1, CHUNK_TASK_ELEMENTS / Math.max(1, elements));
        long bySpread = Math.max(1, chunks / (4L * parallelism));
        long perTask = Math.max(Math.min(byWork, bySpread), (chunks + Integer.MAX_VALUE - 1) / Integer.MAX_VALUE);
        int tasks = Math.toIntExact((chunks + perTask - 1) / perTask);
        forEach(tasks, tasks == 1 || parallelism == 1, scratch, (k, s) -> {
            for (long c = k * perTask, end = Math.min(chunks, c + perTask); c < end; c++) {
                body.run(c, s);
            }
        });
    }

    /** A pause, and now and then a yield, so that spinning never holds a core another thread of the call needs. */
    private static void spin(int spins) {
        if ((spins & 31) == 0) {
            Thread.yield();
        } else {
            Thread.onSpinWait();
        }
    }

    private static void runInline(int taskCount, Task task) {
        for (int t = 0; t < taskCount; t++) {
            task.run(t, 0);
        }
    }

    /** Stops the pool's threads once they are idle; later loops run on their callers alone. */
    @Override
    public void close() {
        closed = true;
        for (Worker worker : workers) {
            LockSupport.unpark(worker.thread);
        }
    }

    @Override
    public String toString() {
        return "WorkerPool[parallelism=" + parallelism + (closed ? ", closed]" : "]");
    }

    /** One parallel loop. */
    private static final class Job {
        final int taskCount;
        final Task task;
        final Thread caller;
        final AtomicInteger next = new AtomicInteger();
        final AtomicInteger done = new AtomicInteger();
        volatile boolean callerParked;
        volatile Throwable failure;

        Job(int taskCount, Task task, Thread caller) {
            this.taskCount = taskCount;
            this.task = task;
            this.caller = caller;
        }

        void work(int slot) {
            int t;
            while ((t = next.getAndIncrement()) < taskCount) {
                try {
                    task.run(t, slot);
                } catch (Throwable e) {
                    if (failure == null) {
                        failure = e;
                    }
                }
                if (done.incrementAndGet() == taskCount && callerParked) {
                    LockSupport.unpark(caller);
                }
            }
        }

        void awaitDone() {
            long spinUntil = System.nanoTime() + SPIN_NANOS;
            int spins = 0;
            while (done.get() < taskCount) {
                if (System.nanoTime() < spinUntil) {
                    spin(++spins);
                } else {
                    callerParked = true;
                    if (done.get() < taskCount) {
                        LockSupport.park(this);
                    }
                    callerParked = false;
                }
            }
        }

        void rethrow() {
            Throwable e = failure;
            if (e instanceof RuntimeException re) {
                throw re;
            }
            if (e instanceof Error err) {
                throw err;
            }
            if (e != null) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** A thread of the pool: waits for a job, takes its tasks, waits again. */
    private final class Worker implements Runnable {
        final int slot;
        final Thread thread;
        volatile boolean parked;

        Worker(int slot) {
            this.slot = slot;
            this.thread = Thread.ofPlatform().daemon().name("opscv-kernel-" + slot).unstarted(this);
        }

        @Override
        public void run() {
            Job seen = null;
            while (!closed) {
                Job job = current;
                if (job == null || job == seen) {
                    job = awaitJob(seen);
                    if (job == null) {
                        continue;
                    }
                }
                seen = job;
                job.work(slot);
            }
        }

        /** The next job other than {@code seen}, or null when closed or woken without one. */
        private Job awaitJob(Job seen) {
            long spinUntil = System.nanoTime() + SPIN_NANOS;
            int spins = 0;
            while (!closed) {
                Job job = current;
                if (job != null && job != seen) {
                    return job;
                }
                if (System.nanoTime() < spinUntil) {
                    spin(++spins);
                } else {
                    parked = true;
                    job = current;
                    if (job == null || job == seen) {
                        if (!closed) {
                            LockSupport.park(this);
                        }
                    }
                    parked = false;
                    spinUntil = System.nanoTime() + SPIN_NANOS;
                }
            }
            return null;
        }
    }
}
