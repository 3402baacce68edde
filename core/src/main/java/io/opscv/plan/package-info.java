/**
 * Execution plans: the {@link io.opscv.plan.Executor} phase 1 returns ({@code aclOpExecutor}),
 * single-use, which {@link io.opscv.plan.Executor#explain()} describes step by step, and the steps a
 * platform's plan is made of (contiguous copies, casts, transposes, the resize kernels), with the
 * workspace they share.
 */
package io.opscv.plan;
