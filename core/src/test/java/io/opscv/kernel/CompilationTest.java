package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.opscv.runtime.DataType;
import io.opscv.runtime.PinnedScopes;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Every kernel method compiles. A method with too many Vector API operations makes C1 give up ("COMPILE
 * SKIPPED: out of virtual registers"); it then stays at tier 2, where the Vector API runs its Java fallback,
 * and never reaches C2: the results stay right, but the form runs about 100 times slower (the parity forms
 * did, on 2026-12-01, until their loops got methods of their own). Runs the vector provider's in-place forms
 * in a JVM of its own with {@code -XX:+PrintCompilation} and fails on any skipped compile of this project's
 * code.
 */
class CompilationTest {
    /** The forms to warm up: {lin, lout, alignCorners, rows, dtype (0 FLOAT, 1 BF16, 2 FP16)}. */
    private static final int[][] FORMS = {
        {16, 64, 0, 64, 0}, {16, 32, 0, 64, 0}, {12, 48, 0, 64, 0}, // short rows: parity split, one or two vectors
        {1000, 3700, 0, 8, 0}, {256, 1024, 0, 8, 0}, {1000, 3990, 0, 8, 0}, {300, 1000, 1, 8, 0}, // wide: parity,
        // exactly 4x, half groups, old form
        {4096, 8192, 0, 4, 0}, {4096, 8190, 1, 4, 0}, {4096, 1024, 0, 4, 0}, {1000, 1499, 0, 6, 0}, // windowed
        {4096, 8192, 0, 4, 1}, {4096, 8192, 0, 4, 2}, {1000, 1600, 1, 4, 1}, {1000, 1600, 1, 4, 2}, // 16-bit
        {1000, 3700, 0, 8, 1}, {1000, 1499, 0, 6, 1}, {1000, 3700, 0, 8, 2}, {1000, 1499, 0, 6, 2}, // 16-bit, wide
        {1000, 4000, 0, 8, 1}, {1000, 4000, 0, 8, 2}, {1000, 3990, 0, 8, 1}, {1000, 3990, 0, 8, 2}, // 16-bit, 4x
        {1000, 8000, 0, 8, 0}, {1000, 8000, 0, 8, 1}, {1000, 8000, 0, 8, 2}, // exactly 8x
        {4096, 1024, 0, 4, 1}, {4096, 1024, 0, 4, 2}}; // 16-bit downsampling (one vector of gradOut)

    /** The child JVM: each form's in-place call, over and over, for {@code args[0]} milliseconds. */
    public static void main(String[] args) {
        KernelProvider vector = KernelProviders.vector();
        long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000L;
        try (Arena arena = Arena.ofShared(); PinnedScopes.Hold hold = PinnedScopes.hold(arena.scope())) {
            List<Runnable> calls = new ArrayList<>();
            for (int[] f : FORMS) {
                LinearTable table = LinearTable.of(f[0], f[1], f[2] != 0, 0);
                DataType type = f[4] == 0 ? DataType.FLOAT : f[4] == 1 ? DataType.BF16 : DataType.FLOAT16;
                if (!vector.backwardInPlace(table, type)) {
                    continue;
                }
                int rows = f[3];
                MemorySegment g = arena.allocate((long) rows * f[1] * type.byteSize(), 64);
                MemorySegment o = arena.allocate((long) rows * f[0] * type.byteSize(), 64);
                calls.add(() -> vector.linearBackwardInPlace(table, 0, f[0], rows, g, 0, f[1], o, 0, f[0], type));
            }
            while (System.nanoTime() < end) {
                for (Runnable call : calls) {
                    call.run();
                }
            }
        }
    }

    @Test
    void everyKernelMethodCompiles() throws IOException, InterruptedException {
        assumeTrue(KernelProviders.vector() != null, "no vector provider");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-XX:+PrintCompilation", "--add-modules", "jdk.incubator.vector",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                CompilationTest.class.getName(), "4000").redirectErrorStream(true).start();
        String log = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child JVM did not end");
        assertEquals(0, child.exitValue(), log);
        List<String> skipped = log.lines().filter(l -> l.contains("io.opscv") && l.contains("COMPILE SKIPPED")
                && !l.contains("concurrent class loading")).toList();
        assertTrue(log.contains("io.opscv.kernel.VectorKernelProvider::"), "no compile of the kernels in the log");
        assertEquals(List.of(), skipped, "kernel methods that did not compile");
    }
}
