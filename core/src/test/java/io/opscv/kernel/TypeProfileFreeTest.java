package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.opscv.perf.sweep.SweepCase;
import io.opscv.perf.sweep.SweepDistribution;
import io.opscv.perf.sweep.SweepFixture;
import io.opscv.perf.sweep.SweepOp;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * No kernel boxes a vector when the JIT has no type profile. Run by the surefire executions {@code type-profile-free}
 * ({@code -XX:-UseTypeProfile}), {@code type-profile-free-256} and {@code type-profile-free-128} (the same at 256 and
 * 128 bits); skipped elsewhere. Without the profile, C2 binds a call on a vector only where it knows the vector's exact
 * class ({@link ExactVectors}), so a call site that would box in a process where its profile happened to be missing
 * boxes here in every process. Each sweep case (a small one, of every operator and the shapes, dtypes and layouts the
 * sweep draws) runs until a window of its calls allocates no vector object (JFR's allocation samples, whose class is a
 * {@code jdk.incubator.vector} class): the windows before that may still run code that C2 has not compiled yet. A case
 * whose calls still allocate vectors after {@link #DEADLINE} fails, naming the kernel methods the samples were taken
 * in.
 */
class TypeProfileFreeTest {
    /** How long a case may take to reach a window with no vector allocated. */
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    /** A window of calls: long enough for a boxing call to be sampled many times over. */
    private static final Duration WINDOW = Duration.ofMillis(300);
    /** Cases per operator (plus a quarter as many cache-resident ones), and their traffic: small, fast calls. */
    private static final int COUNT = 12;
    private static final double TRAFFIC_MIB = 0.5;

    private static RecordingStream recording;
    private static final ConcurrentLinkedQueue<Sample> SAMPLES = new ConcurrentLinkedQueue<>();
    private static final AtomicLong FLUSHES = new AtomicLong();

    private record Sample(Instant at, String type, String where) {}

    @BeforeAll
    static void record() {
        if (!typeProfileOff()) {
            return;
        }
        recording = new RecordingStream();
        recording.enable("jdk.ObjectAllocationSample").with("throttle", "1000/s");
        recording.onEvent("jdk.ObjectAllocationSample", TypeProfileFreeTest::sample);
        recording.onFlush(FLUSHES::incrementAndGet);
        recording.startAsync();
    }

    @AfterAll
    static void stop() {
        if (recording != null) {
            recording.close();
        }
    }

    static Stream<SweepCase> cases() {
        return Stream.of(SweepOp.values())
                .flatMap(op -> SweepDistribution.cases(op, SweepDistribution.DEFAULT_SEED, COUNT, TRAFFIC_MIB)
                        .stream());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void callsAllocateNoVector(SweepCase c) throws InterruptedException {
        assumeTrue(typeProfileOff(), "run by the type-profile-free execution (-XX:-UseTypeProfile)");
        assumeTrue(KernelProviders.get().lanes() > 1, "the vector provider");
        // The narrower executions say which width they must have run with.
        String expected = System.getProperty("opscv.expect.kernels");
        if (expected != null) {
            assertEquals(expected, KernelProviders.get().name(),
                    "this execution's -XX:MaxVectorSize did not take effect");
        }
        Instant end = Instant.now().plus(DEADLINE);
        List<Sample> boxed;
        try (SweepFixture f = new SweepFixture(c)) {
            do {
                Instant from = Instant.now();
                for (Instant to = from.plus(WINDOW); Instant.now().isBefore(to); ) {
                    f.runOperator();
                }
                Instant to = Instant.now();
                // The window's samples arrive with the stream's next flushes.
                long flushes = FLUSHES.get();
                while (FLUSHES.get() < flushes + 2) {
                    Thread.sleep(20);
                }
                boxed = new ArrayList<>();
                for (Sample s : SAMPLES) {
                    if (!s.at().isBefore(from) && !s.at().isAfter(to)) {
                        boxed.add(s);
                    }
                }
                SAMPLES.clear();
            } while (!boxed.isEmpty() && Instant.now().isBefore(end));
        }
        List<String> where = boxed.stream().map(s -> s.type() + " in " + s.where()).distinct().limit(8).toList();
        assertTrue(where.isEmpty(), () -> c.name() + " " + c.dtypeLabel() + " still allocates vectors after "
                + DEADLINE.toSeconds() + " s: " + where);
    }

    private static void sample(RecordedEvent e) {
        String type = e.getClass("objectClass").getName();
        if (!type.startsWith("jdk.incubator.vector.")) {
            return;
        }
        String where = "?";
        if (e.getStackTrace() != null) {
            for (RecordedFrame frame : e.getStackTrace().getFrames()) {
                String holder = frame.getMethod().getType().getName();
                if (holder.startsWith("io.opscv.")) {
                    where = holder.substring(holder.lastIndexOf('.') + 1) + "." + frame.getMethod().getName() + ":"
                            + frame.getLineNumber();
                    break;
                }
            }
        }
        SAMPLES.add(new Sample(e.getStartTime(), type, where));
    }

    private static boolean typeProfileOff() {
        HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        return "false".equals(vm.getVMOption("UseTypeProfile").getValue());
    }
}
