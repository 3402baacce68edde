package io.opscv.verify;

import io.opscv.op.UpsampleBilinear2dBackwardV2;
import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.plan.Executor;
import io.opscv.reference.Bilinear2dReference;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;

/**
 * {@code aclnnUpsampleBilinear2dBackwardV2} (SPEC §10): gradOut (N, C, Hout, Wout) → out (N, C, Hin, Win), or
 * (N, Hout, Wout, C) → (N, Hin, Win, C) for an NHWC case, whose inputSize is then given in that order too
 * (docs/PLANS.md).
 */
final class Bilinear2dBackwardAdapter implements OperatorAdapter {
    @Override
    public String op() {
        return "upsample_bilinear2d_backward";
    }

    @Override
    public String aclnnName() {
        return UpsampleBilinear2dBackwardV2.NAME;
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
        int planes = c.n() * c.c();
        if (c.channelsLast()) {
            double[] nchw = ChannelsLast.toChannelsFirst(gradOut, c.n(), c.c(), c.outPlane());
            return ChannelsLast.toChannelsLast(reference(c, nchw, planes), c.n(), c.c(), c.inPlane());
        }
        return reference(c, gradOut, planes);
    }

    private static double[] reference(CheckCase c, double[] nchw, int planes) {
        return Bilinear2dReference.backward(nchw, planes, c.inSizes()[0], c.inSizes()[1], c.outSizes()[0], c.outSizes()[1],
                c.alignCorners(), c.scales()[0], c.scales()[1]);
    }

    @Override
    public int terms(CheckCase c) {
        return Bilinear2dReference.backwardTerms(c.inSizes()[0], c.inSizes()[1], c.outSizes()[0], c.outSizes()[1],
                c.alignCorners(), c.scales()[0], c.scales()[1]);
    }

    /** The fallback's ResizeBilinearV2Grad5Hd (SPEC §6), from the sizes only. */
    @Override
    public double[] sizesOnlyReference(CheckCase c, double[] gradOut) {
        if (c.channelsLast()) {
            double[] nchw = ChannelsLast.toChannelsFirst(gradOut, c.n(), c.c(), c.outPlane());
            return ChannelsLast.toChannelsLast(sizesOnly(c, nchw), c.n(), c.c(), c.inPlane());
        }
        return sizesOnly(c, gradOut);
    }

    private static double[] sizesOnly(CheckCase c, double[] nchw) {
        return HalfPixelReference.backward(nchw, c.n() * c.c(), c.inSizes()[0], c.inSizes()[1], c.outSizes()[0], c.outSizes()[1],
                c.alignCorners());
    }

    @Override
    public int sizesOnlyTerms(CheckCase c) {
        return HalfPixelReference.backwardTerms(c.inSizes()[0], c.inSizes()[1], c.outSizes()[0], c.outSizes()[1], c.alignCorners());
    }

    @Override
    public boolean hasOperator() {
        return true;
    }

    @Override
    public WorkspaceAndExecutor getWorkspaceSize(Platform platform, CheckCase c, Tensor gradOut, Tensor out) {
        try (IntArray outputSize = IntArray.of(c.outSizes()[0], c.outSizes()[1]);
             IntArray inputSize = IntArray.of(c.forwardInputShape())) {
            return UpsampleBilinear2dBackwardV2.getWorkspaceSize(platform, gradOut, outputSize, inputSize, c.alignCorners(),
                    c.scales()[0], c.scales()[1], out);
        }
    }

    @Override
    public void run(DeviceMemory workspace, long workspaceSize, Executor executor, Stream stream) {
        UpsampleBilinear2dBackwardV2.run(workspace, workspaceSize, executor, stream);
    }
}
