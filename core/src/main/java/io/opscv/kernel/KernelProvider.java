package io.opscv.kernel;

/**
 * The inner loops of the resize kernels, on {@code float[]} working buffers. Implementations:
 * {@link ScalarKernelProvider} (the reference, always available) and a Vector API one loaded by
 * {@link KernelProviders} when {@code jdk.incubator.vector} is present.
 *
 * <p>Every implementation must give bit-identical results: each output is a sum in the canonical
 * order defined below, of float products, without fused multiply-add.
 */
public interface KernelProvider {

    /** A short name for logs and benchmarks: {@code scalar}, {@code vector-256}, ... */
    String name();

    /**
     * Backward of linear interpolation, gather form, for inputs {@code i0 <= i < i1}:
     * {@code acc[i - i0] = Σ w(i, j) · g[j - jBase]}, summed from 0f in the canonical order —
     * ascending j, and for one j the left-tap term before the right-tap term. That is the order in
     * which a scatter over ascending j would add them, so the result does not depend on how the
     * inputs are split into blocks or threads.
     *
     * @param g     gradOut values for positions {@code jBase .. }, covering
     *              {@code [table.gatherFrom(i0), table.gatherTo(i1))}
     */
    void linearBackward(LinearTable table, float[] g, int jBase, float[] acc, int i0, int i1);

    /**
     * Forward linear interpolation for outputs {@code j0 <= j < j1}:
     * {@code y[j - j0] = w0[j] · x[x0[j] - xBase] + w1[j] · x[x1[j] - xBase]}.
     *
     * @param x input values for positions {@code xBase ..}, covering {@code [x0[j0], x1[j1 - 1]]}
     */
    void linearForward(LinearTable table, float[] x, int xBase, float[] y, int j0, int j1);
}
