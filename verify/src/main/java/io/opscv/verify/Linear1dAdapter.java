package io.opscv.verify;

import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.plan.Executor;
import io.opscv.reference.Linear1dReference;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;

/**
 * {@code aclnnUpsampleLinear1d} (SPEC §10): self (N, C, Lin) → out (N, C, Lout).
 *
 * <p>The operator class is not in this build yet: cases are generated and referenced, and {@code actual}
 * files judged; to run the operator, make {@link #hasOperator()} true and call
 * {@code UpsampleLinear1d.getWorkspaceSize(platform, self, IntArray.of(Lout), alignCorners, scales, out)} and
 * {@code UpsampleLinear1d.run(...)} below.
 */
final class Linear1dAdapter implements OperatorAdapter {
    @Override
    public String op() {
        return "upsample_linear1d";
    }

    @Override
    public String aclnnName() {
        return "aclnnUpsampleLinear1d";
    }

    @Override
    public int spatialAxes() {
        return 1;
    }

    @Override
    public boolean backward() {
        return false;
    }

    @Override
    public double[] reference(CheckCase c, double[] self) {
        return Linear1dReference.forward(self, c.n() * c.c(), c.inSizes()[0], c.outSizes()[0], c.alignCorners(), c.scales()[0]);
    }

    @Override
    public int terms(CheckCase c) {
        return Linear1dReference.forwardTerms(c.inSizes()[0], c.outSizes()[0], c.alignCorners(), c.scales()[0]);
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
