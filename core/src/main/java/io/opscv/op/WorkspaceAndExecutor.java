package io.opscv.op;

import io.opscv.plan.Executor;

/**
 * What phase 1 ({@code aclnnXxxGetWorkspaceSize}) hands back through its two output pointers: the
 * bytes of workspace phase 2 needs, and the executor holding the plan.
 *
 * @param workspaceSize the bytes of workspace phase 2 needs (0: pass a null workspace)
 * @param executor      the single-use plan, for the operator's {@code run}
 */
public record WorkspaceAndExecutor(long workspaceSize, Executor executor) {}
