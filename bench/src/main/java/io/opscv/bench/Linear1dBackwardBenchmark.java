package io.opscv.bench;

import io.opscv.kernel.WorkerPool;
import io.opscv.perf.BenchmarkCase;
import io.opscv.perf.BenchmarkCases;
import io.opscv.perf.BenchmarkFixture;
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
 * {@code aclnnUpsampleLinear1dBackward} on issue 4's cases ({@link BenchmarkCases}, the same ones
 * {@code opscv bench} runs), and the copy baseline as its own benchmark: {@code copy} copies
 * (gradOut bytes + out bytes) / 2 bytes with the same threads, so the ratio {@code operator / copy}
 * of one case compares the operator with the memory traffic it cannot avoid.
 *
 * <p>Run: {@code java -cp 'bench/target/classes:bench/target/lib/*' org.openjdk.jmh.Main -p threads=2}
 * (see {@code docs/KERNELS.md}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
public class Linear1dBackwardBenchmark {

    /** A {@link BenchmarkCases#byId} id. */
    @Param({"up2x", "up2x_ac", "down4x", "up3.7x", "long_row", "short_rows", "up2x:fp16", "up2x:bf16",
        "up2x_transposed", "tiny_call"})
    public String caseId;

    /** Kernel threads; 0 = one per available processor. */
    @Param({"0"})
    public int threads;

    private BenchmarkFixture fixture;

    @Setup(Level.Trial)
    public void setUp() {
        WorkerPool.setSharedParallelism(threads > 0 ? threads : Runtime.getRuntime().availableProcessors());
        BenchmarkCase benchCase = BenchmarkCases.byId(caseId)
                .orElseThrow(() -> new IllegalArgumentException("no benchmark case " + caseId));
        fixture = new BenchmarkFixture(benchCase);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        fixture.close();
    }

    /** One whole call: phase 1, phase 2, synchronize. */
    @Benchmark
    public void operator() {
        fixture.runOperator();
    }

    /** The baseline: a copy of as many bytes as the operator reads and writes. */
    @Benchmark
    public void copy() {
        fixture.runCopy();
    }
}
