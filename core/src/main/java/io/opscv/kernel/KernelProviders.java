package io.opscv.kernel;

import java.util.Locale;
import java.util.logging.Logger;

/**
 * Chooses the {@link KernelProvider}: the Vector API one when the {@code jdk.incubator.vector}
 * module is present (and the system property {@code opscv.kernels} does not say {@code scalar}),
 * else the scalar reference. The vector class is loaded reflectively, so the library runs without
 * {@code --add-modules jdk.incubator.vector} (Lucene's VectorizationProvider does the same).
 */
public final class KernelProviders {
    private static final Logger LOG = Logger.getLogger(KernelProviders.class.getName());
    private static final String VECTOR_PROVIDER = "io.opscv.kernel.VectorKernelProvider";
    private static final KernelProvider DEFAULT = choose();

    private KernelProviders() {}

    /** The provider the operators use. */
    public static KernelProvider get() {
        return DEFAULT;
    }

    /** The scalar reference provider (always available). */
    public static KernelProvider scalar() {
        return new ScalarKernelProvider();
    }

    /** The Vector API provider, or {@code null} when the module or the class is not available. */
    public static KernelProvider vector() {
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
            return null;
        }
        try {
            return (KernelProvider) Class.forName(VECTOR_PROVIDER).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError e) {
            LOG.fine(() -> "Vector API kernels unavailable: " + e);
            return null;
        }
    }

    private static KernelProvider choose() {
        String wanted = System.getProperty("opscv.kernels", "auto").toLowerCase(Locale.ROOT);
        if (!wanted.equals("scalar")) {
            KernelProvider v = vector();
            if (v != null) {
                return v;
            }
            LOG.fine("Using scalar kernels: start the JVM with --add-modules jdk.incubator.vector for SIMD ones.");
        }
        return scalar();
    }
}
