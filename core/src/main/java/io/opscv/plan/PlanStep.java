package io.opscv.plan;

import java.lang.foreign.MemorySegment;

/**
 * One small ("l0") operator of an execution plan: Contiguous, Cast, TransData, ViewCopy, a resize
 * kernel... Phase 1 builds the steps; phase 2 runs them in order on the stream, with the caller's
 * workspace holding the intermediates.
 */
public interface PlanStep {

    /** {@return the l0 operator's name, e.g. {@code ViewCopy}} */
    String name();

    /** {@return its operands for plan introspection: shapes, dtypes, formats, where they live} */
    String describe();

    /** {@return the bytes of workspace this step's outputs occupy (0 when it writes into a user tensor)} */
    default long workspaceBytes() {
        return 0;
    }

    /**
     * Runs the step.
     *
     * @param workspace the caller's workspace, holding the intermediates (may be {@link MemorySegment#NULL})
     */
    void run(MemorySegment workspace);
}
