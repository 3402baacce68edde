package io.opscv.perf.sweep;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The sweep's table: one line per case, then the summary of the ratios (op / copy) per group — memory-bound
 * and cache-resident apart — overall, per dtype and, when more than one operator ran, per operator.
 */
public final class SweepSummary {
    private SweepSummary() {}

    /** Median, 90th percentile and worst of a set of ratios. */
    public record Stats(int count, double median, double p90, double worst) {
        /**
         * The statistics of {@code ratios}: the median is the middle value (the mean of the two middle ones for
         * an even count); the 90th percentile is the nearest rank, the ⌈0.9 · count⌉-th smallest; the worst the
         * largest.
         */
        public static Stats of(double[] ratios) {
            if (ratios.length == 0) {
                throw new IllegalArgumentException("no ratios");
            }
            double[] s = ratios.clone();
            Arrays.sort(s);
            int m = s.length / 2;
            double median = s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
            double p90 = s[(int) Math.ceil(0.9 * s.length) - 1];
            return new Stats(s.length, median, p90, s[s.length - 1]);
        }
    }

    /** Prints the per-case lines and the summary. */
    public static void printTable(PrintStream out, List<SweepResult> results) {
        String header = String.format(Locale.ROOT, "%-26s %-19s %-4s %-22s %-22s %-3s %-37s %-11s %3s %10s %10s %7s %7s",
                "case", "op", "dt", "in_shape", "out_shape", "ac", "scales", "layout", "thr", "op ms", "copy ms", "ratio",
                "GB/s");
        out.println(header);
        out.println("-".repeat(header.length()));
        for (SweepResult r : results) {
            SweepCase k = r.sweepCase();
            out.println(String.format(Locale.ROOT, "%-26s %-19s %-4s %-22s %-22s %-3s %-37s %-11s %3d %10.4f %10.4f %7.2f %7.2f",
                    k.name(), k.op().label(), k.dtypeLabel(), k.inShape(), k.outShape(), k.alignCorners() ? "yes" : "no",
                    k.scalesLabel(), k.layout().label(), r.threads(), r.opMs(), r.copyMs(), r.ratio(), r.gbps()));
        }
        out.println();
        for (String line : summaryLines(results)) {
            out.println(line);
        }
    }

    /** The summary: per group, "all", then per dtype, then per operator when there are several. */
    public static List<String> summaryLines(List<SweepResult> results) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "%-40s %5s %8s %8s %8s", "summary of op / copy", "cases", "median", "p90",
                "worst"));
        boolean severalOps = results.stream().map(r -> r.sweepCase().op()).distinct().count() > 1;
        for (boolean cache : new boolean[] {false, true}) {
            List<SweepResult> group = results.stream().filter(r -> r.sweepCase().cacheResident() == cache).toList();
            if (group.isEmpty()) {
                continue;
            }
            String name = cache ? "cache-resident (l2_)" : "memory-bound";
            lines.add(line(name + ", all", group));
            for (Map.Entry<String, List<SweepResult>> e : by(group, r -> r.sweepCase().dtypeLabel(), List.of("fp32", "fp16", "bf16")).entrySet()) {
                lines.add(line(name + ", " + e.getKey(), e.getValue()));
            }
            if (severalOps) {
                for (Map.Entry<String, List<SweepResult>> e : by(group, r -> r.sweepCase().op().label(),
                        Arrays.stream(SweepOp.values()).map(SweepOp::label).toList()).entrySet()) {
                    lines.add(line(name + ", " + e.getKey(), e.getValue()));
                }
            }
        }
        return lines;
    }

    /** The results grouped by {@code key}, the groups in {@code order}; empty groups left out. */
    private static Map<String, List<SweepResult>> by(List<SweepResult> results, Function<SweepResult, String> key,
                                                     List<String> order) {
        Map<String, List<SweepResult>> groups = new LinkedHashMap<>();
        for (String k : order) {
            groups.put(k, new ArrayList<>());
        }
        for (SweepResult r : results) {
            groups.computeIfAbsent(key.apply(r), x -> new ArrayList<>()).add(r);
        }
        groups.values().removeIf(List::isEmpty);
        return groups;
    }

    private static String line(String label, List<SweepResult> results) {
        Stats s = Stats.of(results.stream().mapToDouble(SweepResult::ratio).toArray());
        return String.format(Locale.ROOT, "%-40s %5d %8.2f %8.2f %8.2f", label, s.count(), s.median(), s.p90(), s.worst());
    }
}
