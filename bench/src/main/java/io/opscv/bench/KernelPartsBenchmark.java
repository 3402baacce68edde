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
 * The parts of the rows-in-lanes backward for one group of rows and one block of 256 inputs, measured
 * alone on one thread with the buffers in cache: the sums ({@link KernelProvider#sumLanes}) and the
 * transposes in and out. Against {@link Linear1dBackwardBenchmark}, it shows how much of a call is
 * compute and how much is memory.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
public class KernelPartsBenchmark {
    private static final int INPUTS = 256;

    /** Lin:Lout of the block: 2x, 3.7x, 0.25x. */
    @Param({"16384:32768", "7000:25900", "32768:8192"})
    public String sizes;

    /** {@code vector} (the default provider when the module is present) or {@code scalar}. */
    @Param({"vector", "scalar"})
    public String provider;

    private LinearTable table;
    private KernelProvider kernels;
    private float[] rows;
    private float[] lanes;
    private float[] sums;
    private float[] spare;
    private int span;
    private int i0;
    private int jLo;

    @Setup
    public void setUp() {
        String[] parts = sizes.split(":");
        int lin = Integer.parseInt(parts[0]);
        int lout = Integer.parseInt(parts[1]);
        table = LinearTable.of(lin, lout, false, 0);
        kernels = provider.equals("scalar") ? KernelProviders.scalar() : KernelProviders.vector();
        i0 = INPUTS;
        jLo = table.gatherFrom(i0);
        span = table.gatherTo(i0 + INPUTS) - jLo;
        int n = kernels.lanes();
        int stride = (span + n - 1) / n * n;
        rows = new float[n * Math.max(stride, INPUTS) + n];
        for (int k = 0; k < rows.length; k++) {
            rows[k] = 0.25f + (k * 37 % 101) / 64f;
        }
        lanes = new float[(stride + n) * n];
        sums = new float[(INPUTS + n) * n];
        spare = new float[2 * n * n];
    }

    /** The sums of one group of rows over one block of inputs. */
    @Benchmark
    public float[] sumsOfOneBlock() {
        kernels.sumLanes(table, i0, i0 + INPUTS, jLo, jLo + span, lanes, jLo, sums, i0);
        return sums;
    }

    /** The block's gradOut positions transposed into lanes. */
    @Benchmark
    public float[] transposeIn() {
        int n = kernels.lanes();
        kernels.toLanes(rows, 0, (span + n - 1) / n * n, span, lanes, 0, spare);
        return lanes;
    }

    /** The block's sums transposed back into rows. */
    @Benchmark
    public float[] transposeOut() {
        kernels.fromLanes(sums, 0, INPUTS, rows, 0, INPUTS, spare);
        return rows;
    }

    @Override
    public String toString() {
        return "KernelPartsBenchmark" + Arrays.asList(sizes, provider);
    }
}
