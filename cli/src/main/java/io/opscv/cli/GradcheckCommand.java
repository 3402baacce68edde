package io.opscv.cli;

import io.opscv.gradcheck.AdjointCheck;
import io.opscv.runtime.Platform;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(name = "gradcheck", mixinStandardHelpOptions = true,
        description = {
            "Check that a backward operator is the gradient (the adjoint) of its forward: <F(x), g> = <x, B(g)> on random "
                    + "x, g in double precision, relative difference <= 1e-12.",
            "--input-size N,C,L with --output-size L checks aclnnUpsampleLinear1d / aclnnUpsampleLinear1dBackward; "
                    + "--input-size N,C,H,W with --output-size H,W checks aclnnUpsampleBilinear2d / "
                    + "aclnnUpsampleBilinear2dBackwardV2. The operators run in FLOAT through both phases on --soc's plans; "
                    + "their matrices are read exactly from unit-vector inputs, then the inner products are taken in double.",
            "Sizes are bounded so that a check ends in seconds: each probe batch (Lin^2 and Lout^2; (Hin*Win)^2 and "
                    + "(Hout*Wout)^2) at most 2^27 elements, each matrix (Lin*Lout; Hin*Win*Hout*Wout) at most 2^25 entries, "
                    + "and N*C times the matrix at most 2^30; larger sizes are refused (exit 2).",
            "Exit code 4 when the check fails."
        })
final class GradcheckCommand implements Callable<Integer> {
    /** The exit code of a failed check. */
    static final int EXIT_NOT_ADJOINT = 4;

    @ParentCommand
    OpscvCli parent;

    @Option(names = "--input-size", required = true, paramLabel = "N,C,L|N,C,H,W", description = "The forward input's shape.")
    String inputSizeText;

    @Option(names = "--output-size", required = true, paramLabel = "L|H,W", description = "The forward output's length(s).")
    String outputSizeText;

    @Option(names = "--align-corners", description = "Align the centres of the corner pixels (default: false).")
    boolean alignCorners;

    @Option(names = "--scales", paramLabel = "S", defaultValue = "0", description = "1-D: the multiplier along L (default: 0).")
    double scales;

    @Option(names = "--scales-h", paramLabel = "S", defaultValue = "0", description = "2-D: the multiplier along H (default: 0).")
    double scalesH;

    @Option(names = "--scales-w", paramLabel = "S", defaultValue = "0", description = "2-D: the multiplier along W (default: 0).")
    double scalesW;

    @Option(names = "--soc", paramLabel = "NAME", defaultValue = "cpu",
            description = "Platform whose plans run: cpu, ascend950, ascend910_93, ascend910b, ascend910 (default: ${DEFAULT-VALUE}).")
    String soc;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "Seed of x and g (default: ${DEFAULT-VALUE}).")
    long seed;

    @Override
    public Integer call() {
        Platform platform = OpscvCli.platform(soc, "--soc");
        long[] in = NpyTensors.parseSizes(inputSizeText, "--input-size");
        long[] out = NpyTensors.parseSizes(outputSizeText, "--output-size");
        AdjointCheck.Result result;
        String pair;
        if (in.length == 3 && out.length == 1) {
            pair = "aclnnUpsampleLinear1d / aclnnUpsampleLinear1dBackward";
            result = AdjointCheck.linear1d(platform, size(in[0]), size(in[1]), size(in[2]), size(out[0]), alignCorners,
                    scales, seed);
        } else if (in.length == 4 && out.length == 2) {
            pair = "aclnnUpsampleBilinear2d / aclnnUpsampleBilinear2dBackwardV2";
            result = AdjointCheck.bilinear2d(platform, size(in[0]), size(in[1]), size(in[2]), size(in[3]), size(out[0]),
                    size(out[1]), alignCorners, scalesH, scalesW, seed);
        } else {
            throw new CliException("--input-size N,C,L goes with --output-size L, and N,C,H,W with H,W; got "
                    + Arrays.toString(in) + " and " + Arrays.toString(out));
        }
        PrintStream o = parent.out();
        o.println("gradcheck " + pair + " on " + platform.cliName() + ": input " + inputSizeText + " -> output "
                + outputSizeText + ", alignCorners=" + alignCorners
                + (in.length == 3 ? ", scales=" + scales : ", scalesH=" + scalesH + ", scalesW=" + scalesW) + ", seed=" + seed);
        o.println(String.format(Locale.ROOT, "  <F(x), g> = %.17g", result.forwardDot()));
        o.println(String.format(Locale.ROOT, "  <x, B(g)> = %.17g", result.backwardDot()));
        o.println(String.format(Locale.ROOT, "  relative difference %.3e (tolerance %.0e), largest |M_F^T - M_B| entry %.3e: %s",
                result.relativeDifference(), AdjointCheck.TOLERANCE, result.maxEntryDifference(),
                result.passes() ? "PASS" : "FAIL"));
        return result.passes() ? OpscvCli.EXIT_OK : EXIT_NOT_ADJOINT;
    }

    private static int size(long value) {
        if (value <= 0 || value > Integer.MAX_VALUE) {
            throw new CliException("gradcheck sizes must be in 1 .. " + Integer.MAX_VALUE + ", but got " + value);
        }
        return (int) value;
    }
}
