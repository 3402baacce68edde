package io.opscv.op;

import io.opscv.plan.Executor;

/**
 * What phase 1 ({@code aclnnXxxGetWorkspaceSize}) hands back through its two output pointers: the
 * bytes of workspace phase 2 needs, and the executor holding the plan.
 */
public record WorkspaceAndExecutor(long workspaceSize, Executor executor) {}
