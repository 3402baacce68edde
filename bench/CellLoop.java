import io.opscv.perf.sweep.SweepCase;
import io.opscv.perf.sweep.SweepDistribution;
import io.opscv.perf.sweep.SweepFixture;
import io.opscv.perf.sweep.SweepOp;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Runs drawn sweep cells of one operator in a loop, each for a given number of seconds, and prints the best and
 * median op time of the last two thirds of its calls (the first third warms the JIT) and the bytes the process
 * allocated per call over them. A cell alone in a process, or a few in a chosen order, is the steadiest A/B of a
 * change (run it once per build, alternating the builds); a call that allocates more than its scratch buffers (a
 * few KB once they are kept) has a vector boxed somewhere (docs/KERNELS.md, "JIT state", "Without AVX-512"), and
 * a short run also counts the warm-up's boxing. The cells are the sweep's defaults (seed 24, count 60, 64 MiB).
 *
 * <p>Run, from the project root after a build, e.g. under {@code perf record} for a profile:
 * <pre>
 * . bin/find-jdk
 * "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector -cp 'cli/target/classes:cli/target/lib/*' \
 *     bench/CellLoop.java linear1d_backward m03,m06 5
 * </pre>
 */
public final class CellLoop {
    private CellLoop() {}

    public static void main(String[] args) {
        if (args.length != 3) {
            System.err.println("usage: CellLoop OP CELL[,CELL...] SECONDS   (e.g. linear1d_backward m03,l2_04 5)");
            System.exit(2);
        }
        SweepOp op = SweepOp.byLabel(args[0]).orElseThrow(() -> new IllegalArgumentException("no op " + args[0]));
        double seconds = Double.parseDouble(args[2]);
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (SweepCase c : SweepDistribution.cells(op, args[1].split(","))) {
            try (SweepFixture f = new SweepFixture(c)) {
                List<Double> ms = new ArrayList<>();
                long allocatedFrom = 0;
                int callsFrom = -1;
                long start = System.nanoTime();
                long end = start + (long) (seconds * 1e9);
                while (System.nanoTime() < end || ms.size() < 3) {
                    if (callsFrom < 0 && System.nanoTime() - start > (end - start) / 3) {
                        allocatedFrom = threads.getTotalThreadAllocatedBytes();
                        callsFrom = ms.size();
                    }
                    long t0 = System.nanoTime();
                    f.runOperator();
                    ms.add((System.nanoTime() - t0) / 1e6);
                }
                if (callsFrom < 0 || callsFrom == ms.size()) {
                    // Calls longer than the run's first third: the last call alone.
                    callsFrom = ms.size() - 1;
                    allocatedFrom = -1;
                }
                int from = callsFrom;
                long allocated = allocatedFrom < 0 ? 0 : threads.getTotalThreadAllocatedBytes() - allocatedFrom;
                List<Double> tail = new ArrayList<>(ms.subList(from, ms.size()));
                Collections.sort(tail);
                System.out.printf("%s %s %s best %.3f med %.3f calls %d alloc/call %.0f KB%n", args[0], c.name(),
                        c.dtypeLabel(), tail.get(0), tail.get(tail.size() / 2), ms.size(),
                        allocated / 1024.0 / Math.max(1, ms.size() - from));
            }
        }
    }
}
