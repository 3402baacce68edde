package io.opscv.perf.sweep;

import io.opscv.perf.PairedTiming;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import jdk.jfr.Recording;

/**
 * Measures sweep cases one after the other, each in its own fixture: a warm-up until the operator's time
 * is steady (short: the cases share the kernels, so the JIT has mostly compiled them after the first few),
 * then rounds alternating the operator and the copy ({@link PairedTiming}), medians of each. Each case's progress
 * line also gives the bytes one more call allocates, all threads together: a call allocates its scratch, a few MB at
 * most, so hundreds of MB mean vectors boxed in that process (docs/KERNELS.md, "JIT state").
 */
public final class SweepRunner {
    private final int threads;
    private final boolean quick;
    private final PrintStream progress;

    /**
     * @param threads  the kernel threads the caller set for the shared pool (reported in the results)
     * @param quick    one warm-up call and three rounds per case (a smoke test; medians are noise)
     * @param progress where a line per case goes
     */
    public SweepRunner(int threads, boolean quick, PrintStream progress) {
        this.threads = threads;
        this.quick = quick;
        this.progress = progress;
    }

    /**
     * The least warm-up, as long as the fixed cases': on a 2-core machine C2 compiles a case's new paths on the cores
     * the kernel runs on, and after 0.4 s cells still ran 1.1-1.7 x slower than after 2 s (the 1-D backward's
     * (15, 2, 591175 <- 1045925) FP16 36.9 against 25.8 ms, (606644, 4, 4 <- 15) FP16 32.8 against 19.7).
     */
    private static final long WARMUP_NANOS = 2_000_000_000L;

    /** Bytes a call allocates beyond which its progress line flags it. */
    private static final long BOXED_BYTES = 16L << 20;

    /** A folder for a JFR recording of each flagged case ({@link #recordBoxed}), from {@code -Dopscv.sweep.boxedJfr}. */
    private static final String BOXED_JFR = System.getProperty("opscv.sweep.boxedJfr");

    /**
     * Warm-up in slices of a quarter of {@link #WARMUP_NANOS} (a call at least) until it has passed and the last slice
     * is no longer 10 % faster than the best (at most 5 × as long); then 7 rounds.
     */
    public List<SweepResult> run(List<SweepCase> cases) {
        List<SweepResult> results = new ArrayList<>(cases.size());
        int index = 0;
        for (SweepCase k : cases) {
            index++;
            try (SweepFixture fixture = new SweepFixture(k)) {
                PairedTiming.warmUntilSteady(fixture::runOperator, fixture::runCopy, 1,
                        quick ? 0 : WARMUP_NANOS);
                PairedTiming.Medians m = PairedTiming.alternate(fixture::runOperator, fixture::runCopy, quick ? 3 : 7,
                        () -> { });
                long before = allocatedBytes();
                fixture.runOperator();
                long allocated = allocatedBytes() - before;
                SweepResult r = new SweepResult(k, threads, m.opNanos() / 1e6, m.copyNanos() / 1e6);
                progress.println(String.format(Locale.ROOT, "opscv bench: [%d/%d] %s %s %s %s -> %s %s: op %.4f ms, "
                        + "copy %.4f ms, ratio %.2f%s", index, cases.size(), k.op().label(), k.name(), k.dtypeLabel(),
                        k.inShape(), k.outShape(), k.layout().label(), r.opMs(), r.copyMs(), r.ratio(),
                        before < 0 ? "" : String.format(Locale.ROOT, ", allocated %.1f MB a call%s", allocated / 1e6,
                                allocated > BOXED_BYTES ? " (boxed vectors?)" : "")));
                results.add(r);
                if (BOXED_JFR != null && allocated > BOXED_BYTES) {
                    recordBoxed(fixture, Path.of(BOXED_JFR, "cell" + index + ".jfr"));
                }
            }
        }
        return results;
    }

    /**
     * Five more calls of a case that allocated like boxed vectors, under a JFR recording of allocation samples with
     * their stacks (and execution samples), written to {@code file}: which method boxes, in the process where it does
     * (a recording for the whole sweep changes the processes' compilations and boxed none in two sweeps where plain
     * ones did). Read it with {@code jfr print --events jdk.ObjectAllocationSample --stack-depth 12 FILE}.
     */
    private static void recordBoxed(SweepFixture fixture, Path file) {
        try (Recording recording = new Recording()) {
            recording.enable("jdk.ObjectAllocationSample").with("throttle", "2000/s").withStackTrace();
            recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(2));
            recording.start();
            for (int i = 0; i < 5; i++) {
                fixture.runOperator();
            }
            recording.stop();
            recording.dump(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Bytes allocated so far by all live threads (the kernels' workers too), or -1 where the JVM does not count. */
    private static long allocatedBytes() {
        return ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t
                && t.isThreadAllocatedMemoryEnabled() ? t.getTotalThreadAllocatedBytes() : -1;
    }
}
