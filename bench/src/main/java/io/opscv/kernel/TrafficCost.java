package io.opscv.kernel;

import io.opscv.perf.BenchmarkCase;
import io.opscv.perf.BenchmarkFixture;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * What a case's bytes cost without the operator's arithmetic, against the operator and the copy baseline, in one
 * process, call by call in turn: reference points for how far a case's target is from what reading and writing
 * its bytes costs on this machine.
 *
 * <p>Three plain loops on the operator's own memory and threads (the shared pool, tasks of 64 KiB): <em>read</em>
 * loads every vector of gradOut once, in order (four at a time, combined with an exclusive or, which costs next to
 * nothing); <em>write</em> stores every vector of out once, in order; <em>both</em> does the two in the same tasks,
 * a task's share of gradOut read and then its share of out written. These are not floors: the operator, which
 * interleaves its reads and writes finely on several streams, can beat <em>both</em> and even <em>write</em>. But
 * when reading gradOut alone takes about as long as the copy, a target near the copy's time leaves nothing for the
 * writes. Contiguous cases only (a transposed gradOut is refused).
 *
 * <pre>
 * java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED \
 *     -cp 'bench/target/classes:bench/target/lib/*' io.opscv.kernel.TrafficCost up2x up3.7x [--rounds 5]
 * </pre>
 *
 * Cases as {@link SettingsComparison}'s. Prints, per case, the medians of each round of 11 steps (read, write, both,
 * op, copy), then per case the medians of the rounds and each as a ratio to the copy.
 */
public final class TrafficCost {
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;
    private static final int VECTOR = INTS.vectorByteSize();
    private static final MemorySegment RAW = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    private static final long TASK_BYTES = 65536;
    /** Where each task leaves a lane of its sum, so that the reads are not optimised away. */
    private static volatile int sink;

    private TrafficCost() {}

    public static void main(String[] args) {
        List<String> cases = new ArrayList<>();
        int rounds = SettingsComparison.withRounds(args, 0, 5, cases);
        if (cases.isEmpty() || rounds < 1) {
            System.err.println("usage: TrafficCost CASE [CASE ...] [--rounds N]");
            System.exit(2);
        }
        List<String> summary = new ArrayList<>();
        for (String spec : cases) {
            BenchmarkCase c = SettingsComparison.benchCase(spec);
            System.out.println(spec + ": read, write, both, op, copy ms per round");
            double[][] medians = compare(c, rounds, 3_000_000_000L, System.out);
            double copy = median(medians[4]);
            StringBuilder line = new StringBuilder(spec);
            for (double[] m : medians) {
                line.append(String.format(Locale.ROOT, "\t%.3f (%.2f)", median(m), median(m) / copy));
            }
            summary.add(line.toString());
        }
        System.out.println("case\tread ms (/copy)\twrite\tboth\top\tcopy");
        summary.forEach(System.out::println);
    }

    /**
     * Read, write, both, the operator (default settings) and the copy, in turn, after {@code warmupNanos} of the
     * same; for each, the median of each round of 11 steps.
     */
    static double[][] compare(BenchmarkCase c, int rounds, long warmupNanos, java.io.PrintStream log) {
        if (c.transposed()) {
            throw new IllegalArgumentException("the loops read gradOut in order: no transposed cases");
        }
        LinearTable table = LinearTable.deferred(c.lin(), c.lout(), c.alignCorners(), c.scales());
        KernelProvider provider = KernelProviders.get();
        WorkerPool pool = WorkerPool.shared();
        double[][] medians = new double[5][rounds];
        try (BenchmarkFixture fixture = new BenchmarkFixture(c)) {
            fixture.withKernelViews((gradOut, out) -> {
                long g = gradOut.segment().address() + gradOut.offset() * gradOut.dataType().byteSize();
                long gBytes = gradOut.numel() * gradOut.dataType().byteSize();
                long o = out.segment().address() + out.offset() * out.dataType().byteSize();
                long oBytes = out.numel() * out.dataType().byteSize();
                Runnable[] runs = {
                    () -> traffic(g, gBytes, o, 0, pool),
                    () -> traffic(g, 0, o, oBytes, pool),
                    () -> traffic(g, gBytes, o, oBytes, pool),
                    () -> Linear1dBackwardKernel.run(gradOut, out, table, provider, pool),
                    fixture::runCopy,
                };
                long warmupEnd = System.nanoTime() + warmupNanos;
                while (System.nanoTime() < warmupEnd) {
                    for (Runnable run : runs) {
                        run.run();
                    }
                }
                int steps = 11;
                for (int r = 0; r < rounds; r++) {
                    double[][] times = new double[runs.length][steps];
                    for (int step = 0; step < steps; step++) {
                        for (int k = 0; k < runs.length; k++) {
                            long t0 = System.nanoTime();
                            runs[k].run();
                            times[k][step] = (System.nanoTime() - t0) / 1e6;
                        }
                    }
                    StringBuilder line = new StringBuilder("round " + (r + 1) + ":");
                    for (int k = 0; k < runs.length; k++) {
                        medians[k][r] = median(times[k]);
                        line.append(String.format(Locale.ROOT, " %.3f", medians[k][r]));
                    }
                    log.println(line);
                }
            });
        }
        return medians;
    }

    /**
     * Reads {@code gBytes} from {@code g} and writes {@code oBytes} at {@code o} (whole groups of four vectors only),
     * in as many tasks as make 64 KiB of the larger side each; a task reads its share of the one, then writes its
     * share of the other.
     */
    static void traffic(long g, long gBytes, long o, long oBytes, WorkerPool pool) {
        final long block = 4L * VECTOR;
        long gBlocks = gBytes / block;
        long oBlocks = oBytes / block;
        int tasks = (int) Math.max(1, (Math.max(gBlocks, oBlocks) * block + TASK_BYTES - 1) / TASK_BYTES);
        pool.forEach(tasks, (task, slot) -> {
            long gFrom = gBlocks * task / tasks;
            long gTo = gBlocks * (task + 1) / tasks;
            IntVector sum = IntVector.zero(INTS);
            for (long at = g + gFrom * block, end = g + gTo * block; at < end; at += block) {
                sum = IntVector.fromMemorySegment(INTS, RAW, at, ORDER)
                        .lanewise(VectorOperators.XOR, IntVector.fromMemorySegment(INTS, RAW, at + VECTOR, ORDER))
                        .lanewise(VectorOperators.XOR, IntVector.fromMemorySegment(INTS, RAW, at + 2L * VECTOR, ORDER))
                        .lanewise(VectorOperators.XOR, IntVector.fromMemorySegment(INTS, RAW, at + 3L * VECTOR, ORDER))
                        .lanewise(VectorOperators.XOR, sum);
            }
            long oFrom = oBlocks * task / tasks;
            long oTo = oBlocks * (task + 1) / tasks;
            for (long at = o + oFrom * block, end = o + oTo * block; at < end; at += block) {
                sum.intoMemorySegment(RAW, at, ORDER);
                sum.intoMemorySegment(RAW, at + VECTOR, ORDER);
                sum.intoMemorySegment(RAW, at + 2L * VECTOR, ORDER);
                sum.intoMemorySegment(RAW, at + 3L * VECTOR, ORDER);
            }
            sink = sum.lane(0);
        });
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int m = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
    }
}
