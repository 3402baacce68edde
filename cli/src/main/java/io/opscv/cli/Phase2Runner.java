package io.opscv.cli;

import io.opscv.kernel.KernelProviders;
import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.plan.Executor;
import io.opscv.runtime.Device;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;
import java.io.PrintStream;

/**
 * Phase 2 as the subcommands run it: optionally print the plan, malloc the workspace, run, synchronize; in the CLI's
 * own process, which makes one call, on the kernels that run one call fastest ({@link #kernelsFor}).
 */
final class Phase2Runner {
    /** The most bytes (the call's inputs and outputs) a process of one call runs on the scalar kernels. */
    static final long SCALAR_CALL_BYTES = 2L << 30;
    /** The operator subcommands' {@code --explain}. */
    static final String EXPLAIN = "Print the execution plan (steps, operands, workspace) and the kernels that run it,"
            + " before running it; the CLI runs calls of up to " + (SCALAR_CALL_BYTES >> 30) + " GiB (input and output)"
            + " on the scalar kernels, whose loops compile early (-D" + KernelProviders.PROPERTY + " in OPSCV_JAVA_OPTS"
            + " chooses others).";

    /**
     * Whether this process makes one call ({@link OpscvCli#main}); false where the commands run inside another
     * program, whose kernels are its own to choose.
     */
    static volatile boolean oneCallProcess;

    private Phase2Runner() {}

    /** An operator's phase-2 entry point, e.g. {@code UpsampleLinear1d::run}. */
    @FunctionalInterface
    interface Call {
        void run(DeviceMemory workspace, long workspaceSize, Executor executor, Stream stream);
    }

    /**
     * Runs {@code phase1}'s plan; {@code tensors} are the call's input and output, whose bytes choose the kernels
     * where {@value KernelProviders#PROPERTY} does not.
     */
    static void run(Device device, Stream stream, WorkspaceAndExecutor phase1, Call call, boolean explain, PrintStream out,
                    Tensor... tensors) {
        String chosen = oneCallProcess ? kernelsFor(System.getProperty(KernelProviders.PROPERTY), bytes(tensors)) : null;
        if (chosen != null) {
            // Read once, when the first kernel runs (KernelProviders), which is after this.
            System.setProperty(KernelProviders.PROPERTY, chosen);
        }
        if (explain) {
            out.print(phase1.executor().explain());
            out.println("  kernels: " + KernelProviders.get().name());
            out.flush();
        }
        try (DeviceMemory workspace = phase1.workspaceSize() > 0 ? device.malloc(phase1.workspaceSize()) : null) {
            call.run(workspace, phase1.workspaceSize(), phase1.executor(), stream);
            stream.synchronize();
        }
    }

    /**
     * The kernels for a process that makes one call moving {@code bytes}, where {@code given} (the property) names
     * none: the scalar ones up to {@link #SCALAR_CALL_BYTES}, else null (the default, the Vector API ones). A fresh JVM
     * runs the Vector API kernels as objects until C2 has compiled them, seconds into the call, where the scalar
     * loops are compiled early; both give the same bits. The bound is measured on whole one-call runs (docs/KERNELS.md,
     * "A cold JVM's first call").
     */
    static String kernelsFor(String given, long bytes) {
        return given == null && bytes <= SCALAR_CALL_BYTES ? "scalar" : null;
    }

    /** The bytes of {@code tensors}' elements. */
    static long bytes(Tensor... tensors) {
        long sum = 0;
        for (Tensor t : tensors) {
            sum += t.numel() * t.dataType().byteSize();
        }
        return sum;
    }
}
