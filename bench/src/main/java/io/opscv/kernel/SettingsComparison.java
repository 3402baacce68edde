package io.opscv.kernel;

import io.opscv.perf.BenchmarkCase;
import io.opscv.perf.BenchmarkCases;
import io.opscv.perf.BenchmarkFixture;
import io.opscv.runtime.DataType;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32;

/**
 * Times the backward's driver with several {@link Linear1dBackwardKernel.Settings} in one process,
 * call by call in turn, against the copy baseline of the same bytes: on a machine where the memory a
 * process gets moves times by up to 2× from one process to the next (the Zen 5 host,
 * docs/PERFORMANCE.md), only settings compared in one process can be told apart. Checks that every
 * setting writes the same bits into out. In package {@code io.opscv.kernel} for the settings, which the
 * library keeps to itself.
 *
 * <pre>
 * java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED \
 *     -cp 'bench/target/classes:bench/target/lib/*' io.opscv.kernel.SettingsComparison \
 *     up2x default longRows=6,longBlock=4096 [--rounds 11]
 * </pre>
 *
 * The case is a {@code bin/opscv bench} case id ({@code up2x}, {@code up2x:fp16}, ...) or a shape
 * {@code N,C,LIN,LOUT} with optional {@code ,ac} (alignCorners), {@code ,t} (a transposed gradOut) and
 * {@code ,fp16} or {@code ,bf16} (else FLOAT). A setting is {@code default} or {@code key=value} pairs over
 * the default, keys as the record's components
 * ({@code inPlaceRows}, {@code inPlaceRows16}, {@code inPlaceBlock}, {@code shortBlock}, {@code shortFormBlock},
 * {@code longRows}, {@code longBlock}, {@code askProvider}, {@code wideRows}, {@code wideBlock}, {@code wideParts},
 * {@code sideBySideBlock}, {@code fewRowsBlock}).
 */
public final class SettingsComparison {
    private SettingsComparison() {}

    public static void main(String[] args) {
        List<String> specs = new ArrayList<>();
        int rounds = withRounds(args, 1, 11, specs);
        if (args.length < 2 || specs.isEmpty() || rounds < 1) {
            System.err.println("usage: SettingsComparison CASE SETTING [SETTING ...] [--rounds N]");
            System.exit(2);
        }
        BenchmarkCase c = benchCase(args[0]);
        Linear1dBackwardKernel.Settings[] settings = specs.stream().map(SettingsComparison::settings)
                .toArray(Linear1dBackwardKernel.Settings[]::new);
        double[][] medians = compare(c, settings, rounds, 3_000_000_000L, System.out);
        System.out.println("setting\top ms median (min-max of rounds)\tratio to copy");
        double[] copy = medians[settings.length].clone();
        Arrays.sort(copy);
        for (int k = 0; k <= settings.length; k++) {
            double[] m = medians[k].clone();
            Arrays.sort(m);
            String name = k < settings.length ? specs.get(k) : "copy";
            System.out.printf(Locale.ROOT, "%s\t%.3f (%.3f-%.3f)\t%.2f%n", name, median(m), m[0], m[m.length - 1],
                    median(m) / median(copy));
        }
    }

    /**
     * The arguments from {@code from} on: {@code --rounds N}'s N (else {@code rounds}) returned, the others added to
     * {@code rest} (this tool's and {@link TrafficCost}'s command lines).
     */
    static int withRounds(String[] args, int from, int rounds, List<String> rest) {
        for (int a = from; a < args.length; a++) {
            if (args[a].equals("--rounds")) {
                rounds = Integer.parseInt(args[++a]);
            } else {
                rest.add(args[a]);
            }
        }
        return rounds;
    }

    /**
     * Runs each setting and the copy once per step, in turn (each step starting one further along, so that every
     * one of them takes every place), after {@code warmupNanos} of the same;
     * returns per setting (and last, the copy) the median of each round of 11 steps. Prints one line
     * per round on {@code log}. Fails if two settings write different bits into out.
     */
    static double[][] compare(BenchmarkCase c, Linear1dBackwardKernel.Settings[] settings, int rounds,
                              long warmupNanos, java.io.PrintStream log) {
        double[][] medians = new double[settings.length + 1][rounds];
        LinearTable table = LinearTable.deferred(c.lin(), c.lout(), c.alignCorners(), c.scales());
        KernelProvider provider = KernelProviders.get();
        WorkerPool pool = WorkerPool.shared();
        try (BenchmarkFixture fixture = new BenchmarkFixture(c)) {
            fixture.withKernelViews((gradOut, out) -> {
                long[] crc = new long[settings.length];
                for (int k = 0; k < settings.length; k++) {
                    // A NaN pattern first, so that an output a setting leaves out shows.
                    fixture.outSegment().fill((byte) 0x7f);
                    Linear1dBackwardKernel.run(gradOut, out, table, provider, pool, settings[k]);
                    crc[k] = crc(fixture.outSegment());
                    if (crc[k] != crc[0]) {
                        throw new IllegalStateException("setting " + settings[k] + " wrote other bits than " + settings[0]);
                    }
                }
                long warmupEnd = System.nanoTime() + warmupNanos;
                while (System.nanoTime() < warmupEnd) {
                    for (Linear1dBackwardKernel.Settings s : settings) {
                        Linear1dBackwardKernel.run(gradOut, out, table, provider, pool, s);
                    }
                    fixture.runCopy();
                }
                int steps = 11;
                int items = settings.length + 1;
                for (int r = 0; r < rounds; r++) {
                    double[][] times = new double[items][steps];
                    for (int step = 0; step < steps; step++) {
                        // Every setting and the copy (item settings.length) take each place in the order in turn:
                        // the call right after the copy finds less of its data in the caches (the long row, 12 MB,
                        // took 0.134 ms in the first place against 0.129 and 0.128 in the next two, all three
                        // the same setting).
                        int first = (r * steps + step) % items;
                        for (int q = 0; q < items; q++) {
                            int k = (first + q) % items;
                            long t0 = System.nanoTime();
                            if (k < settings.length) {
                                Linear1dBackwardKernel.run(gradOut, out, table, provider, pool, settings[k]);
                            } else {
                                fixture.runCopy();
                            }
                            times[k][step] = (System.nanoTime() - t0) / 1e6;
                        }
                    }
                    StringBuilder line = new StringBuilder("round " + (r + 1) + ":");
                    for (int k = 0; k <= settings.length; k++) {
                        Arrays.sort(times[k]);
                        medians[k][r] = median(times[k]);
                        line.append(String.format(Locale.ROOT, " %.3f", medians[k][r]));
                    }
                    log.println(line);
                }
            });
        }
        return medians;
    }

