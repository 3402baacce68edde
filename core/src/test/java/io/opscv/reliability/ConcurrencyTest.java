package io.opscv.reliability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.op.UpsampleBilinear2d;
import io.opscv.op.UpsampleBilinear2dBackwardV2;
import io.opscv.op.UpsampleLinear1d;
import io.opscv.op.UpsampleLinear1dBackward;
import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.runtime.AclRuntime;
import io.opscv.runtime.AclnnException;
import io.opscv.runtime.AclnnStatus;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Device;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;
import io.opscv.testing.TestDevice;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Concurrency (issue 6, item 5): 8 threads on 4 streams running a mix of the four operators give
 * bit-identical results to a serial run; synchronize waits for exactly the work queued on its stream
 * before it; closing the runtime with work in flight neither hangs nor crashes. Waits are bounded by timeouts; nothing asserts a
 * duration.
 */
class ConcurrencyTest {
    private static final Duration LIMIT = Duration.ofSeconds(120);
    static final int THREADS = 8;
    static final int STREAMS = 4;
    static final int CALLS_PER_THREAD = 40;

    /** The operators of the mix. */
    enum Op { LINEAR1D_BACKWARD, LINEAR1D, BILINEAR2D_BACKWARD, BILINEAR2D }

    /**
     * One call of the mix: any of the four operators, copies and interpolations, all dtypes, both modes, NCHW and
     * NHWC, contiguous and transposed outs.
     *
     * @param in  the forward's input sizes ({Lin} or {Hin, Win})
     * @param out the forward's output sizes
     */
    record Spec(Op op, int n, int c, int[] in, int[] out, DataType dtype, boolean alignCorners, boolean transposedOut,
                boolean nhwc, long seed) {
        static Spec random(SplittableRandom rnd) {
            DataType[] types = {DataType.FLOAT, DataType.FLOAT16, DataType.BF16};
            Op op = Op.values()[rnd.nextInt(Op.values().length)];
            int[] in;
            int[] out;
            if (op == Op.LINEAR1D_BACKWARD || op == Op.LINEAR1D) {
                int lin = 1 + rnd.nextInt(700);
                in = new int[] {lin};
                out = new int[] {rnd.nextInt(5) == 0 ? lin : 1 + rnd.nextInt(Math.min(1200, 500 * lin))};
            } else {
                in = new int[] {1 + rnd.nextInt(40), 1 + rnd.nextInt(40)};
                out = new int[] {rnd.nextInt(5) == 0 ? in[0] : 1 + rnd.nextInt(60), 1 + rnd.nextInt(60)};
            }
            return new Spec(op, 1 + rnd.nextInt(3), 1 + rnd.nextInt(8), in, out, types[rnd.nextInt(3)], rnd.nextBoolean(),
                    rnd.nextBoolean(), in.length == 2 && rnd.nextBoolean(), rnd.nextLong());
        }

        boolean backward() {
            return op == Op.LINEAR1D_BACKWARD || op == Op.BILINEAR2D_BACKWARD;
        }

        /** (N, C, sizes...) in the layout's order (N, sizes..., C for NHWC). */
        long[] shape(int[] sizes) {
            long[] shape = new long[2 + sizes.length];
            shape[0] = n;
            shape[nhwc ? shape.length - 1 : 1] = c;
            for (int d = 0; d < sizes.length; d++) {
                shape[(nhwc ? 1 : 2) + d] = sizes[d];
            }
            return shape;
        }

        /** Runs phase 1 and 2 on {@code stream}, synchronizes, and returns out's view as raw bytes (row-major). */
        byte[] run(TestDevice dev, Stream stream) {
            Format format = in.length == 1 ? Format.ND : nhwc ? Format.NHWC : Format.NCHW;
            long[] inputShape = shape(backward() ? out : in);
            long[] outShape = shape(backward() ? in : out);
            SplittableRandom values = new SplittableRandom(seed);
            float[] v = new float[Math.toIntExact(numel(inputShape))];
            for (int k = 0; k < v.length; k++) {
                v[k] = (float) (values.nextDouble() * 20 - 10);
            }
            Tensor input = dev.tensor(inputShape, dtype, v, format);
            long[] strides = Tensor.contiguousStrides(outShape);
            if (transposedOut) {
                // The last two dimensions swapped in memory.
                int r = outShape.length;
                strides[r - 1] = outShape[r - 2];
                strides[r - 2] = 1;
            }
            Tensor result = dev.strided(outShape, dtype, strides, 0, new float[Math.toIntExact(numel(outShape))], format);
            WorkspaceAndExecutor p = phase1(input, result);
            try (DeviceMemory workspace = p.workspaceSize() > 0 ? dev.device.malloc(p.workspaceSize()) : null) {
                switch (op) {
                    case LINEAR1D_BACKWARD -> UpsampleLinear1dBackward.run(workspace, p.workspaceSize(), p.executor(), stream);
                    case LINEAR1D -> UpsampleLinear1d.run(workspace, p.workspaceSize(), p.executor(), stream);
                    case BILINEAR2D_BACKWARD -> UpsampleBilinear2dBackwardV2.run(workspace, p.workspaceSize(), p.executor(), stream);
                    case BILINEAR2D -> UpsampleBilinear2d.run(workspace, p.workspaceSize(), p.executor(), stream);
                }
                stream.synchronize();
            }
            int count = Math.toIntExact(numel(outShape));
            byte[] bytes = new byte[count * dtype.byteSize()];
            long[] index = new long[outShape.length];
            for (int k = 0; k < count; k++) {
                long at = FuzzArguments.at(result, index) * dtype.byteSize();
                for (int b = 0; b < dtype.byteSize(); b++) {
                    bytes[k * dtype.byteSize() + b] = result.segment().get(ValueLayout.JAVA_BYTE, at + b);
                }
                FuzzArguments.increment(index, outShape);
            }
            input.memory().close();
            result.memory().close();
            return bytes;
        }

        private WorkspaceAndExecutor phase1(Tensor input, Tensor result) {
            return switch (op) {
                case LINEAR1D_BACKWARD -> UpsampleLinear1dBackward.getWorkspaceSize(input, IntArray.of(out[0]),
                        IntArray.of(n, c, in[0]), alignCorners, 0, result);
                case LINEAR1D -> UpsampleLinear1d.getWorkspaceSize(input, IntArray.of(out[0]), alignCorners, 0, result);
                case BILINEAR2D_BACKWARD -> UpsampleBilinear2dBackwardV2.getWorkspaceSize(input, IntArray.of(out[0], out[1]),
                        IntArray.of(shape(in)), alignCorners, 0, 0, result);
                case BILINEAR2D -> UpsampleBilinear2d.getWorkspaceSize(input, IntArray.of(out[0], out[1]), alignCorners, 0, 0,
                        result);
            };
        }

        private static long numel(long[] shape) {
            long count = 1;
            for (long d : shape) {
                count *= d;
            }
            return count;
        }

        @Override
        public String toString() {
            return op + " n=" + n + " c=" + c + " in=" + java.util.Arrays.toString(in) + " out=" + java.util.Arrays.toString(out)
                    + " " + dtype + " alignCorners=" + alignCorners + " transposedOut=" + transposedOut + " nhwc=" + nhwc;
        }
    }

