package io.opscv.bench;

import io.opscv.kernel.ElementCodec;
import io.opscv.kernel.KernelProvider;
import io.opscv.kernel.KernelProviders;
import io.opscv.kernel.LinearTable;
import io.opscv.runtime.DataType;
import io.opscv.runtime.PinnedScopes;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The in-place form of the provider ({@link KernelProvider#linearBackwardInPlace}, FLOAT rows read
 * from and written to native memory): one call of {@link #rows} rows (4 by default; the driver makes calls of 6
 * FLOAT rows and 4 16-bit rows) × 4096 inputs (or the whole row, for the short rows),
 * measured alone on one thread with the data in cache. Divide by rows × inputs to get the compute cost per
 * element of out; compare with the copy's cost per element of the same case to see whether a case
 * can be memory-bound.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
public class InPlaceBlockBenchmark {
    private static final int INPUTS = 4096;

    /**
     * Lin:Lout[:ac] of the rows: up2x, up2x with alignCorners, down4x, up3.7x, the short rows (a
     * row shorter than the block is taken whole, last input included; run it with
     * {@code -p rows=256}, as the driver does).
     */
    @Param({"16384:32768", "16384:32768:ac", "32768:8192", "7000:25900", "16:64"})
    public String sizes;

    /** FLOAT, or BF16 or FLOAT16 (the windowed form only: up2x and down4x). */
    @Param({"FLOAT"})
    public DataType dtype;

    /**
     * Rows per call: the driver makes calls of 4 rows of up to 32768 inputs at ratios up to 2 on rows of
     * 4096 inputs or more (Linear1dBackwardKernel.LONG_ROWS, LONG_BLOCK), else 6 FLOAT rows and 4 BF16 or FP16
     * rows (IN_PLACE_ROWS, IN_PLACE_ROWS_16).
     */
    @Param({"4"})
    public int rows;

    // Shared and held, as device memory is while a plan runs on it (DeviceMemory.pin).
    private final Arena arena = Arena.ofShared();
    private final PinnedScopes.Hold hold = PinnedScopes.hold(arena.scope());
    private LinearTable table;
    private KernelProvider kernels;
    private MemorySegment gradOut;
    private MemorySegment out;
    private int span;
    private int i0;
    private int inputs;

    @Setup
    public void setUp() {
        String[] parts = sizes.split(":");
        int lin = Integer.parseInt(parts[0]);
        int lout = Integer.parseInt(parts[1]);
        table = LinearTable.of(lin, lout, parts.length > 2, 0);
        kernels = KernelProviders.vector();
        if (kernels == null || !kernels.backwardInPlace(table, dtype)) {
            throw new IllegalStateException("no in-place vector form for " + sizes);
        }
        // A block that stops before the last input, or a whole short row; from a multiple of 64 inputs, as the
        // driver's blocks are (the vector provider keeps some set-up per group of L inputs from a multiple of L).
        i0 = lin > 2 * INPUTS ? INPUTS : Math.max(0, lin - INPUTS - 1) / 64 * 64;
        inputs = Math.min(INPUTS, lin - i0);
        span = table.gatherTo(i0 + inputs) - table.gatherFrom(i0);
        int size = dtype.byteSize();
        gradOut = arena.allocate((long) rows * span * size + 256, 64);
        float[] values = new float[(int) (gradOut.byteSize() / size)];
        for (int k = 0; k < values.length; k++) {
            values[k] = 0.25f + (k * 37L % 101) / 64f;
        }
        ElementCodec.encode(values, 0, values.length, gradOut, dtype, 0, 1);
        out = arena.allocate((long) rows * inputs * size, 64);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        hold.close();
        arena.close();
    }

    /** One in-place call of {@code rows} rows × 4096 inputs (or the whole short row). */
    @Benchmark
    public MemorySegment inPlaceBlock() {
        kernels.linearBackwardInPlace(table, i0, i0 + inputs, rows, gradOut, 0, span, out, 0, inputs, dtype);
        return out;
    }

    @Override
    public String toString() {
        return "InPlaceBlockBenchmark" + Arrays.asList(sizes, dtype, rows);
    }
}
