package io.opscv.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.plan.Executor;
import io.opscv.runtime.AclRuntime;
import io.opscv.runtime.AclnnException;
import io.opscv.runtime.AclnnStatus;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Device;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;
import io.opscv.testing.Criterion;

/**
 * The invariants every fuzzed call must keep, whatever the operator:
 * <ol>
 *   <li>creating its tensors gives what {@link TensorRecipe#expectedCreation} computes exactly, and
 *       an accepted view lies inside its memory;</li>
 *   <li>phase 1 throws nothing but an {@link AclnnException}, with the status the operator's SPEC
 *       oracle expects and a message naming the failing argument, which is also the recent-error
 *       text; or succeeds exactly when the oracle says so;</li>
 *   <li>after a success, phase 2 refuses placeholders with 161002 (given the workspace phase 1 asked
 *       for), and otherwise runs to completion without a status; the inputs' memory is unchanged, the
 *       output's memory is unchanged outside its view's elements, and the elements match the float64
 *       reference (or, for SPEC §6's sizes-only fallback plans, {@link HalfPixelModel}).</li>
 * </ol>
 * Any other exception, a wrong status or a wrong value fails the property (jqwik then shrinks the call).
 */
final class FuzzHarness {
    private FuzzHarness() {}

    /** Runs {@code call} on {@code device}/{@code stream} and checks the invariants; counts the outcome. */
    static void check(FuzzCall call, Device device, Stream stream, long seed) {
        FuzzStatistics.increment(call.operator(), "calls");
        try (FuzzArguments args = new FuzzArguments(device, seed)) {
            try {
                call.build(args);
            } catch (FuzzArguments.CreationRefused e) {
                FuzzStatistics.increment(call.operator(), "outcome: tensor creation refused (as expected)");
                return;
            }
            Expectation expected = call.expected();
            FuzzStatistics.increment(call.operator(), "rule: " + expected.rule());
            String gap = expected.isSuccess() ? call.knownGap() : null;
            if (gap != null) {
                FuzzStatistics.increment(call.operator(), "outcome: not run, known gap: " + gap);
                return;
            }
            WorkspaceAndExecutor result;
            try {
                result = call.phase1();
            } catch (AclnnException e) {
                checkFailure(expected, e);
                FuzzStatistics.increment(call.operator(), "outcome: phase 1 " + e.status());
                return;
            }
            assertTrue(expected.isSuccess(), () -> "phase 1 succeeded but must give " + expected);
            assertNotNull(result.executor(), "phase 1 success without an executor");
            assertTrue(result.workspaceSize() >= 0, "negative workspace size");
            if (!call.runnable()) {
                checkPlaceholderRefused(call, result, device, stream);
                return;
            }
            args.snapshot(call.inputs().toArray(new Tensor[0]));
            args.snapshot(call.output());
            try (DeviceMemory workspace = result.workspaceSize() > 0 ? device.malloc(result.workspaceSize()) : null) {
                call.phase2(workspace, result.workspaceSize(), result.executor(), stream);
                stream.synchronize();
            }
            args.assertUnchangedExcept(call.output().isEmpty() ? null : call.output(), call.operator());
            call.checkResult(result.executor());
            FuzzStatistics.increment(call.operator(), call.output().isEmpty() ? "outcome: success, empty" : "outcome: success, computed and checked");
        }
    }

    /**
     * The first element of {@code got} outside golden/README.md's criterion against {@code expected} (with
     * {@code bound} and {@code terms}), described; {@code null} when every element meets it.
     */
    static String firstMismatch(double[] got, double[] expected, double[] bound, int terms, DataType type) {
        for (int k = 0; k < got.length; k++) {
            if (Criterion.errorRatio(got[k], expected[k], bound[k], terms, type) > 1) {
                return "element " + k + " is " + got[k] + ", the float64 reference " + expected[k] + " (bound " + bound[k]
                        + ", terms " + terms + ")";
            }
        }
        return null;
    }

    /**
     * Whether a result may be judged against {@link HalfPixelModel}: the plan takes the sizes only, on an architecture
     * whose fallback SPEC §6 describes (A2/A3, the training series).
     */
    static boolean sizesOnlyFallback(Platform platform, Executor executor) {
        return (platform.arch() == Platform.Arch.DAV_1001 || platform.arch() == Platform.Arch.DAV_2201)
                && HalfPixelModel.sizesOnly(executor);
    }

    /** The most workspace the fuzz allocates to show that phase 2 refuses a placeholder for what it is. */
    static final long MAX_PLACEHOLDER_WORKSPACE = 64L << 20;

    /**
     * Phase 2 refuses a call with a placeholder (161002), before it touches anything. Executor.launch checks the
     * workspace before the tensors, so the call gets the workspace phase 1 asked for; a plan of more than
     * {@link #MAX_PLACEHOLDER_WORKSPACE} (the products' plans of huge placeholders) gets none, and must be refused
     * for that (161001, naming the workspace).
     */
    private static void checkPlaceholderRefused(FuzzCall call, WorkspaceAndExecutor result, Device device, Stream stream) {
        long size = result.workspaceSize();
        if (size > MAX_PLACEHOLDER_WORKSPACE) {
            AclnnException e = assertThrows(AclnnException.class, () -> call.phase2(null, size, result.executor(), stream),
                    "phase 2 must refuse a missing workspace");
            assertEquals(AclnnStatus.ERR_PARAM_NULLPTR, e.status(), e.getMessage());
            assertTrue(e.getMessage().contains("argument workspace"), e.getMessage());
            FuzzStatistics.increment(call.operator(), "outcome: success, placeholder with a workspace too large to give, "
                    + "refused by phase 2");
            return;
        }
        try (DeviceMemory workspace = size > 0 ? device.malloc(size) : null) {
            AclnnException e = assertThrows(AclnnException.class, () -> call.phase2(workspace, size, result.executor(), stream),
                    "phase 2 must refuse a placeholder");
            assertEquals(AclnnStatus.ERR_PARAM_INVALID, e.status(), e.getMessage());
            assertTrue(e.getMessage().contains("placeholder"), e.getMessage());
        }
        FuzzStatistics.increment(call.operator(), "outcome: success, placeholder refused by phase 2");
    }

    private static void checkFailure(Expectation expected, AclnnException e) {
        String message = e.getMessage();
        assertEquals(expected.status(), e.status(), () -> "expected " + expected + " but got " + e);
        assertNotNull(message, "a status without a message");
        assertTrue(expected.names().matcher(message).find(),
                () -> "the message of " + e.status() + " must name /" + expected.names() + "/: " + message);
        assertEquals(message, AclRuntime.getRecentErrMsg(), "the recent-error text is the message");
    }
}