    @Test
    void eightThreadsOnFourStreamsMatchASerialRunBitForBit() {
        assertTimeoutPreemptively(LIMIT, () -> {
            SplittableRandom rnd = new SplittableRandom(6);
            List<Spec> specs = new ArrayList<>();
            for (int k = 0; k < THREADS * CALLS_PER_THREAD; k++) {
                specs.add(Spec.random(rnd));
            }
            List<byte[]> serial = new ArrayList<>();
            try (TestDevice dev = new TestDevice()) {
                for (Spec s : specs) {
                    serial.add(s.run(dev, dev.stream));
                }
            }
            try (TestDevice dev = new TestDevice()) {
                Stream[] streams = new Stream[STREAMS];
                streams[0] = dev.stream;
                for (int k = 1; k < STREAMS; k++) {
                    streams[k] = dev.device.createStream();
                }
                CyclicBarrier start = new CyclicBarrier(THREADS);
                ExecutorService pool = Executors.newFixedThreadPool(THREADS);
                List<Future<Integer>> compared = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    int thread = t;
                    compared.add(pool.submit(() -> {
                        start.await();
                        int count = 0;
                        // Each thread takes every THREADS-th call, in reverse order for odd threads, so the mix differs.
                        for (int k = 0; k < CALLS_PER_THREAD; k++) {
                            int i = (thread % 2 == 0 ? k : CALLS_PER_THREAD - 1 - k) * THREADS + thread;
                            byte[] got = specs.get(i).run(dev, streams[thread % STREAMS]);
                            assertArrayEquals(serial.get(i), got, "call " + i + " " + specs.get(i) + " on thread " + thread);
                            count++;
                        }
                        return count;
                    }));
                }
                int total = 0;
                for (Future<Integer> f : compared) {
                    total += f.get();
                }
                pool.shutdown();
                assertEquals(THREADS * CALLS_PER_THREAD, total);
                java.util.Map<Op, Long> perOp = new java.util.EnumMap<>(Op.class);
                for (Spec s : specs) {
                    perOp.merge(s.op(), 1L, Long::sum);
                }
                for (Op op : Op.values()) {
                    assertTrue(perOp.getOrDefault(op, 0L) >= THREADS * CALLS_PER_THREAD / 8, "the mix runs every operator: " + perOp);
                }
                System.out.println("concurrency: " + total + " concurrent runs on " + THREADS + " threads x " + STREAMS
                        + " streams (" + perOp + "), bit-identical to the serial run");
            }
        });
    }

    /** Waits (bounded) until {@code thread} is parked, i.e. blocked in a wait. */
    private static void awaitParked(Thread thread) {
        assertTimeoutPreemptively(LIMIT, () -> {
            while (thread.getState() != Thread.State.WAITING && thread.getState() != Thread.State.TERMINATED) {
                Thread.onSpinWait();
            }
        });
    }

    private static Runnable blocker(CountDownLatch latch, AtomicBoolean ran) {
        return () -> {
            try {
                latch.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ran.set(true);
        };
    }

    @Test
    void synchronizeWaitsForExactlyTheWorkQueuedOnItsStreamBeforeIt() {
        assertTimeoutPreemptively(LIMIT, () -> {
            try (TestDevice dev = new TestDevice()) {
                Stream a = dev.stream;
                Stream b = dev.device.createStream();
                CountDownLatch first = new CountDownLatch(1);
                CountDownLatch second = new CountDownLatch(1);
                AtomicBoolean firstRan = new AtomicBoolean();
                AtomicBoolean secondRan = new AtomicBoolean();
                a.launch(blocker(first, firstRan));

                // Another stream's synchronize does not wait for a's work.
                Spec spec = new Spec(Op.LINEAR1D_BACKWARD, 1, 2, new int[] {6}, new int[] {3}, DataType.FLOAT, true, false, false, 1);
                byte[] onB = spec.run(dev, b);
                assertEquals(2 * 6 * 4, onB.length);
                assertFalse(firstRan.get(), "b's synchronize returned while a's task is still blocked");

                // a's synchronize waits for the first task, and not for a second one queued after it was called.
                CountDownLatch synced = new CountDownLatch(1);
                Thread syncer = Thread.ofPlatform().start(() -> {
                    a.synchronize();
                    synced.countDown();
                });
                awaitParked(syncer);
                a.launch(blocker(second, secondRan));
                assertFalse(synced.await(0, TimeUnit.SECONDS), "synchronize returned before the first task ran");
                first.countDown();
                assertTrue(synced.await(LIMIT.toSeconds(), TimeUnit.SECONDS), "synchronize waited for work queued after it");
                assertTrue(firstRan.get());
                assertFalse(secondRan.get());
                second.countDown();
                a.synchronize();
                assertTrue(secondRan.get());
            }
        });
    }

    @Test
    void closingTheRuntimeWithWorkInFlightNeitherHangsNorCrashes() {
        assertTimeoutPreemptively(LIMIT, () -> {
            AclRuntime acl = AclRuntime.init();
            Device device = acl.setDevice(0);
            Stream[] streams = new Stream[STREAMS];
            for (int k = 0; k < STREAMS; k++) {
                streams[k] = device.createStream();
            }
            AtomicInteger launched = new AtomicInteger();
            CountDownLatch enough = new CountDownLatch(THREADS * 5);
            ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
            AtomicInteger statuses = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                pool.submit(() -> {
                    Stream stream = streams[thread % STREAMS];
                    try {
                        while (true) {
                            DeviceMemory g = device.malloc(2 * 64 * 2000 * 4);
                            DeviceMemory o = device.malloc(2 * 64 * 700 * 4);
                            Tensor gradOut = Tensor.create(new long[] {2, 64, 2000}, DataType.FLOAT, Format.ND, g);
                            Tensor out = Tensor.create(new long[] {2, 64, 700}, DataType.FLOAT, Format.ND, o);
                            WorkspaceAndExecutor p = UpsampleLinear1dBackward.getWorkspaceSize(gradOut, IntArray.of(2000),
                                    IntArray.of(2, 64, 700), thread % 2 == 0, 0, out);
                            UpsampleLinear1dBackward.run(null, 0, p.executor(), stream);
                            launched.incrementAndGet();
                            enough.countDown();
                            stream.synchronize();
                            g.close();
                            o.close();
                        }
                    } catch (AclnnException e) {
                        // The runtime went away under this thread: a status, as promised.
                        statuses.incrementAndGet();
                        if (e.status() != AclnnStatus.ERR_PARAM_INVALID) {
                            unexpected.add(e);
                        }
                    } catch (Throwable e) {
                        unexpected.add(e);
                    }
                });
            }
            enough.await();
            acl.close();
            pool.shutdown();
            assertTrue(pool.awaitTermination(LIMIT.toSeconds(), TimeUnit.SECONDS), "threads still running after aclFinalize");
            assertTrue(unexpected.isEmpty(), () -> "not a 161002 status: " + unexpected);
            assertEquals(THREADS, statuses.get(), "every thread ended with a status");
            for (Stream s : streams) {
                assertFalse(s.isOpen());
            }
            assertTrue(launched.get() >= THREADS * 5);
        });
    }
}
