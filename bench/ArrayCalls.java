import io.opscv.Upsample1d;
import io.opscv.perf.sweep.SweepCase;
import io.opscv.perf.sweep.SweepDistribution;
import io.opscv.perf.sweep.SweepOp;
import io.opscv.runtime.DataType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Times the 1-D backward through the array forms of {@link Upsample1d} ({@code float[]} for FP32, heap segments of
 * {@code short[]} for BF16 and FP16) on contiguous tensors of drawn sweep cells' shapes: the cost of a change to how
 * heap memory reaches the kernels, for the callers of the array forms (docs/KERNELS.md, "Heap and off-heap memory in
 * one process"). Mode {@code arrays} times the array calls alone; {@code mixed} times off-heap calls of the same
 * shapes before and after them. Prints each cell's median call time of the last half of four seconds of calls.
 *
 * <pre>
 * . bin/find-jdk
 * "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector -cp 'cli/target/classes:cli/target/lib/*' \
 *     bench/ArrayCalls.java m05,m58,m07 arrays
 * </pre>
 */
public final class ArrayCalls {
    private ArrayCalls() {}

    /** One cell's operator and tensors: on the heap (FP32 as arrays, 16-bit as heap segments) and off the heap. */
    private record Fixture(SweepCase cell, Upsample1d op, DataType dtype, float[] floatsIn, float[] floatsOut,
                           MemorySegment heapIn, MemorySegment heapOut, MemorySegment nativeIn,
                           MemorySegment nativeOut) {
        void arrays() {
            if (dtype == DataType.FLOAT) {
                op.backward(floatsIn, 0, floatsOut, 0);
            } else {
                op.backward(heapIn, heapOut, dtype);
            }
        }

        void offHeap() {
            op.backward(nativeIn, nativeOut, dtype);
        }
    }

    public static void main(String[] args) {
        if (args.length != 2 || !List.of("arrays", "mixed").contains(args[1])) {
            System.err.println("usage: ArrayCalls CELL[,CELL...] arrays|mixed");
            System.exit(2);
        }
        boolean mixed = args[1].equals("mixed");
        try (Arena arena = Arena.ofShared()) {
            List<Fixture> fixtures = new ArrayList<>();
            for (SweepCase c : SweepDistribution.cells(SweepOp.byLabel("linear1d_backward").orElseThrow(),
                    args[0].split(","))) {
                fixtures.add(fixture(c, arena));
            }
            if (mixed) {
                fixtures.forEach(f -> report(f, "off-heap before", time(f::offHeap)));
            }
            fixtures.forEach(f -> report(f, "arrays", time(f::arrays)));
            if (mixed) {
                fixtures.forEach(f -> report(f, "off-heap after", time(f::offHeap)));
            }
        }
    }

    private static Fixture fixture(SweepCase c, Arena arena) {
        DataType dtype = switch (c.dtypeLabel()) {
            case "fp32" -> DataType.FLOAT;
            case "bf16" -> DataType.BF16;
            default -> DataType.FLOAT16;
        };
        long rows = c.n() * c.c();
        int in = Math.toIntExact(rows * c.wout());
        int out = Math.toIntExact(rows * c.win());
        Upsample1d op = Upsample1d.linear(c.n(), c.c(), c.win(), c.wout());
        if (dtype == DataType.FLOAT) {
            float[] x = new float[in];
            Arrays.fill(x, 0.5f);
            MemorySegment nativeIn = arena.allocate(in * 4L, 64).copyFrom(MemorySegment.ofArray(x));
            return new Fixture(c, op, dtype, x, new float[out], null, null, nativeIn, arena.allocate(out * 4L, 64));
        }
        short[] x = new short[in];
        Arrays.fill(x, (short) 0x3c00);
        MemorySegment nativeIn = arena.allocate(in * 2L, 64).copyFrom(MemorySegment.ofArray(x));
        return new Fixture(c, op, dtype, null, null, MemorySegment.ofArray(x), MemorySegment.ofArray(new short[out]),
                nativeIn, arena.allocate(out * 2L, 64));
    }

    private static void report(Fixture f, String what, double ms) {
        System.out.printf("%s %s %s %.3f ms%n", f.cell().name(), f.cell().dtypeLabel(), what, ms);
    }

    private static double time(Runnable call) {
        List<Double> ms = new ArrayList<>();
        long end = System.nanoTime() + 4_000_000_000L;
        while (System.nanoTime() < end) {
            long t0 = System.nanoTime();
            call.run();
            ms.add((System.nanoTime() - t0) / 1e6);
        }
        List<Double> tail = new ArrayList<>(ms.subList(ms.size() / 2, ms.size()));
        Collections.sort(tail);
        return tail.get(tail.size() / 2);
    }
}
