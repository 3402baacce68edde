package io.opscv.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts what the fuzz did, per operator: calls, outcomes, and how often each SPEC rule decided a
 * call; written to {@code target/reliability/fuzz-<operator>.txt} (the figures of
 * docs/RELIABILITY.md) and printed as one line.
 */
final class FuzzStatistics {
    private static final Map<String, Map<String, LongAdder>> COUNTS = new ConcurrentHashMap<>();

    private FuzzStatistics() {}

    static void increment(String operator, String key) {
        COUNTS.computeIfAbsent(operator, k -> new ConcurrentHashMap<>()).computeIfAbsent(key, k -> new LongAdder()).increment();
    }

    static long calls(String operator) {
        return count(operator, "calls");
    }

    /** How often {@code key} was counted for {@code operator}. */
    static long count(String operator, String key) {
        Map<String, LongAdder> m = COUNTS.get(operator);
        LongAdder count = m == null ? null : m.get(key);
        return count == null ? 0 : count.sum();
    }

    /** Writes and prints the counts of {@code operator}. */
    static void report(String operator) {
        Map<String, LongAdder> m = COUNTS.getOrDefault(operator, Map.of());
        StringBuilder sb = new StringBuilder(operator).append(" fuzz: ").append(calls(operator)).append(" generated calls\n");
        new TreeMap<>(m).forEach((k, v) -> sb.append(String.format("%10d  %s%n", v.sum(), k)));
        System.out.print(sb);
        String dir = System.getProperty("opscv.reports.dir");
        if (dir != null) {
            try {
                Files.createDirectories(Path.of(dir));
                Files.writeString(Path.of(dir, "fuzz-" + operator + ".txt"), sb.toString());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
