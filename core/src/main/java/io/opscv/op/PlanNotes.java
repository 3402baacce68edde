package io.opscv.op;

import io.opscv.runtime.Device;
import io.opscv.runtime.Platform;
import io.opscv.runtime.SysParamOpt;
import io.opscv.runtime.Tensor;

/** How the operators' plans show their parameters in {@code Executor.explain()}. */
final class PlanNotes {
    private PlanNotes() {}

    /**
     * {@code deterministic=true|false}: the device's {@code ACL_OPT_DETERMINISTIC} switch, or the
     * platform's default when the tensor has no device. Shown on the Ascend950 steps, whose upstream
     * kernels are non-deterministic by default (SPEC §6); the kernels here give bit-identical results
     * either way.
     */
    static String determinism(Tensor tensor, Platform platform) {
        Device device = tensor.device();
        boolean deterministic = device != null
                ? device.getSysParamOpt(SysParamOpt.ACL_OPT_DETERMINISTIC) == 1
                : platform.deterministicByDefault();
        return "deterministic=" + deterministic;
    }

    /**
     * The scale parameter as upstream's {@code UpsampleBilinear2dGrad} takes it: the source step
     * 1 / scales when scales is given (> 0), else 0 ("compute it from the sizes").
     */
    static double sourceStep(double scales) {
        return scales > 0 ? 1.0 / scales : 0.0;
    }
}
