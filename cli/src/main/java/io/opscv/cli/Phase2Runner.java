package io.opscv.cli;

import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.plan.Executor;
import io.opscv.runtime.Device;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Stream;
import java.io.PrintStream;

/** Phase 2 as the subcommands run it: optionally print the plan, malloc the workspace, run, synchronize. */
final class Phase2Runner {
    private Phase2Runner() {}

    /** An operator's phase-2 entry point, e.g. {@code UpsampleLinear1d::run}. */
    @FunctionalInterface
    interface Call {
        void run(DeviceMemory workspace, long workspaceSize, Executor executor, Stream stream);
    }

    static void run(Device device, Stream stream, WorkspaceAndExecutor phase1, Call call, boolean explain, PrintStream out) {
        if (explain) {
            out.print(phase1.executor().explain());
            out.flush();
        }
        try (DeviceMemory workspace = phase1.workspaceSize() > 0 ? device.malloc(phase1.workspaceSize()) : null) {
            call.run(workspace, phase1.workspaceSize(), phase1.executor(), stream);
            stream.synchronize();
        }
    }
}
