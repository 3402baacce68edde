package io.opscv.perf.sweep;

import java.util.ArrayList;
import java.util.List;

/**
 * The cases of a sweep: for one operator, {@code count} memory-bound cases (names {@code m<index>_...}), each
 * moving between {@code trafficMib} and twice that (its input read and its output written), then
 * {@link #cacheCount(int)} cache-resident cases (names {@code l2_<index>_...}) moving trafficMib / 64 to
 * trafficMib / 16 (1–4 MiB at the default), reported apart. The draws depend on the seed, the operator and
 * the group only, so a seed names the same cases in every build (the way to A/B two builds); a forward and
 * its backward get the same shapes (the backward's gradOut has the forward output's shape).
 */
public final class SweepDistribution {
    /** The seed when none is given. */
    public static final long DEFAULT_SEED = 24;
    /** Memory-bound cases per operator when no count is given. */
    public static final int DEFAULT_COUNT = 60;
    /** The least traffic of a memory-bound case, in MiB, when none is given. */
    public static final double DEFAULT_TRAFFIC_MIB = 64;

    private static final double MIB = 1024.0 * 1024.0;

    private SweepDistribution() {}

    /** The cache-resident cases drawn beside {@code count} memory-bound ones: a quarter, at least one. */
    public static int cacheCount(int count) {
        return Math.max(1, count / 4);
    }

    /** Both groups of {@code op}'s cases: memory-bound first, then cache-resident. */
    public static List<SweepCase> cases(SweepOp op, long seed, int count, double trafficMib) {
        double lo = trafficMib * MIB;
        List<SweepCase> all = new ArrayList<>(group(op, new Draws(mix(seed, op, 0)), count, lo, 2 * lo, "m", false));
        all.addAll(group(op, new Draws(mix(seed, op, 1)), cacheCount(count), lo / 64, lo / 16, "l2_", true));
        return all;
    }

    /**
     * The cells {@code names} of {@code op}'s default draw, in that order, each named by its index (e.g. {@code m20},
     * {@code l2_04}): how the bench's tools take cells.
     *
     * @throws IllegalArgumentException where no drawn case has that index
     */
    public static List<SweepCase> cells(SweepOp op, String... names) {
        List<SweepCase> drawn = cases(op, DEFAULT_SEED, DEFAULT_COUNT, DEFAULT_TRAFFIC_MIB);
        List<SweepCase> cells = new ArrayList<>();
        for (String name : names) {
            cells.add(drawn.stream().filter(c -> c.name().startsWith(name + "_")).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no cell " + name)));
        }
        return cells;
    }

    private static List<SweepCase> group(SweepOp op, Draws d, int count, double lo, double hi, String prefix, boolean cache) {
        return op.twoD()
                ? Bilinear2dDistribution.draw(op, d, count, lo, hi, prefix, cache)
                : Linear1dDistribution.draw(op, d, count, lo, hi, prefix, cache);
    }

    /** One generator seed per (seed, 1-D or 2-D, group), so that a group's draws depend on nothing else. */
    private static long mix(long seed, SweepOp op, int group) {
        return seed * 1_000_003L + (op.twoD() ? 101L : 0L) + group;
    }
}
