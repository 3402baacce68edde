import io.opscv.Upsample1d;
import io.opscv.perf.sweep.SweepCase;
import io.opscv.perf.sweep.SweepDistribution;
import io.opscv.perf.sweep.SweepFixture;
import io.opscv.perf.sweep.SweepOp;
import io.opscv.runtime.DataType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Times drawn sweep cells (off-heap tensors) of the 1-D backward or forward, then, unless the mode is {@code control},
 * runs the array forms of {@link Upsample1d} on rows of the same sizes for eight seconds ({@code float}: {@code
 * float[]} only; {@code arrays}: {@code float[]} and {@code short[]} in BF16 and FP16), and times the cells again:
 * how much a process that passes both heap and off-heap memory through the operators loses on its off-heap calls
 * (docs/KERNELS.md, "Heap and off-heap memory in one process"). Prints each cell's median op time of the last two
 * thirds of three seconds of calls, before and after.
 *
 * <pre>
 * . bin/find-jdk
 * "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector -cp 'cli/target/classes:cli/target/lib/*' \
 *     bench/MixedSegments.java linear1d_backward m21,m58,m05 arrays
 * </pre>
 */
public final class MixedSegments {
    private MixedSegments() {}

    public static void main(String[] args) {
        if (args.length != 3 || !List.of("control", "float", "arrays").contains(args[2])) {
            System.err.println("usage: MixedSegments OP CELL[,CELL...] control|float|arrays");
            System.exit(2);
        }
        SweepOp op = SweepOp.byLabel(args[0]).orElseThrow(() -> new IllegalArgumentException("no op " + args[0]));
        List<SweepCase> cells = SweepDistribution.cells(op, args[1].split(","));
        double[] before = new double[cells.size()];
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < cells.size(); i++) {
                before[i] = median(cells.get(i));
            }
        }
        if (!args[2].equals("control")) {
            long end = System.nanoTime() + 8_000_000_000L;
            while (System.nanoTime() < end) {
                for (SweepCase c : cells) {
                    arrays(c, args[2].equals("arrays"));
                }
            }
        }
        for (int i = 0; i < cells.size(); i++) {
            double after = median(cells.get(i));
            System.out.printf("%s %s %s before %.3f ms after %.3f ms (%.2f)%n", args[2], cells.get(i).name(),
                    cells.get(i).dtypeLabel(), before[i], after, after / before[i]);
        }
    }

    /** The array forms on up to 2^20 elements of rows of the cell's lengths, both directions. */
    private static void arrays(SweepCase c, boolean sixteenBits) {
        long rows = Math.max(1, Math.min(c.n() * c.c(), (1 << 20) / Math.max(c.win(), c.wout())));
        Upsample1d u = Upsample1d.linear(1, rows, c.win(), c.wout());
        u.backward(new float[(int) (rows * c.wout())]);
        u.forward(new float[(int) (rows * c.win())]);
        if (sixteenBits) {
            for (DataType t : List.of(DataType.BF16, DataType.FLOAT16)) {
                u.backward(new short[(int) (rows * c.wout())], t);
                u.forward(new short[(int) (rows * c.win())], t);
            }
        }
    }

    private static double median(SweepCase c) {
        try (SweepFixture f = new SweepFixture(c)) {
            List<Double> ms = new ArrayList<>();
            long end = System.nanoTime() + 3_000_000_000L;
            while (System.nanoTime() < end) {
                long t0 = System.nanoTime();
                f.runOperator();
                ms.add((System.nanoTime() - t0) / 1e6);
            }
            List<Double> tail = new ArrayList<>(ms.subList(ms.size() / 3, ms.size()));
            Collections.sort(tail);
            return tail.get(tail.size() / 2);
        }
    }
}
