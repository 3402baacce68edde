package io.opscv.perf;

import io.opscv.kernel.StridedTensor;
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
    private final CopyBaseline copy;

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
        CopyBaseline.fillOrdinary(gradOutMemory.segment(), benchCase.dtype());
        outputSize = IntArray.of(benchCase.lout());
        inputSize = IntArray.of(n, c, benchCase.lin());
        copy = new CopyBaseline(device, benchCase.copyBytes());
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
        copy.run();
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
