package io.opscv.cli;

import io.opscv.op.UpsampleLinear1d;
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

@Command(name = "linear1d", mixinStandardHelpOptions = true,
        description = {
            "Run aclnnUpsampleLinear1d (the forward) on a .npy self (N, C, L) and write out (N, C, Lout).",
            "Files as for linear1d-backward: <f4 = FLOAT, <f2 = FLOAT16, bfloat16 as raw bits in <u2 with --dtype bfloat16."
        })
final class Linear1dCommand implements Callable<Integer> {
    @ParentCommand
    OpscvCli parent;

    @Option(names = "--self", required = true, paramLabel = "X.npy", description = "self, shape (N, C, L).")
    Path selfFile;

    @Option(names = "--output-size", required = true, paramLabel = "L", description = "outputSize[0]: the length of out.")
    String outputSizeText;

    @Option(names = "--align-corners", description = "Align the centres of the corner pixels (default: false).")
    boolean alignCorners;

    @Option(names = "--scales", paramLabel = "S", defaultValue = "0",
            description = "The multiplier along L (Lout = floor(L * S)); 0 or negative = not given (default: ${DEFAULT-VALUE}).")
    double scales;

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
        try (AclRuntime acl = AclRuntime.init(platform);
             Device device = acl.setDevice(0);
             Stream stream = device.createStream()) {
            NpyTensors.Input input = NpyTensors.header(selfFile, dtype);
            long[] selfShape = input.header().shape();
            long[] outShape = selfShape.length == 3 && outputSize.length == 1
                    ? OpscvCli.outShapeFor(new long[] {selfShape[0], selfShape[1], outputSize[0]}, 3)
                    : OpscvCli.outShapeFor(new long[0], 3);
            try (IntArray outputSizeArray = IntArray.of(outputSize)) {
                // Validate with placeholders before allocating self or out (as linear1d-backward).
                try (Tensor selfProbe = input.placeholder(Format.ND);
                     Tensor probe = OpscvCli.probeTensor(device, outShape, input.dataType())) {
                    UpsampleLinear1d.getWorkspaceSize(platform, selfProbe, outputSizeArray, alignCorners, scales, probe);
                }
                NpyTensors.Loaded loaded = NpyTensors.load(device, input, Format.ND);
                Tensor self = loaded.tensor();
                Tensor out = OpscvCli.allocate(device, outShape, self.dataType());
                WorkspaceAndExecutor phase1 = UpsampleLinear1d.getWorkspaceSize(platform, self, outputSizeArray,
                        alignCorners, scales, out);
                Phase2Runner.run(device, stream, phase1, UpsampleLinear1d::run, explain, parent.out(), self, out);
                NpyTensors.save(out, outFile, loaded.descr());
            }
        }
        return OpscvCli.EXIT_OK;
    }
}
