package io.opscv.bench;

import io.opscv.kernel.KernelProviders;
import io.opscv.kernel.LinearTable;
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

/** Phase 1's per-call coordinate table ({@link LinearTable#of}), the fixed cost of a call that grows with Lout. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
public class CoordinateTableBenchmark {

    /**
     * Lin:Lout: the long-row case and up2x, whose tables repeat (a window is translated from the previous
     * one: {@link #windowOfOneBlock} measures that), and a long row at 3x, whose table does not (every
     * window is filled).
     */
    @Param({"524288:1048576", "16384:32768", "524288:1572864"})
    public String sizes;

    private LinearTable deferred;
    private LinearTable window;

    @Setup
    public void setUp() {
        String[] parts = sizes.split(":");
        deferred = LinearTable.deferred(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), false, 0);
    }

    /** The whole table, as phase 1 built it for every call before tables were deferred. */
    @Benchmark
    public LinearTable coordinateTable() {
        String[] parts = sizes.split(":");
        return LinearTable.of(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), false, 0);
    }

    /**
     * The window of one block of 4096 inputs (the in-place block), reusing the previous window's arrays: a
     * translation of it on a periodic table, a fill otherwise.
     */
    @Benchmark
    public LinearTable windowOfOneBlock() {
        window = deferred.window(4096, 8192, window, KernelProviders.get());
        return window;
    }
}
