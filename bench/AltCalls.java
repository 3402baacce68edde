import io.opscv.perf.sweep.SweepCase;
import io.opscv.perf.sweep.SweepDistribution;
import io.opscv.perf.sweep.SweepFixture;
import io.opscv.perf.sweep.SweepOp;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Times drawn sweep cells with a system property set to each of several values in turn, call by call in one process,
 * each call after a copy of the cell's copy bytes (as the sweep times it): the steadiest A/B of a tuning constant.
 * Build a scratch tree whose kernel reads the constant from the property once per call (never per element), e.g.
 * {@code Integer.getInteger("blockInputs", 4096)} in a plan, and run this there. The machine's load moves every value
 * alike, and the JIT state is the same for all of them; two builds in two processes differ by both. Prints per cell
 * and value the median and best op time of {@code CALLS} calls, after ten calls of each to warm up, and each median
 * over the first value's.
 *
 * <pre>
 * . bin/find-jdk
 * "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED \
 *     -cp 'cli/target/classes:cli/target/lib/*' bench/AltCalls.java linear1d_backward m20,m28 blockInputs 4096,2048 30
 * </pre>
 */
public final class AltCalls {
    private static final int WARM_UP_CALLS = 10;

    private AltCalls() {}

    public static void main(String[] args) {
        if (args.length != 5) {
            System.err.println("usage: AltCalls OP CELL[,CELL...] PROPERTY VALUE,VALUE[,...] CALLS");
            System.exit(2);
        }
        SweepOp op = SweepOp.byLabel(args[0]).orElseThrow(() -> new IllegalArgumentException("no op " + args[0]));
        String property = args[2];
        String[] values = args[3].split(",");
        int calls = Integer.parseInt(args[4]);
        for (SweepCase c : SweepDistribution.cells(op, args[1].split(","))) {
            try (SweepFixture f = new SweepFixture(c)) {
                List<List<Double>> ms = new ArrayList<>();
                for (String ignored : values) {
                    ms.add(new ArrayList<>());
                }
                for (int call = 0; call < WARM_UP_CALLS + calls; call++) {
                    for (int v = 0; v < values.length; v++) {
                        System.setProperty(property, values[v]);
                        f.runCopy();
                        long t0 = System.nanoTime();
                        f.runOperator();
                        long t1 = System.nanoTime();
                        if (call >= WARM_UP_CALLS) {
                            ms.get(v).add((t1 - t0) / 1e6);
                        }
                    }
                }
                StringBuilder line = new StringBuilder(args[0] + " " + c.name() + " " + c.dtypeLabel());
                double first = 0;
                for (int v = 0; v < values.length; v++) {
                    List<Double> x = ms.get(v);
                    Collections.sort(x);
                    double median = x.get(x.size() / 2);
                    first = v == 0 ? median : first;
                    line.append(String.format("  %s=%s med %.3f best %.3f (%.2f)", property, values[v], median, x.get(0),
                            median / first));
                }
                System.out.println(line);
            }
        }
    }
}
