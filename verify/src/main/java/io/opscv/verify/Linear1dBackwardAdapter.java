package io.opscv.verify;

import io.opscv.op.UpsampleLinear1dBackward;
import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.plan.Executor;
import io.opscv.reference.Linear1dReference;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;

/** {@code aclnnUpsampleLinear1dBackward} (SPEC §1–§5): gradOut (N, C, Lout) → out (N, C, Lin). */
final class Linear1dBackwardAdapter implements OperatorAdapter {
    @Override
    public String op() {
        return "upsample_linear1d_backward";
    }

    @Override
    public String aclnnName() {
        return UpsampleLinear1dBackward.NAME;
    }

    @Override
    public int spatialAxes() {
        return 1;
    }

    @Override
    public boolean backward() {
        return true;
    }

    @Override
    public double[] reference(CheckCase c, double[] gradOut) {
        return Linear1dReference.backward(gradOut, c.n() * c.c(), c.inSizes()[0], c.outSizes()[0], c.alignCorners(), c.scales()[0]);
    }

    @Override
    public int terms(CheckCase c) {
        return Linear1dReference.backwardTerms(c.inSizes()[0], c.outSizes()[0], c.alignCorners(), c.scales()[0]);
    }

    /** The fallback's ResizeBilinearV2Grad5Hd on the (N, C, 1, L) view: H is 1 → 1, a copy. */
    @Override
    public double[] sizesOnlyReference(CheckCase c, double[] gradOut) {
        return HalfPixelReference.backward(gradOut, c.n() * c.c(), 1, c.inSizes()[0], 1, c.outSizes()[0], c.alignCorners());
    }

    @Override
    public int sizesOnlyTerms(CheckCase c) {
        return HalfPixelReference.backwardTerms(1, c.inSizes()[0], 1, c.outSizes()[0], c.alignCorners());
    }

    @Override
    public boolean hasOperator() {
        return true;
    }

    @Override
    public WorkspaceAndExecutor getWorkspaceSize(Platform platform, CheckCase c, Tensor gradOut, Tensor out) {
        try (IntArray outputSize = IntArray.of(c.outSizes()[0]);
             IntArray inputSize = IntArray.of(c.n(), c.c(), c.inSizes()[0])) {
            return UpsampleLinear1dBackward.getWorkspaceSize(platform, gradOut, outputSize, inputSize, c.alignCorners(),
                    c.scales()[0], out);
        }
    }

    @Override
    public void run(DeviceMemory workspace, long workspaceSize, Executor executor, Stream stream) {
        UpsampleLinear1dBackward.run(workspace, workspaceSize, executor, stream);
    }
}
