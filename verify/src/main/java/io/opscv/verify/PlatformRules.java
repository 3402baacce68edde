package io.opscv.verify;

import io.opscv.plan.Executor;
import io.opscv.plan.PlanStep;
import io.opscv.plan.ResizeBilinearV2Grad5HdStep;
import io.opscv.plan.ResizeBilinearV2Step;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Platform;
import java.util.Arrays;

/**
 * SPEC §6 as the harness reads it, written from the SPEC's product table rather than taken from the operators:
 * which cases a product refuses, and which of its plans compute from the sizes only. A case run as a product
 * (a case's {@code platform}, or {@code check --platform}) differs from the CPU's result only where these rules
 * say so.
 */
final class PlatformRules {
    private PlatformRules() {}

    /**
     * Why {@code platform} refuses case {@code c} by SPEC §6 (phase 1 must then fail with 161002), or {@code null}
     * when it runs it:
     * <ul>
     *   <li>Ascend310B and Ascend310P do not run the upsample operators;</li>
     *   <li>the training series (Ascend910, DAV_1001) has FP32 and FP16 only;</li>
     *   <li>A2/A3 (DAV_2201) run {@code aclnnUpsampleLinear1dBackward} in BF16 only when gradOut's shape equals
     *       inputSize (no interpolation).</li>
     * </ul>
     */
    static String refusal(Platform platform, CheckCase c) {
        if (!platform.supported()) {
            return "SPEC §6: " + platform.socName() + " does not run the upsample operators";
        }
        if (c.dataType() == DataType.BF16 && platform.arch() == Platform.Arch.DAV_1001) {
            return "SPEC §6: the training series (" + platform.socName() + ") has no BF16";
        }
        if (c.dataType() == DataType.BF16 && platform.arch() == Platform.Arch.DAV_2201
                && c.op().equals("upsample_linear1d_backward") && !Arrays.equals(c.inSizes(), c.outSizes())) {
            return "SPEC §6: " + platform.socName() + " (DAV_2201) runs BF16 only when gradOut's shape equals inputSize";
        }
        return null;
    }

    /**
     * Whether the plan phase 1 built computes from the sizes only, ignoring a given scales (SPEC §6's fallback:
     * {@code ResizeBilinearV2Grad5Hd}, or {@code ResizeBilinearV2} for the 2-D forward). SPEC §6 has such plans on
     * the architectures that reshape to 4-D (A2/A3 and the training series) only, so on the CPU and Ascend950 a
     * sizes-only step does not count: the case is then judged as SPEC §1 says, and fails if the step is wrong.
     */
    static boolean sizesOnlyPlan(Platform platform, Executor executor) {
        if (platform.arch() != Platform.Arch.DAV_2201 && platform.arch() != Platform.Arch.DAV_1001) {
            return false;
        }
        for (PlanStep step : executor.steps()) {
            if (step instanceof ResizeBilinearV2Grad5HdStep || step instanceof ResizeBilinearV2Step) {
                return true;
            }
        }
        return false;
    }
}
