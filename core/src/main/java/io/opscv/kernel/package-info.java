/**
 * The resize kernels behind the plans' steps (internal): coordinate tables ({@link io.opscv.kernel.LinearTable}),
 * the fused 1-D backward ({@link io.opscv.kernel.Linear1dBackwardKernel}, rows in vector lanes, staged by
 * {@code LaneStage}), the forward and 2-D kernels, dtype codecs, and the {@link io.opscv.kernel.KernelProvider}
 * with its scalar reference and its Vector API implementation. How they work and how they are measured:
 * {@code docs/KERNELS.md}.
 *
 * <p>The vector code keeps every vector inside one method and changes lane types only through constant species
 * ({@code reinterpretShape(INTS, 0)}): otherwise C2 boxes vectors in some processes and not in others, which
 * {@code docs/KERNELS.md} ("JIT state") measures and {@code VectorSourceRulesTest} partly guards.
 */
package io.opscv.kernel;
