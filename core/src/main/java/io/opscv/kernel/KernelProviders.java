package io.opscv.kernel;

import java.lang.System.Logger.Level;
import java.util.Locale;

/**
 * Chooses the {@link KernelProvider}: the Vector API one when the {@code jdk.incubator.vector}
 * module is present (and the system property {@code opscv.kernels} does not say {@code scalar}),
 * else the scalar reference. The vector class is loaded reflectively, so the library runs without
 * {@code --add-modules jdk.incubator.vector} (Lucene's VectorizationProvider does the same).
 *
 * <p>When the scalar kernels are chosen without {@code opscv.kernels=scalar} asking for them, one
 * WARNING (through {@link System.Logger}, so on stderr unless the logging is configured otherwise)
 * names the flag that enables the vector ones: the fallback is ten times slower and otherwise silent.
 */
public final class KernelProviders {
    /** The system property that chooses the kernels: {@code scalar}, else the Vector API ones where present. */
    public static final String PROPERTY = "opscv.kernels";
    private static final System.Logger LOG = System.getLogger(KernelProviders.class.getName());
    /** The WARNING the fallback logs, once per process (the provider is chosen once). */
    static final String FALLBACK_WARNING = "opscv: using the scalar kernels (about 10x slower): start the JVM with"
            + " --add-modules jdk.incubator.vector for the Vector API ones, or set -Dopscv.kernels=scalar to choose them.";
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
            LOG.log(Level.DEBUG, () -> "Vector API kernels unavailable: " + e);
            return null;
        }
    }

    private static KernelProvider choose() {
        String wanted = System.getProperty(PROPERTY, "auto").toLowerCase(Locale.ROOT);
        if (!wanted.equals("scalar")) {
            KernelProvider v = vector();
            if (v != null) {
                return v;
            }
            LOG.log(Level.WARNING, FALLBACK_WARNING);
        }
        return scalar();
    }
}