    private static long crc(MemorySegment segment) {
        CRC32 crc = new CRC32();
        crc.update(segment.asByteBuffer());
        return crc.getValue();
    }

    private static double median(double[] sorted) {
        int m = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
    }

    /** A bench case id, or {@code N,C,LIN,LOUT[,ac][,t][,fp16|,bf16]} (FLOAT unless fp16 or bf16). */
    static BenchmarkCase benchCase(String spec) {
        if (!Character.isDigit(spec.charAt(0))) {
            return BenchmarkCases.byId(spec).orElseThrow(() -> new IllegalArgumentException("no bench case " + spec));
        }
        String[] p = spec.split(",");
        boolean ac = Arrays.asList(p).contains("ac");
        boolean transposed = Arrays.asList(p).contains("t");
        DataType type = Arrays.asList(p).contains("fp16") ? DataType.FLOAT16
                : Arrays.asList(p).contains("bf16") ? DataType.BF16 : DataType.FLOAT;
        return new BenchmarkCase(spec, type, Integer.parseInt(p[0]), Integer.parseInt(p[1]),
                Integer.parseInt(p[2]), Integer.parseInt(p[3]), ac, 0, transposed, 0, false);
    }

    /** {@code default}, or {@code key=value} pairs over the default settings. */
    static Linear1dBackwardKernel.Settings settings(String spec) {
        Linear1dBackwardKernel.Settings d = Linear1dBackwardKernel.Settings.DEFAULT;
        int inPlaceRows = d.inPlaceRows();
        int inPlaceRows16 = d.inPlaceRows16();
        int inPlaceBlock = d.inPlaceBlock();
        int shortBlock = d.shortBlock();
        int shortFormBlock = d.shortFormBlock();
        int longRows = d.longRows();
        int longBlock = d.longBlock();
        boolean askProvider = d.askProvider();
        int wideRows = d.wideRows();
        int wideBlock = d.wideBlock();
        int wideParts = d.wideParts();
        int sideBySideBlock = d.sideBySideBlock();
        int fewRowsBlock = d.fewRowsBlock();
        if (!spec.equals("default")) {
            for (String pair : spec.split(",")) {
                String[] kv = pair.split("=", 2);
                if (kv.length != 2) {
                    throw new IllegalArgumentException("not key=value: " + pair);
                }
                switch (kv[0]) {
                    case "inPlaceRows" -> inPlaceRows = Integer.parseInt(kv[1]);
                    case "inPlaceRows16" -> inPlaceRows16 = Integer.parseInt(kv[1]);
                    case "inPlaceBlock" -> inPlaceBlock = Integer.parseInt(kv[1]);
                    case "shortBlock" -> shortBlock = Integer.parseInt(kv[1]);
                    case "shortFormBlock" -> shortFormBlock = Integer.parseInt(kv[1]);
                    case "longRows" -> longRows = Integer.parseInt(kv[1]);
                    case "longBlock" -> longBlock = Integer.parseInt(kv[1]);
                    case "askProvider" -> askProvider = Boolean.parseBoolean(kv[1]);
                    case "wideRows" -> wideRows = Integer.parseInt(kv[1]);
                    case "wideBlock" -> wideBlock = Integer.parseInt(kv[1]);
                    case "wideParts" -> wideParts = Integer.parseInt(kv[1]);
                    case "sideBySideBlock" -> sideBySideBlock = Integer.parseInt(kv[1]);
                    case "fewRowsBlock" -> fewRowsBlock = Integer.parseInt(kv[1]);
                    default -> throw new IllegalArgumentException("no setting " + kv[0]);
                }
            }
        }
        return new Linear1dBackwardKernel.Settings(inPlaceRows, inPlaceRows16, inPlaceBlock, shortBlock, shortFormBlock,
                longRows, longBlock, askProvider, wideRows, wideBlock, wideParts, sideBySideBlock, fewRowsBlock);
    }
}
