package io.opscv.cli;

import io.opscv.kernel.KernelProviders;
import io.opscv.kernel.WorkerPool;
import io.opscv.perf.BenchmarkCase;
import io.opscv.perf.BenchmarkCases;
import io.opscv.perf.BenchmarkFixture;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {
            "Measure aclnnUpsampleLinear1dBackward (phase 1 + phase 2 + synchronize) on the benchmark cases (up/down/fractional ratios, a long row, short rows, FP16, BF16, a transposed view, the tiny sample call) against "
                    + "a copy of the same number of bytes, in this process, alternating the two; prints medians "
                    + "and their ratio. Progress goes to stderr.",
            "The copy baseline copies (gradOut bytes + out bytes) / 2 bytes with the same threads, so it reads "
                    + "and writes as many bytes as the operator. GB/s is the operator's (gradOut + out bytes) / time."
        })
final class BenchCommand implements Callable<Integer> {
    /** Exactly issue 4's header. */
    static final String CSV_HEADER = "case,dtype,n,c,l_in,l_out,align_corners,threads,op_ms,copy_ms,ratio,gbps";

    @ParentCommand
    OpscvCli parent;

    @Option(names = "--threads", paramLabel = "K",
            description = "Kernel threads (default: one per available processor).")
    Integer threads;

