package io.opscv.verify;

import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.plan.Executor;
import io.opscv.reference.Bilinear2dReference;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;

/**
 * {@code aclnnUpsampleBilinear2dBackwardV2} (SPEC §10): gradOut (N, C, Hout, Wout) → out (N, C, Hin, Win), NCHW.
 *
 * <p>The operator class is not in this build yet: cases are generated and referenced, and {@code actual}
 * files judged; to run the operator, make {@link #hasOperator()} true and call
 * {@code UpsampleBilinear2dBackwardV2.getWorkspaceSize(platform, gradOut, IntArray.of(Hout, Wout),
 * IntArray.of(N, C, Hin, Win), alignCorners, scalesH, scalesW, out)} and its {@code run(...)} below.
 */
final class Bilinear2dBackwardAdapter implements OperatorAdapter {
    @Override
    public String op() {
        return "upsample_bilinear2d_backward";
    }

    @Override
    public String aclnnName() {
        return "aclnnUpsampleBilinear2dBackwardV2";
    }

    @Override
    public int spatialAxes() {
        return 2;
    }

    @Override
    public boolean backward() {
        return true;
    }

    @Override
    public double[] reference(CheckCase c, double[] gradOut) {
        return Bilinear2dReference.backward(gradOut, c.n() * c.c(), c.inSizes()[0], c.inSizes()[1], c.outSizes()[0],
                c.outSizes()[1], c.alignCorners(), c.scales()[0], c.scales()[1]);
    }

    @Override
    public int terms(CheckCase c) {
        return Bilinear2dReference.backwardTerms(c.inSizes()[0], c.inSizes()[1], c.outSizes()[0], c.outSizes()[1],
                c.alignCorners(), c.scales()[0], c.scales()[1]);
    }

    @Override
    public boolean hasOperator() {
        return false;
    }

    @Override
    public WorkspaceAndExecutor getWorkspaceSize(Platform platform, CheckCase c, Tensor gradOut, Tensor out) {
        throw OperatorAdapters.notInThisBuild(this);
    }

    @Override
    public void run(DeviceMemory workspace, long workspaceSize, Executor executor, Stream stream) {
        throw OperatorAdapters.notInThisBuild(this);
    }
}
