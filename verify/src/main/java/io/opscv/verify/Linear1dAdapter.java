package io.opscv.verify;

import io.opscv.op.UpsampleLinear1d;
import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.plan.Executor;
import io.opscv.reference.Linear1dReference;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;

/** {@code aclnnUpsampleLinear1d} (SPEC §10): self (N, C, Lin) → out (N, C, Lout). */
final class Linear1dAdapter implements OperatorAdapter {
    @Override
    public String op() {
        return "upsample_linear1d";
    }

    @Override
    public String aclnnName() {
        return UpsampleLinear1d.NAME;
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
        return true;
    }

    @Override
    public WorkspaceAndExecutor getWorkspaceSize(Platform platform, CheckCase c, Tensor self, Tensor out) {
        try (IntArray outputSize = IntArray.of(c.outSizes()[0])) {
            return UpsampleLinear1d.getWorkspaceSize(platform, self, outputSize, c.alignCorners(), c.scales()[0], out);
        }
    }

    @Override
    public void run(DeviceMemory workspace, long workspaceSize, Executor executor, Stream stream) {
        UpsampleLinear1d.run(workspace, workspaceSize, executor, stream);
    }
}
