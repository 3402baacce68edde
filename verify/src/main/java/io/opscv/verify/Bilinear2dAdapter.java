package io.opscv.verify;

import io.opscv.op.UpsampleBilinear2d;
import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.plan.Executor;
import io.opscv.reference.Bilinear2dReference;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;

/**
 * {@code aclnnUpsampleBilinear2d} (SPEC §10): self (N, C, Hin, Win) → out (N, C, Hout, Wout), or
 * (N, Hin, Win, C) → (N, Hout, Wout, C) for an NHWC case.
 */
final class Bilinear2dAdapter implements OperatorAdapter {
    @Override
    public String op() {
        return "upsample_bilinear2d";
    }

    @Override
    public String aclnnName() {
        return UpsampleBilinear2d.NAME;
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
        int planes = c.n() * c.c();
        if (c.channelsLast()) {
            double[] nchw = ChannelsLast.toChannelsFirst(self, c.n(), c.c(), c.inPlane());
            return ChannelsLast.toChannelsLast(reference(c, nchw, planes), c.n(), c.c(), c.outPlane());
        }
        return reference(c, self, planes);
    }

    private static double[] reference(CheckCase c, double[] nchw, int planes) {
        return Bilinear2dReference.forward(nchw, planes, c.inSizes()[0], c.inSizes()[1], c.outSizes()[0], c.outSizes()[1],
                c.alignCorners(), c.scales()[0], c.scales()[1]);
    }

    @Override
    public int terms(CheckCase c) {
        return Bilinear2dReference.forwardTerms(c.inSizes()[0], c.inSizes()[1], c.outSizes()[0], c.outSizes()[1],
                c.alignCorners(), c.scales()[0], c.scales()[1]);
    }

    /** The fallback's ResizeBilinearV2 (SPEC §6), from the sizes only. */
    @Override
    public double[] sizesOnlyReference(CheckCase c, double[] self) {
        if (c.channelsLast()) {
            double[] nchw = ChannelsLast.toChannelsFirst(self, c.n(), c.c(), c.inPlane());
            return ChannelsLast.toChannelsLast(sizesOnly(c, nchw), c.n(), c.c(), c.outPlane());
        }
        return sizesOnly(c, self);
    }

    private static double[] sizesOnly(CheckCase c, double[] nchw) {
        return HalfPixelReference.forward(nchw, c.n() * c.c(), c.inSizes()[0], c.inSizes()[1], c.outSizes()[0], c.outSizes()[1],
                c.alignCorners());
    }

    @Override
    public int sizesOnlyTerms(CheckCase c) {
        return HalfPixelReference.forwardTerms(c.inSizes()[0], c.inSizes()[1], c.outSizes()[0], c.outSizes()[1], c.alignCorners());
    }

    @Override
    public boolean hasOperator() {
        return true;
    }

    @Override
    public WorkspaceAndExecutor getWorkspaceSize(Platform platform, CheckCase c, Tensor self, Tensor out) {
        try (IntArray outputSize = IntArray.of(c.outSizes()[0], c.outSizes()[1])) {
            return UpsampleBilinear2d.getWorkspaceSize(platform, self, outputSize, c.alignCorners(), c.scales()[0],
                    c.scales()[1], out);
        }
    }

    @Override
    public void run(DeviceMemory workspace, long workspaceSize, Executor executor, Stream stream) {
        UpsampleBilinear2d.run(workspace, workspaceSize, executor, stream);
    }
}
