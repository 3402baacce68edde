package io.opscv.perf.sweep;

import io.opscv.op.UpsampleBilinear2d;
import io.opscv.op.UpsampleBilinear2dBackwardV2;
import io.opscv.op.UpsampleLinear1d;
import io.opscv.op.UpsampleLinear1dBackward;
import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.perf.CopyBaseline;
import io.opscv.plan.Executor;
import io.opscv.runtime.AclRuntime;
import io.opscv.runtime.Device;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;
import java.lang.foreign.MemorySegment;

/**
 * What one sweep case runs on: a runtime, device and stream; the operator's input filled with ordinary
 * values, laid out as the case says; out; and the copy baseline of the same traffic. {@link #runOperator()}
 * is one whole call through the public API (phase 1, phase 2, synchronize).
 */
public final class SweepFixture implements AutoCloseable {
    private final SweepCase sweepCase;
    private final AclRuntime runtime;
    private final Device device;
    private final Stream stream;
    private final Tensor input;
    private final Tensor out;
    private final IntArray outputSize;
    private final IntArray inputSize;
    private final CopyBaseline copy;

    /** Allocates and fills the tensors of {@code sweepCase}, touching every page once. */
    public SweepFixture(SweepCase sweepCase) {
        this.sweepCase = sweepCase;
        this.runtime = AclRuntime.init();
        try {
            this.device = runtime.setDevice(0);
            this.stream = device.createStream();
            SweepCase k = sweepCase;
            long[] inSizes = k.op().backward() ? new long[] {k.hout(), k.wout()} : new long[] {k.hin(), k.win()};
            long[] outSizes = k.op().backward() ? new long[] {k.hin(), k.win()} : new long[] {k.hout(), k.wout()};
            if (k.op().twoD()) {
                input = map(inSizes);
                out = map(outSizes);
                outputSize = IntArray.of(k.hout(), k.wout());
                inputSize = k.layout() == SweepLayout.NHWC ? IntArray.of(k.n(), k.hin(), k.win(), k.c())
                        : IntArray.of(k.n(), k.c(), k.hin(), k.win());
            } else {
                input = rows(inSizes[1], k.layout() == SweepLayout.TRANSPOSED, 0);
                out = rows(outSizes[1], false, k.layout() == SweepLayout.STRIDED_OUT
                        ? SweepLayout.stridedOutPitch(outSizes[1]) : 0);
                outputSize = IntArray.of(k.wout());
                inputSize = IntArray.of(k.n(), k.c(), k.win());
            }
            CopyBaseline.fillOrdinary(input.segment(), k.dtype());
            out.segment().fill((byte) 0);
            copy = new CopyBaseline(device, k.copyBytes());
        } catch (RuntimeException | Error e) {
            runtime.close();
            throw e;
        }
    }

    /** (N, C, L) rows: contiguous, (N, L, C) storage viewed as (N, C, L), or rows {@code pitch} apart. */
    private Tensor rows(long length, boolean transposed, long pitch) {
        SweepCase k = sweepCase;
        long[] shape = {k.n(), k.c(), length};
        if (transposed) {
            DeviceMemory memory = device.malloc(k.n() * k.c() * length * k.dtype().byteSize());
            return Tensor.create(shape, k.dtype(), new long[] {length * k.c(), 1, k.c()}, 0, Format.ND,
                    new long[] {k.n(), length, k.c()}, memory);
        }
        if (pitch > 0) {
            DeviceMemory memory = device.malloc(k.n() * k.c() * pitch * k.dtype().byteSize());
            return Tensor.create(shape, k.dtype(), new long[] {k.c() * pitch, pitch, 1}, 0, Format.ND,
                    new long[] {k.n(), k.c(), pitch}, memory);
        }
        DeviceMemory memory = device.malloc(k.n() * k.c() * length * k.dtype().byteSize());
        return Tensor.create(shape, k.dtype(), null, 0, Format.ND, shape, memory);
    }

    /** A contiguous map tensor, (N, C, H, W) as NCHW or (N, H, W, C) as NHWC. */
    private Tensor map(long[] hw) {
        SweepCase k = sweepCase;
        boolean nhwc = k.layout() == SweepLayout.NHWC;
        long[] shape = nhwc ? new long[] {k.n(), hw[0], hw[1], k.c()} : new long[] {k.n(), k.c(), hw[0], hw[1]};
        DeviceMemory memory = device.malloc(k.n() * k.c() * hw[0] * hw[1] * k.dtype().byteSize());
        return Tensor.create(shape, k.dtype(), nhwc ? Format.NHWC : Format.NCHW, memory);
    }

    public SweepCase sweepCase() {
        return sweepCase;
    }

    /** One call as a user makes it: phase 1, phase 2 on the stream (with a workspace if asked), synchronize. */
    public void runOperator() {
        SweepCase k = sweepCase;
        WorkspaceAndExecutor phase1 = switch (k.op()) {
            case LINEAR1D_BACKWARD -> UpsampleLinear1dBackward.getWorkspaceSize(input, outputSize, inputSize,
                    k.alignCorners(), k.scalesW(), out);
            case LINEAR1D -> UpsampleLinear1d.getWorkspaceSize(input, outputSize, k.alignCorners(), k.scalesW(), out);
            case BILINEAR2D -> UpsampleBilinear2d.getWorkspaceSize(input, outputSize, k.alignCorners(), k.scalesH(),
                    k.scalesW(), out);
            case BILINEAR2D_BACKWARD -> UpsampleBilinear2dBackwardV2.getWorkspaceSize(input, outputSize, inputSize,
                    k.alignCorners(), k.scalesH(), k.scalesW(), out);
        };
        DeviceMemory workspace = phase1.workspaceSize() > 0 ? device.malloc(phase1.workspaceSize()) : null;
        try {
            launch(workspace, phase1.workspaceSize(), phase1.executor());
            stream.synchronize();
        } finally {
            if (workspace != null) {
                workspace.close();
            }
        }
    }

    private void launch(DeviceMemory workspace, long workspaceSize, Executor executor) {
        switch (sweepCase.op()) {
            case LINEAR1D_BACKWARD -> UpsampleLinear1dBackward.run(workspace, workspaceSize, executor, stream);
            case LINEAR1D -> UpsampleLinear1d.run(workspace, workspaceSize, executor, stream);
            case BILINEAR2D -> UpsampleBilinear2d.run(workspace, workspaceSize, executor, stream);
            case BILINEAR2D_BACKWARD -> UpsampleBilinear2dBackwardV2.run(workspace, workspaceSize, executor, stream);
        }
    }

    /** The baseline: copies {@link SweepCase#copyBytes()} bytes with the shared pool's threads. */
    public void runCopy() {
        copy.run();
    }

    /** out's memory (for checks that the operator wrote something). */
    public MemorySegment outSegment() {
        return out.segment();
    }

    @Override
    public void close() {
        inputSize.close();
        outputSize.close();
        input.close();
        out.close();
        runtime.close();
    }
}
