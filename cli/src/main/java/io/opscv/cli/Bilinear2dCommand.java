package io.opscv.cli;

import io.opscv.op.UpsampleBilinear2d;
import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.runtime.AclRuntime;
import io.opscv.runtime.Device;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(name = "bilinear2d", mixinStandardHelpOptions = true,
        description = {
            "Run aclnnUpsampleBilinear2d (the forward) on a .npy self and write out.",
            "NCHW (default): self (N, C, H, W) -> out (N, C, Hout, Wout); with --format nhwc: self (N, H, W, C) -> "
                    + "out (N, Hout, Wout, C). Files as for linear1d-backward."
        })
final class Bilinear2dCommand implements Callable<Integer> {
    @ParentCommand
    OpscvCli parent;

    @Option(names = "--self", required = true, paramLabel = "X.npy", description = "self.")
    Path selfFile;

    @Option(names = "--output-size", required = true, paramLabel = "H,W", description = "outputSize {Hout, Wout}.")
    String outputSizeText;

    @Option(names = "--align-corners", description = "Align the centres of the corner pixels (default: false).")
    boolean alignCorners;

    @Option(names = "--scales-h", paramLabel = "S", defaultValue = "0",
            description = "The multiplier along H; 0 = not given, negative is refused (default: ${DEFAULT-VALUE}).")
    double scalesH;

    @Option(names = "--scales-w", paramLabel = "S", defaultValue = "0",
            description = "The multiplier along W; 0 = not given, negative is refused (default: ${DEFAULT-VALUE}).")
    double scalesW;

    @Option(names = "--format", paramLabel = "LAYOUT", defaultValue = "nchw",
            description = "Layout of the files: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    LayoutOption layout;

    @Option(names = "--dtype", paramLabel = "TYPE",
            description = "The dtype of X.npy: ${COMPLETION-CANDIDATES} (default: from the file; bfloat16 must be given).")
    DtypeOption dtype;

    @Mixin
    SocOption soc;

    @Option(names = "--explain", description = Phase2Runner.EXPLAIN)
    boolean explain;

    @Option(names = "--out", required = true, paramLabel = "Y.npy", description = "Where to write out.")
    Path outFile;

    @Override
    public Integer call() throws Exception {
        Platform platform = soc.platform();
        long[] outputSize = NpyTensors.parseSizes(outputSizeText, "--output-size");
        NpyTensors.checkOutputPath(outFile, selfFile);
        Format format = layout.format;
        try (AclRuntime acl = AclRuntime.init(platform);
             Device device = acl.setDevice(0);
             Stream stream = device.createStream()) {
            NpyTensors.Input input = NpyTensors.header(selfFile, dtype);
            try (Tensor selfProbe = input.placeholder(format);
                 IntArray outputSizeArray = IntArray.of(outputSize)) {
                long[] outShape = OpscvCli.outShapeFor(outShape(selfProbe, outputSize, format), 4);
                // Validate with placeholders before allocating self or out (as linear1d-backward).
                try (Tensor probe = OpscvCli.probeTensor(device, outShape, input.dataType(), format)) {
                    UpsampleBilinear2d.getWorkspaceSize(platform, selfProbe, outputSizeArray, alignCorners, scalesH, scalesW,
                            probe);
                }
                NpyTensors.Loaded loaded = NpyTensors.load(device, input, format);
                Tensor self = loaded.tensor();
                Tensor out = OpscvCli.allocate(device, outShape, self.dataType(), format);
                WorkspaceAndExecutor phase1 = UpsampleBilinear2d.getWorkspaceSize(platform, self, outputSizeArray,
                        alignCorners, scalesH, scalesW, out);
                Phase2Runner.run(device, stream, phase1, UpsampleBilinear2d::run, explain, parent.out(), self, out);
                NpyTensors.save(out, outFile, loaded.descr());
            }
        }
        return OpscvCli.EXIT_OK;
    }

    /** out's shape in the layout's order, or an empty array (a placeholder) when self or outputSize is malformed. */
    static long[] outShape(Tensor self, long[] outputSize, Format format) {
        if (self.dim() != 4 || outputSize.length != 2) {
            return new long[0];
        }
        return format == Format.NHWC ? new long[] {self.size(0), outputSize[0], outputSize[1], self.size(3)}
                : new long[] {self.size(0), self.size(1), outputSize[0], outputSize[1]};
    }
}
