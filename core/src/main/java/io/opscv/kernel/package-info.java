/**
 * The resize kernels behind the plans' steps (internal): coordinate tables ({@link io.opscv.kernel.LinearTable}),
 * the fused 1-D backward ({@link io.opscv.kernel.Linear1dBackwardKernel}, rows in vector lanes, staged by
 * {@code LaneStage}), the forward and 2-D kernels, dtype codecs, and the {@link io.opscv.kernel.KernelProvider}
 * with its scalar reference and its Vector API implementation. How they work and how they are measured:
 * {@code docs/KERNELS.md}.
 */
package io.opscv.kernel;
