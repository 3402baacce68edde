package io.opscv.testing;

import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.plan.Executor;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Stream;

/** Runs phase 2 of any operator the way the upstream samples do: a workspace of exactly the returned size. */
public final class Phase2 {
    private Phase2() {}

    /** An operator's phase-2 entry point, e.g. {@code UpsampleLinear1dBackward::run}. */
    @FunctionalInterface
    public interface Call {
        void run(DeviceMemory workspace, long workspaceSize, Executor executor, Stream stream);
    }

    /**
     * Mallocs exactly {@code phase1.workspaceSize()} bytes (none when 0) and fills them with 0xFF
     * bytes (NaN as float, as FLOAT16 and as BF16), so that a step reading an intermediate it did not
     * write shows; runs, synchronizes, frees.
     */
    public static void run(TestDevice dev, WorkspaceAndExecutor phase1, Call call) {
        long size = phase1.workspaceSize();
        try (DeviceMemory workspace = size > 0 ? dev.device.malloc(size) : null) {
            if (workspace != null) {
                workspace.segment().fill((byte) 0xFF);
            }
            call.run(workspace, size, phase1.executor(), dev.stream);
            dev.stream.synchronize();
        }
    }
}
