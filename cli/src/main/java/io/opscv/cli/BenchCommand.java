package io.opscv.cli;

import io.opscv.kernel.KernelProviders;
import io.opscv.kernel.WorkerPool;
import io.opscv.perf.BenchmarkCase;
import io.opscv.perf.BenchmarkCases;
import io.opscv.perf.BenchmarkFixture;
import io.opscv.perf.PairedTiming;
import io.opscv.perf.sweep.SweepCase;
import io.opscv.perf.sweep.SweepDistribution;
import io.opscv.perf.sweep.SweepOp;
import io.opscv.perf.sweep.SweepResult;
import io.opscv.perf.sweep.SweepRunner;
import io.opscv.perf.sweep.SweepSummary;
import java.io.PrintStream;
import java.util.ArrayList;
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
                    + "and writes as many bytes as the operator. GB/s is the operator's (gradOut + out bytes) / time.",
            "With --sweep: instead of the fixed cases, K cases drawn reproducibly from the seed over the shapes users "
                    + "bring (dtypes, alignCorners, scales given or derived, ratio classes, row counts and lengths, "
                    + "layouts; docs/KERNELS.md, 'How to measure'), each moving 64-128 MiB, plus K/4 cache-resident "
                    + "cases (1-4 MiB, names l2_...) summarised apart. CSV header: " + SweepResult.CSV_HEADER
                    + "; in_shape is the operator's input (self, or gradOut for a backward), out_shape its out, both "
                    + "logical (N x C x L or N x C x H x W) whatever the layout. The table ends with the median, 90th "
                    + "percentile and worst ratio, overall, per dtype and per operator. Each case's progress line "
                    + "also gives the MB one call allocates (its scratch: a few MB at most; more is flagged)."
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

    @Option(names = "--sweep", description = "Run the sweep instead of the fixed cases.")
    boolean sweep;

    @Option(names = "--op", paramLabel = "NAME",
            description = "With --sweep: linear1d_backward (default), linear1d, bilinear2d, bilinear2d_backward, or all.")
    String op;

    @Option(names = "--seed", paramLabel = "S",
            description = "With --sweep: the seed the cases are drawn from (default: " + SweepDistribution.DEFAULT_SEED
                    + "); the same seed gives the same cases in every build.")
    Long seed;

    @Option(names = "--count", paramLabel = "K",
            description = "With --sweep: memory-bound cases per operator (default: " + SweepDistribution.DEFAULT_COUNT
                    + "), plus K/4 (at least 1) cache-resident ones.")
    Integer count;

    @Option(names = "--traffic", paramLabel = "MIB",
            description = "With --sweep: the least traffic of a memory-bound case in MiB (default: 64); they move MIB "
                    + "to 2 x MIB, the cache-resident ones MIB/64 to MIB/16.")
    Double trafficMib;

    @Option(names = "--case", paramLabel = "ID",
            description = "Run only this case (repeatable): a name, or name:dtype, e.g. up2x, up2x:fp16, tiny_call; "
                    + "with --sweep, a drawn case by its name or index, e.g. m06 (every --op's case of that name).")
    List<String> caseIds;

    @Override
    public Integer call() {
        if (!format.equals("table") && !format.equals("csv")) {
            throw new CliException("--format: expected table or csv, but got '" + format + "'");
        }
        if (threads != null && threads < 1) {
            throw new CliException("--threads: expected K >= 1, but got " + threads);
        }
        if (sweep) {
            return runSweep();
        }
        String sweepOnly = op != null ? "--op" : seed != null ? "--seed" : count != null ? "--count"
                : trafficMib != null ? "--traffic" : null;
        if (sweepOnly != null) {
            throw new CliException(sweepOnly + ": only with --sweep");
        }
        List<BenchmarkCase> cases = selectCases();
        int k = threads();
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

    /** The threads asked for (one per processor by default), set as the shared pool's parallelism. */
    private int threads() {
        int k = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        WorkerPool.setSharedParallelism(k);
        return k;
    }

    private int runSweep() {
        List<SweepOp> ops;
        String name = op == null ? SweepOp.LINEAR1D_BACKWARD.label() : op;
        if (name.equals("all")) {
            ops = List.of(SweepOp.values());
        } else {
            ops = List.of(SweepOp.byLabel(name).orElseThrow(() -> new CliException("--op: expected linear1d_backward, "
                    + "linear1d, bilinear2d, bilinear2d_backward or all, but got '" + name + "'")));
        }
        int k = count != null ? count : SweepDistribution.DEFAULT_COUNT;
        if (k < 1) {
            throw new CliException("--count: expected K >= 1, but got " + k);
        }
        double mib = trafficMib != null ? trafficMib : SweepDistribution.DEFAULT_TRAFFIC_MIB;
        if (!(mib > 0 && mib <= 4096)) {
            throw new CliException("--traffic: expected MIB in (0, 4096], but got " + trafficMib);
        }
        long s = seed != null ? seed : SweepDistribution.DEFAULT_SEED;
        List<SweepCase> cases = new ArrayList<>();
        for (SweepOp o : ops) {
            cases.addAll(SweepDistribution.cases(o, s, k, mib));
        }
        if (caseIds != null && !caseIds.isEmpty()) {
            cases = selectDrawn(cases);
        }
        int t = threads();
        PrintStream err = parent.err();
        err.println("opscv bench --sweep: kernels " + KernelProviders.get().name() + ", " + t + " thread(s), seed " + s
                + ", " + cases.size() + " case(s)" + (quick ? ", quick" : ""));
        long start = System.nanoTime();
        List<SweepResult> results = new SweepRunner(t, quick, err).run(cases);
        err.println(String.format(Locale.ROOT, "opscv bench --sweep: %d case(s) in %.1f s", results.size(),
                (System.nanoTime() - start) / 1e9));
        PrintStream out = parent.out();
        if (format.equals("csv")) {
            out.println(SweepResult.CSV_HEADER);
            for (SweepResult r : results) {
                out.println(r.csv());
            }
        } else {
            SweepSummary.printTable(out, results);
        }
        return OpscvCli.EXIT_OK;
    }

    /**
     * The drawn cases that --case names: a case's whole name or its index part ({@code m06}, {@code l2_03}), so
     * that one cell of a sweep can be measured again alone, with the same seed, count and traffic.
     */
    private List<SweepCase> selectDrawn(List<SweepCase> drawn) {
        for (String id : caseIds) {
            if (drawn.stream().noneMatch(c -> names(c, id))) {
                throw new CliException("--case: no drawn case '" + id + "' (with --sweep: a name such as m06 or "
                        + "m06_down_frac_tiny, from the cases of this seed and count)");
            }
        }
        return drawn.stream().filter(c -> caseIds.stream().anyMatch(id -> names(c, id))).toList();
    }

    private static boolean names(SweepCase c, String id) {
        boolean index = !id.isEmpty() && Character.isDigit(id.charAt(id.length() - 1));
        return c.name().equals(id) || index && c.name().startsWith(id + "_");
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
                PairedTiming.warmFixed(fixture::runOperator, fixture::runCopy, warmupRounds, warmupNanos);
            } else {
                PairedTiming.warmUntilSteady(fixture::runOperator, fixture::runCopy, warmupRounds, warmupNanos);
            }
            boolean dots = !c.tinyCall() && !quick;
            PairedTiming.Medians m = PairedTiming.alternate(fixture::runOperator, fixture::runCopy, rounds, () -> {
                if (dots) {
                    err.print('.');
                }
            });
            if (dots) {
                err.println();
            }
            return new Result(c, k, m.opNanos() / 1e6, m.copyNanos() / 1e6);
        }
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
