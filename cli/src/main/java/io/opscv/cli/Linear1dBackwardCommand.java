package io.opscv.cli;

import io.opscv.op.UpsampleLinear1dBackward;
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

@Command(name = "linear1d-backward", mixinStandardHelpOptions = true,
        description = {
            "Run aclnnUpsampleLinear1dBackward on a .npy gradOut (N, C, Lout) and write out (N, C, Lin).",
            "Files: <f4 = FLOAT, <f2 = FLOAT16, bfloat16 as raw bits in <u2 with --dtype bfloat16; "
                    + "other NumPy dtypes reach the operator, which rejects them. The result is written "
                    + "atomically, in the input's encoding."
        })
final class Linear1dBackwardCommand implements Callable<Integer> {
    @ParentCommand
    OpscvCli parent;

    @Option(names = "--grad-out", required = true, paramLabel = "G.npy", description = "gradOut, shape (N, C, Lout).")
    Path gradOutFile;

    @Option(names = "--input-size", required = true, paramLabel = "N,C,L", description = "inputSize: the shape of out.")
    String inputSizeText;

    @Option(names = "--output-size", paramLabel = "L", description = "outputSize[0] (default: gradOut's last dimension).")
    String outputSizeText;

    @Option(names = "--align-corners", description = "Align the centres of the corner pixels (default: false).")
    boolean alignCorners;

    @Option(names = "--scales", paramLabel = "S", defaultValue = "0",
            description = "The forward multiplier along L (Lout = floor(Lin * S)); 0 = not given (default: ${DEFAULT-VALUE}).")
    double scales;

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
        try (AclRuntime acl = AclRuntime.init(platform);
             Device device = acl.setDevice(0);
             Stream stream = device.createStream()) {
            NpyTensors.Input input = NpyTensors.header(gradOutFile, dtype);
            long[] gradOutShape = input.header().shape();
            long[] outputSize = outputSizeText != null
                    ? NpyTensors.parseSizes(outputSizeText, "--output-size")
                    : new long[] {gradOutShape.length > 0 ? gradOutShape[gradOutShape.length - 1] : 0};
            try (IntArray outputSizeArray = IntArray.of(outputSize);
                 IntArray inputSizeArray = IntArray.of(inputSize)) {
                // Validate with placeholders (shapes and dtypes, no memory) before allocating gradOut or out,
                // so that absurd sizes are rejected by the operator, not by the allocator.
                long[] outShape = OpscvCli.outShapeFor(inputSize, 3);
                try (Tensor gradOutProbe = input.placeholder(Format.ND);
                     Tensor probe = OpscvCli.probeTensor(device, outShape, input.dataType())) {
                    UpsampleLinear1dBackward.getWorkspaceSize(platform, gradOutProbe, outputSizeArray, inputSizeArray,
                            alignCorners, scales, probe);
                }
                NpyTensors.Loaded loaded = NpyTensors.load(device, input, Format.ND);
                Tensor gradOut = loaded.tensor();
                Tensor out = OpscvCli.allocate(device, outShape, gradOut.dataType());
                WorkspaceAndExecutor phase1 = UpsampleLinear1dBackward.getWorkspaceSize(platform, gradOut, outputSizeArray,
                        inputSizeArray, alignCorners, scales, out);
                Phase2Runner.run(device, stream, phase1, UpsampleLinear1dBackward::run, explain, parent.out(), gradOut,
                        out);
                NpyTensors.save(out, outFile, loaded.descr());
            }
        }
        return OpscvCli.EXIT_OK;
    }
}
