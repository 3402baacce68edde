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
 * 3 an internal error.
 */
@Command(name = "opscv", mixinStandardHelpOptions = true, version = "opscv 0.1.0",
        description = "CPU implementation and golden model of the CANN ops-cv upsample-backward operators.",
        subcommands = {ExampleCommand.class, Linear1dBackwardCommand.class, BenchCommand.class},
        footer = {"", "Exit codes: 0 success; 1 operator status (e.g. 'ACLNN_ERR_PARAM_INVALID (161002): ...');",
            "2 bad argument or file; 3 internal error."})
public final class OpscvCli implements Runnable {
    public static final int EXIT_OK = 0;
    public static final int EXIT_STATUS = 1;
    public static final int EXIT_USAGE = 2;
    public static final int EXIT_INTERNAL = 3;

    private PrintStream out = System.out;
    private PrintStream err = System.err;

    public static void main(String[] args) {
        System.exit(execute(args, System.out, System.err));
    }

    /** Runs the tool with the given streams; returns the exit code. */
    public static int execute(String[] args, PrintStream out, PrintStream err) {
        OpscvCli cli = new OpscvCli();
        cli.out = out;
        cli.err = err;
        CommandLine cmd = new CommandLine(cli);
        cmd.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        cmd.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        cmd.setExecutionExceptionHandler((e, commandLine, parseResult) -> cli.report(e));
        int code = cmd.execute(args);
        out.flush();
        err.flush();
        return code;
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

    /** {@code --soc NAME}. */
    static Platform platform(String name) {
        try {
            return Platform.byName(name);
        } catch (IllegalArgumentException e) {
            throw new CliException("--soc: " + e.getMessage());
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

    /** A tensor of {@code shape} whose every element is the same one (strides 0): validation without allocation. */
    static Tensor probeTensor(Device device, long[] shape, DataType type) {
        DeviceMemory one = device.malloc(Math.max(type.byteSize(), 1));
        return Tensor.create(shape, type, new long[shape.length], 0, Format.ND, new long[] {1}, one);
    }

    /** A new contiguous tensor (no memory when empty). */
    static Tensor allocate(Device device, long[] shape, DataType type) {
        long numel = 1;
        for (long d : shape) {
            numel = Math.multiplyExact(numel, d);
        }
        DeviceMemory memory = numel == 0 ? null : device.malloc(Math.multiplyExact(numel, (long) type.byteSize()));
        return Tensor.create(shape, type, null, 0, Format.ND, shape, memory);
    }
}
