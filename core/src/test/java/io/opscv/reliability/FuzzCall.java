package io.opscv.reliability;

import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.plan.Executor;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;
import java.util.List;

/**
 * One generated call of one operator, as {@link FuzzHarness} drives it. Fuzzing a new operator
 * takes an implementation of this interface (its arguments, its SPEC oracle, its float64
 * reference), a jqwik generator of such calls, and a property in {@link OperatorFuzzTest}; the
 * invariants are the harness's.
 */
interface FuzzCall {

    /** The ACLNN name, for the statistics. */
    String operator();

    /** Creates the arguments in {@code args} (tensor creation may be refused: {@link FuzzArguments.CreationRefused}). */
    void build(FuzzArguments args);

    /** What phase 1 must give, by SPEC's rules in SPEC's order, for the arguments built. */
    Expectation expected();

    /**
     * For a call the oracle expects to succeed: why it is not run, when it reaches a known gap of the operator
     * (documented in docs/RELIABILITY.md and counted in the statistics); {@code null} for every other call.
     */
    default String knownGap() {
        return null;
    }

    /** Phase 1 ({@code aclnnXxxGetWorkspaceSize}) on the built arguments. */
    WorkspaceAndExecutor phase1();

    /** Phase 2 ({@code aclnnXxx}). */
    void phase2(DeviceMemory workspace, long workspaceSize, Executor executor, Stream stream);

    /** The tensors the call reads (their memory must not change). */
    List<Tensor> inputs();

    /** The tensor the call writes (only its view's elements may change). */
    Tensor output();

    /** Whether phase 2 can run it: false when a non-empty argument is a placeholder (phase 2 must refuse it). */
    boolean runnable();

    /**
     * After a run of {@code executor}: the output's elements against the float64 reference, within golden/README.md's
     * criterion (for a plan that takes the sizes only, SPEC §6's fallback, against {@link HalfPixelModel} too).
     */
    void checkResult(Executor executor);
}