    @Option(names = "--quick", description = "Fewer repetitions (for a smoke test; medians are noisier).")
    boolean quick;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table",
            description = "table or csv (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--case", paramLabel = "ID",
            description = "Run only this case (repeatable): a name, or name:dtype, e.g. up2x, up2x:fp16, tiny_call.")
    List<String> caseIds;

    @Override
    public Integer call() {
        if (!format.equals("table") && !format.equals("csv")) {
            throw new CliException("--format: expected table or csv, but got '" + format + "'");
        }
        if (threads != null && threads < 1) {
            throw new CliException("--threads: expected K >= 1, but got " + threads);
        }
        List<BenchmarkCase> cases = selectCases();
        int k = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        WorkerPool.setSharedParallelism(k);
        PrintStream err = parent.err();
        err.println("opscv bench: kernels " + KernelProviders.get().name() + ", " + k + " thread(s), "
                + (quick ? "quick" : "full") + " run of " + cases.size() + " case(s)");
        List<Result> results = new ArrayList<>();
        for (BenchmarkCase c : cases) {
            err.println("opscv bench: " + label(c) + " ...");
            Result r = measure(c, k, err);
            err.println(String.format(Locale.ROOT, "opscv bench: %s: op %.4f ms, copy %.4f ms, ratio %.2f", label(c),
                    r.opMs, r.copyMs, r.ratio()));
            results.add(r);
        }
        PrintStream out = parent.out();
        if (format.equals("csv")) {
            out.println(CSV_HEADER);
            for (Result r : results) {
                out.println(r.csv());
            }
        } else {
            printTable(out, results);
        }
        return OpscvCli.EXIT_OK;
    }

    private List<BenchmarkCase> selectCases() {
        if (caseIds == null || caseIds.isEmpty()) {
            return BenchmarkCases.all();
        }
        List<BenchmarkCase> chosen = new ArrayList<>();
        for (String id : caseIds) {
            chosen.add(BenchmarkCases.byId(id).orElseThrow(() -> new CliException("--case: no case '" + id
                    + "'; cases: " + String.join(", ", BenchmarkCases.all().stream().map(BenchmarkCases::id).toList()))));
        }
        return chosen;
    }

    private static String label(BenchmarkCase c) {
        return BenchmarkCases.id(c) + " (" + c.n() + ", " + c.c() + ", " + c.lin() + " <- " + c.lout() + ")";
    }

    /** Alternates op and copy so that both see the same machine load; medians of each. */
    private Result measure(BenchmarkCase c, int k, PrintStream err) {
        // Warm-up: at least this many rounds and this long, so that the JIT has compiled the hot paths (and, but
        // for the tiny call, until the operator's time stops improving: warmUntilSteady).
        int warmupRounds;
        long warmupNanos;
        int rounds;
        if (c.tinyCall()) {
            warmupRounds = quick ? 20_000 : 100_000;
            warmupNanos = quick ? 1_000_000_000L : 3_000_000_000L;
            rounds = quick ? 2_000 : 20_000;
        } else {
            warmupRounds = quick ? 2 : 5;
            warmupNanos = quick ? 500_000_000L : 2_000_000_000L;
            rounds = quick ? 5 : 15;
        }
        try (BenchmarkFixture fixture = new BenchmarkFixture(c)) {
            if (c.tinyCall()) {
                long warmupStart = System.nanoTime();
                for (int w = 0; w < warmupRounds || System.nanoTime() - warmupStart < warmupNanos; w++) {
                    fixture.runOperator();
                    fixture.runCopy();
                }
            } else {
                warmUntilSteady(fixture, warmupRounds, warmupNanos);
            }
            long[] op = new long[rounds];
            long[] copy = new long[rounds];
            for (int r = 0; r < rounds; r++) {
                boolean opFirst = (r & 1) == 0;
                if (opFirst) {
                    op[r] = timeOperator(fixture);
                    copy[r] = timeCopy(fixture);
                } else {
                    copy[r] = timeCopy(fixture);
                    op[r] = timeOperator(fixture);
                }
                if (!c.tinyCall() && !quick) {
                    err.print('.');
                }
            }
            if (!c.tinyCall() && !quick) {
                err.println();
            }
            return new Result(c, k, median(op) / 1e6, median(copy) / 1e6);
        }
    }

    /**
     * Warms up in slices of a quarter of {@code minNanos} (and at least {@code minRounds} calls each) until
     * at least {@code minNanos} have passed and the operator's mean time in the last slice is no longer 10 %
     * better than the best slice before it, or 5 × {@code minNanos} have passed. On this 2-core machine the
     * JIT needs more than 2 s for some cases when they run first (a cold long row: 6.9 ms per call after 2 s,
     * 1.3 ms after 8 s), which a fixed warm-up would measure as the operator's time.
     */
    private static void warmUntilSteady(BenchmarkFixture fixture, int minRounds, long minNanos) {
        long start = System.nanoTime();
        double best = Double.MAX_VALUE;
        while (true) {
            long sliceStart = System.nanoTime();
            long opNanos = 0;
            int calls = 0;
            while (calls < minRounds || System.nanoTime() - sliceStart < minNanos / 4) {
                opNanos += timeOperator(fixture);
                fixture.runCopy();
                calls++;
            }
            double mean = (double) opNanos / calls;
            boolean improving = mean < 0.9 * best;
            best = Math.min(best, mean);
            long elapsed = System.nanoTime() - start;
            if ((elapsed >= minNanos && !improving) || elapsed >= 5 * minNanos) {
                return;
            }
        }
    }

    private static long timeOperator(BenchmarkFixture fixture) {
        long t0 = System.nanoTime();
        fixture.runOperator();
        return System.nanoTime() - t0;
    }

    private static long timeCopy(BenchmarkFixture fixture) {
        long t0 = System.nanoTime();
        fixture.runCopy();
        return System.nanoTime() - t0;
    }

    private static double median(long[] samples) {
        long[] sorted = samples.clone();
        Arrays.sort(sorted);
        int m = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2.0;
    }

    private static void printTable(PrintStream out, List<Result> results) {
        String header = String.format(Locale.ROOT, "%-16s %-5s %-26s %-3s %7s %10s %10s %7s %7s  %s", "case", "dtype",
                "shape (N, C, Lin <- Lout)", "ac", "threads", "op ms", "copy ms", "ratio", "GB/s", "target");
        out.println(header);
        out.println("-".repeat(header.length() + 8));
        for (Result r : results) {
            BenchmarkCase c = r.benchCase;
            String shape = c.n() + ", " + c.c() + ", " + c.lin() + " <- " + c.lout();
            String target = c.tinyCall()
                    ? String.format(Locale.ROOT, "op <= %.0f us (%s)", c.targetRatio(),
                            r.opMs * 1000 <= c.targetRatio() ? "met" : "missed")
                    : String.format(Locale.ROOT, "ratio <= %.2f (%s)", c.targetRatio(),
                            r.ratio() <= c.targetRatio() ? "met" : "missed");
            out.println(String.format(Locale.ROOT, "%-16s %-5s %-26s %-3s %7d %10.4f %10.4f %7.2f %7.2f  %s",
                    c.name(), c.dtypeLabel(), shape, c.alignCorners() ? "yes" : "no",
                    r.threads, r.opMs, r.copyMs, r.ratio(), r.gbps(), target));
        }
    }

    /** One measured case. */
    private record Result(BenchmarkCase benchCase, int threads, double opMs, double copyMs) {
        double ratio() {
            return opMs / copyMs;
        }

        /** The operator's traffic: gradOut read once, out written once. */
        double gbps() {
            return (benchCase.gradOutBytes() + benchCase.outBytes()) / (opMs * 1e6);
        }

        String csv() {
            BenchmarkCase c = benchCase;
            return String.format(Locale.ROOT, "%s,%s,%d,%d,%d,%d,%s,%d,%.6f,%.6f,%.4f,%.3f", c.name(), c.dtypeLabel(),
                    c.n(), c.c(), c.lin(), c.lout(), c.alignCorners(), threads, opMs, copyMs, ratio(), gbps());
        }
    }
}
