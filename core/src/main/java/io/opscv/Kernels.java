package io.opscv;

import io.opscv.kernel.KernelProviders;

/**
 * Which kernels this process computes with. The Vector API kernels run when the JVM has the
 * {@code jdk.incubator.vector} module ({@code --add-modules jdk.incubator.vector}); otherwise, or
 * with {@code -Dopscv.kernels=scalar}, the scalar kernels run, which give the same bits, about ten
 * times slower. The first time the scalar kernels are chosen without being asked for, one WARNING
 * line names the missing flag (through {@link System.Logger}).
 */
public final class Kernels {
    private Kernels() {}

    /**
     * The kernels in use.
     *
     * @return {@code "vector-512"}, {@code "vector-256"}, {@code "vector-128"} (the Vector API at
     *         that vector width in bits), or {@code "scalar"}
     */
    public static String active() {
        return KernelProviders.get().name();
    }
}
