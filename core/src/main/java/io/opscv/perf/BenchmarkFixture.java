package io.opscv.perf;

import io.opscv.kernel.ElementCodec;
import io.opscv.kernel.StridedTensor;
import io.opscv.kernel.WorkerPool;
import io.opscv.op.UpsampleLinear1dBackward;
import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.plan.TensorViews;
import io.opscv.runtime.AclRuntime;
import io.opscv.runtime.Device;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;
import java.lang.foreign.MemorySegment;
import java.util.function.BiConsumer;

/**
 * Everything one benchmark case runs on: a runtime, a device and a stream, gradOut filled with
 * ordinary finite values, out, and the two buffers of the copy baseline. {@link #runOperator()} is
 * one whole call as a user makes it (phase 1, phase 2, synchronize); {@link #runCopy()} copies
 * {@link BenchmarkCase#copyBytes()} bytes with the same threads.
 */
public final class BenchmarkFixture implements AutoCloseable {
    /** Bytes per copy task: large enough that the per-task cost is noise. */
    private static final long COPY_CHUNK = 1 << 20;

    private final BenchmarkCase benchCase;
    private final AclRuntime runtime;
    private final Device device;
    private final Stream stream;
    private final Tensor gradOut;
    private final Tensor out;
    private final DeviceMemory gradOutMemory;
    private final DeviceMemory outMemory;
    private final IntArray outputSize;
    private final IntArray inputSize;
    private final DeviceMemory copySource;
    private final DeviceMemory copyTarget;

    /** Allocates and fills the tensors of {@code benchCase} (and touches every page once). */
    public BenchmarkFixture(BenchmarkCase benchCase) {
        this.benchCase = benchCase;
        this.runtime = AclRuntime.init();
        this.device = runtime.setDevice(0);
        this.stream = device.createStream();
        int n = benchCase.n();
        int c = benchCase.c();
        long[] gradOutShape = {n, c, benchCase.lout()};
        long[] outShape = {n, c, benchCase.lin()};
        gradOutMemory = device.malloc(benchCase.gradOutBytes());
        if (benchCase.transposed()) {
            // Storage (N, Lout, C), viewed as (N, C, Lout).
            long[] storage = {n, benchCase.lout(), c};
            long[] strides = {(long) benchCase.lout() * c, 1, c};
            gradOut = Tensor.create(gradOutShape, benchCase.dtype(), strides, 0, Format.ND, storage, gradOutMemory);
        } else {
            gradOut = Tensor.create(gradOutShape, benchCase.dtype(), null, 0, Format.ND, gradOutShape, gradOutMemory);
        }
        outMemory = device.malloc(benchCase.outBytes());
        out = Tensor.create(outShape, benchCase.dtype(), null, 0, Format.ND, outShape, outMemory);
        fill(gradOutMemory.segment(), benchCase);
        outputSize = IntArray.of(benchCase.lout());
        inputSize = IntArray.of(n, c, benchCase.lin());
        copySource = device.malloc(Math.max(1, benchCase.copyBytes()));
        copyTarget = device.malloc(Math.max(1, benchCase.copyBytes()));
        copySource.segment().fill((byte) 1);
        copyTarget.segment().fill((byte) 2);
    }

    /** Repeats a short run of ordinary values (no zeros, subnormals or non-finite ones) over the whole buffer. */
    private static void fill(MemorySegment segment, BenchmarkCase benchCase) {
        int count = 4096;
        float[] values = new float[count];
        for (int k = 0; k < count; k++) {
            values[k] = 0.25f + (k * 37 % 101) / 64f * ((k & 1) == 0 ? 1 : -1);
        }
        int size = benchCase.dtype().byteSize();
        long elements = segment.byteSize() / size;
        MemorySegment pattern = MemorySegment.ofArray(new byte[count * size]);
        ElementCodec.encode(values, 0, count, pattern, benchCase.dtype(), 0, 1);
        for (long e = 0; e < elements; e += count) {
            long run = Math.min(count, elements - e);
            MemorySegment.copy(pattern, 0, segment, e * size, run * size);
        }
    }

    public BenchmarkCase benchCase() {
        return benchCase;
    }

    /** One call as a user makes it: phase 1, phase 2 on the stream, synchronize. */
    public void runOperator() {
        WorkspaceAndExecutor phase1 = UpsampleLinear1dBackward.getWorkspaceSize(gradOut, outputSize, inputSize,
                benchCase.alignCorners(), benchCase.scales(), out);
        if (phase1.workspaceSize() > 0) {
            try (DeviceMemory workspace = device.malloc(phase1.workspaceSize())) {
                UpsampleLinear1dBackward.run(workspace, phase1.workspaceSize(), phase1.executor(), stream);
                stream.synchronize();
            }
        } else {
            UpsampleLinear1dBackward.run(null, 0, phase1.executor(), stream);
            stream.synchronize();
        }
    }

    /** The baseline: copies {@link BenchmarkCase#copyBytes()} bytes, split over the shared pool's threads. */
    public void runCopy() {
        MemorySegment src = copySource.segment();
        MemorySegment dst = copyTarget.segment();
        long bytes = benchCase.copyBytes();
        int chunks = (int) Math.max(1, (bytes + COPY_CHUNK - 1) / COPY_CHUNK);
        if (chunks == 1) {
            MemorySegment.copy(src, 0, dst, 0, bytes);
            return;
        }
        WorkerPool.shared().forEach(chunks, (chunk, slot) -> {
            long from = chunk * COPY_CHUNK;
            MemorySegment.copy(src, from, dst, from, Math.min(COPY_CHUNK, bytes - from));
        });
    }

    /**
     * Runs {@code body} on gradOut and out as the kernels see them, their memory held for raw access
     * meanwhile (as a running plan holds it): for tools that call the kernels' driver directly.
     */
    public void withKernelViews(BiConsumer<StridedTensor, StridedTensor> body) {
        if (!gradOutMemory.pin()) {
            throw new IllegalStateException("gradOut's memory was freed");
        }
        try {
            if (!outMemory.pin()) {
                throw new IllegalStateException("out's memory was freed");
            }
            try {
                body.accept(TensorViews.of(gradOut), TensorViews.of(out));
            } finally {
                outMemory.unpin();
            }
        } finally {
            gradOutMemory.unpin();
        }
    }

    /** out's memory (for checks that the operator wrote something). */
    public MemorySegment outSegment() {
        return out.segment();
    }

    @Override
    public void close() {
        inputSize.close();
        outputSize.close();
        gradOut.close();
        out.close();
        runtime.close();
    }
}
