package io.opscv.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.op.UpsampleBilinear2d;
import io.opscv.op.UpsampleBilinear2dBackwardV2;
import io.opscv.op.UpsampleLinear1d;
import io.opscv.op.UpsampleLinear1dBackward;
import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.runtime.AclnnException;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Tensor;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Phase 1 stays cheap on every platform (issue 4, and issue 23 item 6 for the NPU products): no
 * allocation proportional to the tensors. The coordinate tables and taps are built by the steps'
 * runs (phase 2), so phase 1 of the longest rows SPEC §5 allows allocates a few kilobytes and an
 * executor kept after it holds as little, where a table built in phase 1 took 14 to 20 MiB.
 */
class PhaseOneCostTest {
    /** Lout = 2^20 and Lin 777,777: the row, on every plan (A2/A3 take the fallback from Lout 10^6). */
    static final long LOUT = 1L << 20;
    static final long LIN = 777_777;

    private static Tensor placeholder(long... shape) {
        return Tensor.placeholder(shape, DataType.FLOAT, shape.length == 4 ? Format.NCHW : Format.ND);
    }

    /** Phase 1 of each operator on {@code platform}, along an axis of 2^20 (placeholders: no tensor memory). */
    static List<Supplier<WorkspaceAndExecutor>> phaseOnes(Platform platform) {
        Tensor longRow = placeholder(1, 2, LOUT);
        Tensor shortRow = placeholder(1, 2, LIN);
        Tensor wide = placeholder(1, 2, 2, LOUT);
        Tensor narrow = placeholder(1, 2, 3, LIN);
        return List.of(
                () -> UpsampleLinear1dBackward.getWorkspaceSize(platform, longRow, IntArray.of(LOUT), IntArray.of(1, 2, LIN),
                        false, 0, shortRow),
                () -> UpsampleLinear1d.getWorkspaceSize(platform, shortRow, IntArray.of(LOUT), false, 0, longRow),
                () -> UpsampleBilinear2dBackwardV2.getWorkspaceSize(platform, wide, IntArray.of(2, LOUT),
                        IntArray.of(1, 2, 3, LIN), false, 0, 0, narrow),
                () -> UpsampleBilinear2d.getWorkspaceSize(platform, narrow, IntArray.of(2, LOUT), false, 0, 0, wide));
    }

    @ParameterizedTest
    @EnumSource(value = Platform.class, names = {"CPU", "ASCEND950", "ASCEND910_93", "ASCEND910B", "ASCEND910"})
    void phaseOneOfTheLongestRowsAllocatesNothingProportionalToThem(Platform platform) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (Supplier<WorkspaceAndExecutor> phase1 : phaseOnes(platform)) {
            // A first call loads and initialises classes; the second is what every later call costs.
            phase1.get();
            long before = threads.getCurrentThreadAllocatedBytes();
            WorkspaceAndExecutor p = phase1.get();
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertTrue(p.executor() != null);
            // A table of this axis is 4·2^20 (x0) + 8·2^20 (w0, w1) + 4·777,777 (bounds) bytes, 15 MiB; taps 16 MiB.
            assertTrue(allocated < 256 * 1024, platform + ": phase 1 allocated " + allocated + " bytes for rows of 2^20 outputs"
                    + " (" + p.executor().steps().stream().map(s -> s.name()).toList() + ")");
        }
    }

    /**
     * The probe, in a JVM of its own with a 160 MiB heap: 40 executors of the 1-D backward at
     * Lout = 2^20 kept on each product, then 40 of each other operator. Each held about 20 MiB, so that 25 to 28
     * of them exhausted a 512 MiB heap (a raw OutOfMemoryError out of phase 1, or 361001).
     */
    @Test
    void fortyKeptExecutorsOfTheLongestRowFitASmallHeapOnEveryProduct() throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xmx160m", "--add-modules", "jdk.incubator.vector",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                PhaseOneCostTest.class.getName()).redirectErrorStream(true).start();
        String log = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(120, TimeUnit.SECONDS), "the child JVM did not end");
        assertEquals(0, child.exitValue(), log);
        assertTrue(log.contains("kept 800 executors"), log);
    }

    /** The child of {@link #fortyKeptExecutorsOfTheLongestRowFitASmallHeapOnEveryProduct}: exit 1 on a status, 3 on an Error. */
    public static void main(String[] args) {
        List<WorkspaceAndExecutor> kept = new ArrayList<>();
        try {
            for (Platform platform : List.of(Platform.CPU, Platform.ASCEND950, Platform.ASCEND910_93, Platform.ASCEND910B,
                    Platform.ASCEND910)) {
                for (Supplier<WorkspaceAndExecutor> phase1 : phaseOnes(platform)) {
                    for (int k = 0; k < 40; k++) {
                        kept.add(phase1.get());
                    }
                }
            }
        } catch (AclnnException e) {
            System.out.println("status after " + kept.size() + " executors: " + e);
            System.exit(1);
        } catch (Error e) {
            System.out.println("error after " + kept.size() + " executors: " + e);
            System.exit(3);
        }
        System.out.println("kept " + kept.size() + " executors");
    }
}
