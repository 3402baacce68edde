/**
 * opscv: the upsample operators of CANN's ops-cv on the CPU, as a Java library.
 *
 * <ul>
 *   <li>{@link io.opscv}: the facade, one call per forward or backward ({@link io.opscv.Upsample1d},
 *       {@link io.opscv.Upsample2d}, {@link io.opscv.Kernels});</li>
 *   <li>{@link io.opscv.runtime} and {@link io.opscv.op}: the ACL mirror for golden-model use
 *       (runtime, devices, streams, tensors, the two-phase operator calls);</li>
 *   <li>{@link io.opscv.plan}: the executors phase 1 returns, which the mirror's callers hold and
 *       can {@link io.opscv.plan.Executor#explain() explain};</li>
 *   <li>{@link io.opscv.npy}: NumPy {@code .npy} files in and out of tensors.</li>
 * </ul>
 *
 * <p>The kernels, the references and the benchmarks' fixtures are internal. The Vector API module is
 * optional: with {@code --add-modules jdk.incubator.vector} the vector kernels run, without it the
 * scalar ones. The system properties {@code opscv.threads} and {@code opscv.kernels} are described in
 * {@link io.opscv}.
 */
module io.opscv {
    requires static jdk.incubator.vector;
    // AvailableMemory's fallback outside Linux: the JVM's view of free physical memory.
    requires jdk.management;
    // The sweep's recording of a case that boxed vectors (-Dopscv.sweep.boxedJfr); not needed otherwise.
    requires static jdk.jfr;

    exports io.opscv;
    exports io.opscv.npy;
    exports io.opscv.op;
    exports io.opscv.plan;
    exports io.opscv.runtime;
}
