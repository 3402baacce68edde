package io.opscv.cli;

import io.opscv.op.UpsampleBilinear2dBackwardV2;
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

@Command(name = "bilinear2d-backward", mixinStandardHelpOptions = true,
        description = {
            "Run aclnnUpsampleBilinear2dBackwardV2 on a .npy gradOut and write out, the gradient of the forward input.",
            "NCHW (default): gradOut is (N, C, Hout, Wout), --input-size and out are N,C,Hin,Win. With --format nhwc every "
                    + "shape is in NHWC order: gradOut (N, Hout, Wout, C), --input-size and out N,Hin,Win,C (as CANN reads "
                    + "inputSize for an NHWC tensor). Files as for linear1d-backward."
        })
final class Bilinear2dBackwardCommand implements Callable<Integer> {
    @ParentCommand
    OpscvCli parent;

    @Option(names = "--grad-out", required = true, paramLabel = "G.npy", description = "gradOut.")
    Path gradOutFile;

    @Option(names = "--input-size", required = true, paramLabel = "N,C,H,W",
            description = "inputSize: the shape of out, in the layout's order.")
    String inputSizeText;

    @Option(names = "--output-size", paramLabel = "H,W", description = "outputSize {Hout, Wout} (default: gradOut's H and W).")
    String outputSizeText;

    @Option(names = "--align-corners", description = "Align the centres of the corner pixels (default: false).")
    boolean alignCorners;

    @Option(names = "--scales-h", paramLabel = "S", defaultValue = "0",
            description = "The forward multiplier along H (Hout = floor(Hin * S)); 0 = not given (default: ${DEFAULT-VALUE}).")
    double scalesH;

    @Option(names = "--scales-w", paramLabel = "S", defaultValue = "0",
            description = "The forward multiplier along W (Wout = floor(Win * S)); 0 = not given (default: ${DEFAULT-VALUE}).")
    double scalesW;

    @Option(names = "--format", paramLabel = "LAYOUT", defaultValue = "nchw",
            description = "Layout of the files: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    LayoutOption layout;

    @Option(names = "--dtype", paramLabel = "TYPE",
            description = "The dtype of G.npy: ${COMPLETION-CANDIDATES} (default: from the file; bfloat16 must be given).")
    DtypeOption dtype;

    @Mixin
    SocOption soc;

    @Option(names = "--explain", description = Phase2Runner.EXPLAIN)
    boolean explain;

    @Option(names = "--out", required = true, paramLabel = "OUT.npy", description = "Where to write out.")
    Path outFile;

    @Override
    public Integer call() throws Exception {
        Platform platform = soc.platform();
        long[] inputSize = NpyTensors.parseSizes(inputSizeText, "--input-size");
        NpyTensors.checkOutputPath(outFile, gradOutFile);
        Format format = layout.format;
        try (AclRuntime acl = AclRuntime.init(platform);
             Device device = acl.setDevice(0);
             Stream stream = device.createStream()) {
            NpyTensors.Input input = NpyTensors.header(gradOutFile, dtype);
            try (Tensor gradOutProbe = input.placeholder(format)) {
                long[] outputSize = outputSizeText != null ? NpyTensors.parseSizes(outputSizeText, "--output-size")
                        : defaultOutputSize(gradOutProbe, format);
                try (IntArray outputSizeArray = IntArray.of(outputSize);
                     IntArray inputSizeArray = IntArray.of(inputSize)) {
                    long[] outShape = OpscvCli.outShapeFor(inputSize, 4);
                    // Validate with placeholders before allocating gradOut or out (as linear1d-backward).
                    try (Tensor probe = OpscvCli.probeTensor(device, outShape, input.dataType(), format)) {
                        UpsampleBilinear2dBackwardV2.getWorkspaceSize(platform, gradOutProbe, outputSizeArray,
                                inputSizeArray, alignCorners, scalesH, scalesW, probe);
                    }
                    run(device, stream, platform, input, format, outputSizeArray, inputSizeArray, outShape);
                }
            }
        }
        return OpscvCli.EXIT_OK;
    }

    /** Loads gradOut (after phase 1 accepted its placeholder), allocates out, runs both phases, writes out. */
    private void run(Device device, Stream stream, Platform platform, NpyTensors.Input input, Format format,
                     IntArray outputSizeArray, IntArray inputSizeArray, long[] outShape) throws java.io.IOException {
        NpyTensors.Loaded loaded = NpyTensors.load(device, input, format);
        Tensor gradOut = loaded.tensor();
        Tensor out = OpscvCli.allocate(device, outShape, gradOut.dataType(), format);
        WorkspaceAndExecutor phase1 = UpsampleBilinear2dBackwardV2.getWorkspaceSize(platform, gradOut, outputSizeArray,
                inputSizeArray, alignCorners, scalesH, scalesW, out);
        Phase2Runner.run(device, stream, phase1, UpsampleBilinear2dBackwardV2::run, explain, parent.out(), gradOut,
                out);
        NpyTensors.save(out, outFile, loaded.descr());
    }

    /** gradOut's H and W (dimensions 2, 3 in NCHW; 1, 2 in NHWC), or a placeholder the operator will reject. */
    static long[] defaultOutputSize(Tensor gradOut, Format format) {
        if (gradOut.dim() != 4) {
            return new long[] {0, 0};
        }
        return format == Format.NHWC ? new long[] {gradOut.size(1), gradOut.size(2)}
                : new long[] {gradOut.size(2), gradOut.size(3)};
    }
}
