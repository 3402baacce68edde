package io.opscv.bench;

import io.opscv.kernel.WorkerPool;
import io.opscv.perf.BenchmarkCases;
import io.opscv.perf.BenchmarkFixture;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
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
 * The memory floor of a case for a kernel that writes out with ordinary vector stores, as the
 * Vector API's are: {@code storesToOut} only stores out's bytes (no reads, no compute), while
 * {@code copy} is the benchmark's baseline (a copy of (gradOut + out) / 2 bytes), both split into
 * 1 MiB chunks over the shared pool's threads. When {@code storesToOut} alone takes longer than
 * {@code copy}, no kernel built on such stores can reach a ratio of 1 for the case (e.g.
 * down4x, whose out is 4× its gradOut).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
public class StoreBandwidthBenchmark {
    private static final long CHUNK = 1 << 20;
    private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED;

    /** A case of {@link BenchmarkCases}. */
    @Param({"down4x", "up2x"})
    public String caseId;

    /** Threads; 0 = one per available processor. */
    @Param({"0"})
    public int threads;

    private BenchmarkFixture fixture;

    @Setup(Level.Trial)
    public void setUp() {
        WorkerPool.setSharedParallelism(threads > 0 ? threads : Runtime.getRuntime().availableProcessors());
        fixture = new BenchmarkFixture(BenchmarkCases.byId(caseId).orElseThrow());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        fixture.close();
    }

    /** The baseline of {@code opscv bench}: (gradOut + out) / 2 bytes copied ({@link BenchmarkFixture#runCopy}). */
    @Benchmark
    public BenchmarkFixture copy() {
        fixture.runCopy();
        return fixture;
    }

    /** out's bytes written with whole-vector stores, nothing read. */
    @Benchmark
    public MemorySegment storesToOut() {
        MemorySegment out = fixture.outSegment();
        long bytes = out.byteSize();
        int chunks = (int) ((bytes + CHUNK - 1) / CHUNK);
        FloatVector v = FloatVector.broadcast(FLOATS, 0.5f);
        int step = FLOATS.vectorByteSize();
        WorkerPool.shared().forEach(chunks, (chunk, slot) -> {
            long from = chunk * CHUNK;
            long to = Math.min(bytes, from + CHUNK) - step;
            for (long at = from; at <= to; at += step) {
                v.intoMemorySegment(out, at, ByteOrder.nativeOrder());
            }
        });
        return out;
    }

    /**
     * out's bytes written by {@code MemorySegment.copy} from a 16 KiB per-thread buffer (in L1), nothing else
     * read: whether the JDK's copy writes a kernel's results faster than its vector stores do.
     */
    @Benchmark
    public MemorySegment copiesToOut() {
        MemorySegment out = fixture.outSegment();
        long bytes = out.byteSize();
        int chunks = (int) ((bytes + CHUNK - 1) / CHUNK);
        WorkerPool.shared().forEach(chunks, (chunk, slot) -> {
            float[] buffer = BUFFERS.get();
            long from = chunk * CHUNK;
            long to = Math.min(bytes, from + CHUNK);
            for (long at = from; at < to; at += BUFFER_BYTES) {
                int n = (int) Math.min(BUFFER_BYTES, to - at) / 4;
                MemorySegment.copy(buffer, 0, out, ValueLayout.JAVA_FLOAT_UNALIGNED, at, n);
            }
        });
        return out;
    }

    private static final int BUFFER_BYTES = 16 << 10;
    private static final ThreadLocal<float[]> BUFFERS = ThreadLocal.withInitial(() -> new float[BUFFER_BYTES / 4]);
}
