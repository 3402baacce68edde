package io.opscv.cli;

import io.opscv.runtime.AclnnException;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Device;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Format;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Tensor;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code opscv}: the command-line tool. Exit codes: 0 success, 1 an operator status (stderr starts
 * with the status name and code), 2 a bad argument or unreadable file (one line on stderr),
 * 3 an internal error, 4 a verification failed ({@code check}: a case failed or could not be judged;
 * {@code gradcheck}: a forward/backward pair is not adjoint).
 */
@Command(name = "opscv", mixinStandardHelpOptions = true, version = "opscv 0.1.0",
        description = "CPU implementation and golden model of the CANN ops-cv upsample-backward operators.",
        subcommands = {ExampleCommand.class, Linear1dBackwardCommand.class, Linear1dCommand.class,
            Bilinear2dBackwardCommand.class, Bilinear2dCommand.class, GradcheckCommand.class, CheckCommand.class,
            BenchCommand.class},
        footer = {"", "Exit codes:",
            "  0  success",
            "  1  operator status, e.g. 'ACLNN_ERR_PARAM_INVALID (161002): ...'",
            "  2  bad argument or file (one line on stderr)",
            "  3  internal error",
            "  4  verification failed (check: a case failed; gradcheck: a pair is not adjoint)"})
public final class OpscvCli implements Runnable {
    public static final int EXIT_OK = 0;
    public static final int EXIT_STATUS = 1;
    public static final int EXIT_USAGE = 2;
    public static final int EXIT_INTERNAL = 3;

    private PrintStream out = System.out;
    private PrintStream err = System.err;

    public static void main(String[] args) {
        // This process makes at most one operator call: its kernels are chosen for that (Phase2Runner.kernelsFor).
        Phase2Runner.oneCallProcess = true;
        System.exit(execute(args, System.out, System.err));
    }

    /** Runs the tool with the given streams; returns the exit code. */
    public static int execute(String[] args, PrintStream out, PrintStream err) {
        OpscvCli cli = new OpscvCli();
        cli.out = out;
        cli.err = err;
        CommandLine cmd = new CommandLine(cli);
        Numbers.register(cmd);
        cmd.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        cmd.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        cmd.setExecutionExceptionHandler((e, commandLine, parseResult) -> cli.report(e));
        // Unknown or missing options, bad values: one line too (picocli would add the whole usage text).
        cmd.setParameterExceptionHandler((e, arguments) -> {
            err.println("opscv: error: " + oneLine(e.getMessage()) + suggestion(e) + " (see '"
                    + e.getCommandLine().getCommandSpec().qualifiedName() + " --help')");
            return EXIT_USAGE;
        });
        int code;
        try {
            code = cmd.execute(args);
        } catch (Error e) {
            code = reportError(e, err);
        }
        out.flush();
        err.flush();
        return code;
    }

    /** "; did you mean ...?" for a mistyped subcommand or option (picocli's nearest names), else nothing. */
    private static String suggestion(CommandLine.ParameterException e) {
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched && !unmatched.getSuggestions().isEmpty()) {
            return "; did you mean " + String.join(" or ", unmatched.getSuggestions()) + "?";
        }
        return "";
    }

    @Override
    public void run() {
        new CommandLine(this).usage(out);
    }

    PrintStream out() {
        return out;
    }

    PrintStream err() {
        return err;
    }

    /**
     * picocli passes on Errors; they too get one line and an exit code. Running out of heap (a file read,
     * a buffer the CLI itself allocates) is a status like the library's own allocation failures: 361001.
     */
    static int reportError(Error e, PrintStream err) {
        if (e instanceof OutOfMemoryError) {
            err.println(oneLine(AclnnException.runtime("opscv ran out of host memory (" + e.getMessage()
                    + "): run it with a larger heap (OPSCV_JAVA_OPTS=-Xmx...) or on smaller tensors.", e).toString()));
            return EXIT_STATUS;
        }
        err.println("opscv: internal error: " + oneLine(e.toString()));
        return EXIT_INTERNAL;
    }

    /** One line on stderr per failure; the exit code tells its kind. */
    int report(Exception e) {
        if (e instanceof AclnnException status) {
            err.println(oneLine(status.toString()));
            return EXIT_STATUS;
        }
        if (e instanceof CliException || e instanceof IOException) {
            err.println("opscv: error: " + oneLine(e.getMessage()));
            return EXIT_USAGE;
        }
        if (e instanceof IllegalArgumentException) {
            err.println("opscv: error: " + oneLine(e.getMessage()));
            return EXIT_USAGE;
        }
        err.println("opscv: internal error: " + oneLine(e.toString()));
        return EXIT_INTERNAL;
    }

    private static String oneLine(String text) {
        return text == null ? "(no message)" : text.replace('\n', ' ').replace('\r', ' ');
    }

    /** The platform an option ({@code --soc}, {@code --platform}) names, or a one-line usage error. */
    static Platform platform(String name, String option) {
        try {
            return Platform.byName(name);
        } catch (IllegalArgumentException e) {
            throw new CliException(option + ": " + e.getMessage());
        }
    }

    /**
     * The shape to give out: the requested sizes when there are {@code rank} of them (negative ones as 0),
     * else a placeholder of that rank, so that the operator itself reports what is wrong with the sizes.
     */
    static long[] outShapeFor(long[] sizes, int rank) {
        long[] shape = new long[rank];
        if (sizes.length == rank) {
            for (int d = 0; d < rank; d++) {
                shape[d] = Math.max(sizes[d], 0);
            }
        } else {
            java.util.Arrays.fill(shape, 1);
        }
        return shape;
    }

    /**
     * A tensor of {@code shape} without memory ({@link Tensor#placeholder}): phase 1 validates it,
     * so arguments are checked before the memory for them is allocated. (A broadcast view of one
     * element would not do: phase 1 refuses an out that overlaps itself.)
     */
    static Tensor probeTensor(Device device, long[] shape, DataType type) {
        return probeTensor(device, shape, type, Format.ND);
    }

    /** {@link #probeTensor(Device, long[], DataType)} with a format tag (NCHW / NHWC for the 2-D operators). */
    static Tensor probeTensor(Device device, long[] shape, DataType type, Format format) {
        return Tensor.placeholder(shape, type, format);
    }

    /** A new contiguous tensor (no memory when empty). */
    static Tensor allocate(Device device, long[] shape, DataType type) {
        return allocate(device, shape, type, Format.ND);
    }

    /** {@link #allocate(Device, long[], DataType)} with a format tag. */
    static Tensor allocate(Device device, long[] shape, DataType type, Format format) {
        long numel = 1;
        for (long d : shape) {
            numel = Math.multiplyExact(numel, d);
        }
        DeviceMemory memory = numel == 0 ? null : device.malloc(Math.multiplyExact(numel, (long) type.byteSize()));
        return Tensor.create(shape, type, null, 0, format, shape, memory);
    }
}
