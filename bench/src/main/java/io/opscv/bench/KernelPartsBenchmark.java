package io.opscv.bench;

import io.opscv.kernel.KernelProvider;
import io.opscv.kernel.KernelProviders;
import io.opscv.kernel.LinearTable;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The provider's sums for one block (16 rows × 1024 inputs) of a case, measured alone on one
 * thread with the buffers in cache: with {@link CoordinateTableBenchmark}, where the time of
 * {@link Linear1dBackwardBenchmark} goes (docs/PERFORMANCE.md). Divide a block's time by its
 * 16 384 input-rows to get the compute cost per element of out.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
public class KernelPartsBenchmark {
    private static final int ROWS = 16;
    private static final int INPUTS = 1024;

    /** Lin:Lout of the block: 2x (windowed form), 3.7x (16-row tiles), 0.25x (downsampling, tiles). */
    @Param({"16384:32768", "7000:25900", "32768:8192"})
    public String sizes;

    /** {@code vector} (the default provider when the module is present) or {@code scalar}. */
    @Param({"vector", "scalar"})
    public String provider;

    private LinearTable table;
    private KernelProvider kernels;
    private float[] g;
    private float[] acc;
    private float[] work;
    private int span;
    private int i0;

    @Setup
    public void setUp() {
        String[] parts = sizes.split(":");
        int lin = Integer.parseInt(parts[0]);
        int lout = Integer.parseInt(parts[1]);
        table = LinearTable.of(lin, lout, false, 0);
        kernels = provider.equals("scalar") ? KernelProviders.scalar() : KernelProviders.vector();
        i0 = INPUTS;
        span = table.gatherTo(i0 + INPUTS) - table.gatherFrom(i0);
        g = new float[ROWS * span + 64];
        for (int k = 0; k < g.length; k++) {
            g[k] = 0.25f + (k * 37 % 101) / 64f;
        }
        acc = new float[ROWS * INPUTS];
        work = new float[Math.max(1, kernels.backwardWorkFloats(INPUTS, span, ROWS))];
    }

    /** The sums of 16 rows × 1024 inputs, buffers in cache. */
    @Benchmark
    public float[] sumsOfOneBlock() {
        kernels.linearBackward(table, i0, i0 + INPUTS, ROWS, g, 0, span, acc, 0, INPUTS, work);
        return acc;
    }

    @Override
    public String toString() {
        return "KernelPartsBenchmark" + Arrays.asList(sizes, provider);
    }
}
