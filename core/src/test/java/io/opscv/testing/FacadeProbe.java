package io.opscv.testing;

import io.opscv.Kernels;
import io.opscv.Upsample1d;
import java.util.Arrays;

/**
 * A main for tests that start a JVM of their own: prints the kernels in use and the sample
 * backward through the facade, on stdout only, so that whatever reaches stderr is the library's or the JVM's.
 * It lives outside the module's packages so that it can run on the class path beside the module.
 */
public final class FacadeProbe {
    private FacadeProbe() {}

    public static void main(String[] args) {
        System.out.println(Kernels.active());
        System.out.println(Arrays.toString(Upsample1d.linear(1, 1, 6, 3).alignCorners(true).scale(0.5)
                .backward(new float[] {1, 2, 3})));
        // A second call: the warning is logged once per process, not once per call.
        Upsample1d.linear(1, 1, 6, 3).backward(new float[] {1, 2, 3});
    }
}
