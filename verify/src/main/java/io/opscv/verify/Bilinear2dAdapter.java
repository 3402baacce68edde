package io.opscv.verify;

import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.plan.Executor;
import io.opscv.reference.Bilinear2dReference;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;

/**
 * {@code aclnnUpsampleBilinear2d} (SPEC §10): self (N, C, Hin, Win) → out (N, C, Hout, Wout), NCHW.
 *
 * <p>The operator class is not in this build yet: cases are generated and referenced, and {@code actual}
 * files judged; to run the operator, make {@link #hasOperator()} true and call
 * {@code UpsampleBilinear2d.getWorkspaceSize(platform, self, IntArray.of(Hout, Wout), alignCorners, scalesH,
 * scalesW, out)} and its {@code run(...)} below.
 */
final class Bilinear2dAdapter implements OperatorAdapter {
    @Override
    public String op() {
        return "upsample_bilinear2d";
    }

    @Override
    public String aclnnName() {
        return "aclnnUpsampleBilinear2d";
    }

    @Override
    public int spatialAxes() {
        return 2;
    }

    @Override
    public boolean backward() {
        return false;
    }

    @Override
    public double[] reference(CheckCase c, double[] self) {
        return Bilinear2dReference.forward(self, c.n() * c.c(), c.inSizes()[0], c.inSizes()[1], c.outSizes()[0],
                c.outSizes()[1], c.alignCorners(), c.scales()[0], c.scales()[1]);
    }

    @Override
    public int terms(CheckCase c) {
        return Bilinear2dReference.forwardTerms(c.inSizes()[0], c.inSizes()[1], c.outSizes()[0], c.outSizes()[1],
                c.alignCorners(), c.scales()[0], c.scales()[1]);
    }

    @Override
    public boolean hasOperator() {
        return false;
    }

    @Override
    public WorkspaceAndExecutor getWorkspaceSize(Platform platform, CheckCase c, Tensor self, Tensor out) {
        throw OperatorAdapters.notInThisBuild(this);
    }

    @Override
    public void run(DeviceMemory workspace, long workspaceSize, Executor executor, Stream stream) {
        throw OperatorAdapters.notInThisBuild(this);
    }
}
