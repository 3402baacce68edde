package io.opscv;

import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.plan.Executor;
import io.opscv.runtime.AclRuntime;
import io.opscv.runtime.AclnnException;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Device;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Format;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * What runs the facade's calls: one runtime and device for the process, and a pool of lanes (a
 * stream with its staging memory), one per concurrent caller. A call borrows a lane, runs the two
 * ACLNN phases on it, waits for the stream and gives the lane back, so a reused caller pays for no
 * stream and no allocation.
 */
final class Engine {
    private static final Engine SHARED = new Engine();
    /** A thread that never runs: a segment it may access is one the stream's and the pool's threads may access. */
    private static final Thread OTHER_THREAD = Thread.ofVirtual().unstarted(() -> { });
    /** Staging memory larger than this is freed after the call rather than kept in the lane. */
    private static final long KEEP_LIMIT = 256L << 20;

    private final Device device;
    private final ConcurrentLinkedDeque<Lane> idle = new ConcurrentLinkedDeque<>();

    private Engine() {
        // The runtime lives as long as the process: its stream threads are daemons.
        device = AclRuntime.init().setDevice(0);
    }

    static Engine shared() {
        return SHARED;
    }

    /** Phase 1 of one operator on the call's tensors. */
    @FunctionalInterface
    interface Phase1 {
        WorkspaceAndExecutor plan(Tensor in, Tensor out);
    }

    /** Phase 2 of the same operator. */
    @FunctionalInterface
    interface Phase2 {
        void run(DeviceMemory workspace, long workspaceSize, Executor executor, Stream stream);
    }

    /**
     * Runs one operator from {@code in} (contiguous, {@code inShape}) into {@code out} and returns
     * when {@code out} holds the result. Segments other threads may access are used in place;
     * confined ones are staged through the lane's memory on the calling thread.
     */
    void run(long[] inShape, long[] outShape, Format format, DataType dtype, MemorySegment in, MemorySegment out,
             Phase1 phase1, Phase2 phase2) {
        Lane lane = borrow();
        boolean healthy = false;
        try {
            long inBytes = in.byteSize();
            long outBytes = out.byteSize();
            boolean stageIn = !shareable(in);
            boolean stageOut = !shareable(out);
            try (DeviceMemory inMemory = stageIn ? null : device.wrap(in);
                 DeviceMemory outMemory = stageOut ? null : device.wrap(out)) {
                DeviceMemory src = stageIn ? lane.input(inBytes) : inMemory;
                DeviceMemory dst = stageOut ? lane.output(outBytes) : outMemory;
                if (stageIn) {
                    MemorySegment.copy(in, 0, src.segment(), 0, inBytes);
                }
                try (Tensor inTensor = Tensor.create(inShape, dtype, format, src);
                     Tensor outTensor = Tensor.create(outShape, dtype, format, dst)) {
                    WorkspaceAndExecutor planned = phase1.plan(inTensor, outTensor);
                    long size = planned.workspaceSize();
                    phase2.run(size > 0 ? lane.workspace(size) : null, size, planned.executor(), lane.stream);
                    lane.stream.synchronize();
                }
                if (stageOut) {
                    MemorySegment.copy(dst.segment(), 0, out, 0, outBytes);
                }
            }
            healthy = true;
        } finally {
            giveBack(lane, healthy);
        }
    }

    /** Whether the stream's and the worker pool's threads may access {@code segment} (not a confined arena's). */
    static boolean shareable(MemorySegment segment) {
        return segment.isAccessibleBy(OTHER_THREAD);
    }

    private Lane borrow() {
        Lane lane = idle.pollFirst();
        return lane != null ? lane : new Lane(device.createStream());
    }

    private void giveBack(Lane lane, boolean healthy) {
        lane.trim();
        if (healthy && lane.stream.isOpen()) {
            idle.offerFirst(lane);
        } else {
            lane.close();
        }
    }

    /** A stream and the memory that stages confined segments and holds workspaces, grown as calls need. */
    private final class Lane {
        final Stream stream;
        private DeviceMemory input;
        private DeviceMemory output;
        private DeviceMemory workspace;

        Lane(Stream stream) {
            this.stream = stream;
        }

        DeviceMemory input(long bytes) {
            input = atLeast(input, bytes);
            return input;
        }

        DeviceMemory output(long bytes) {
            output = atLeast(output, bytes);
            return output;
        }

        DeviceMemory workspace(long bytes) {
            workspace = atLeast(workspace, bytes);
            return workspace;
        }

        private DeviceMemory atLeast(DeviceMemory memory, long bytes) {
            if (memory != null && memory.size() >= bytes) {
                return memory;
            }
            if (memory != null) {
                memory.close();
            }
            // malloc refuses 0 bytes; a 1-byte block serves empty tensors.
            return device.malloc(Math.max(bytes, 1));
        }

        /** Frees memory above {@link #KEEP_LIMIT}, so one huge call does not pin its staging for the process's life. */
        void trim() {
            input = trimmed(input);
            output = trimmed(output);
            workspace = trimmed(workspace);
        }

        private static DeviceMemory trimmed(DeviceMemory memory) {
            if (memory != null && memory.size() > KEEP_LIMIT) {
                memory.close();
                return null;
            }
            return memory;
        }

        void close() {
            for (AutoCloseable resource : new AutoCloseable[] {input, output, workspace, stream}) {
                try {
                    if (resource != null) {
                        resource.close();
                    }
                } catch (AclnnException ignored) {
                    // A lane is dropped after a failure; the failure itself has been reported to the caller.
                } catch (Exception e) {
                    throw new IllegalStateException("streams and device memory close without checked exceptions", e);
                }
            }
        }
    }
}
