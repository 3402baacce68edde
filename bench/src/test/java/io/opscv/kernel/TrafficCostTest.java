package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TrafficCostTest {
    /** Every whole group of four vectors of out is written, with what the task read: one task here. */
    @Test
    void writesEveryBlockOfOutWithWhatItRead() {
        try (Arena arena = Arena.ofConfined()) {
            long gBytes = 4096;
            long oBytes = 2048;
            MemorySegment g = arena.allocate(gBytes, 64);
            MemorySegment o = arena.allocate(oBytes, 64);
            g.set(ValueLayout.JAVA_INT, 8, 5);
            o.fill((byte) 0x7f);
            TrafficCost.traffic(g.address(), gBytes, o.address(), oBytes, WorkerPool.shared());
            int lanes = jdk.incubator.vector.IntVector.SPECIES_PREFERRED.length();
            for (long i = 0; i < oBytes / 4; i++) {
                int expected = i % lanes == 2 ? 5 : 0;
                assertEquals(expected, o.getAtIndex(ValueLayout.JAVA_INT, i), "int " + i);
            }
            // Writing only: the sums of nothing.
            o.fill((byte) 0x7f);
            TrafficCost.traffic(g.address(), 0, o.address(), oBytes, WorkerPool.shared());
            for (long i = 0; i < oBytes / 4; i++) {
                assertEquals(0, o.getAtIndex(ValueLayout.JAVA_INT, i), "int " + i);
            }
        }
    }

    @Test
    void timesReadWriteBothOpAndCopy() {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        double[][] medians = TrafficCost.compare(SettingsComparison.benchCase("4,8,4096,8192"), 2, 0,
                new PrintStream(log, true, StandardCharsets.UTF_8));
        assertEquals(5, medians.length);
        for (double[] m : medians) {
            assertEquals(2, m.length);
            for (double v : m) {
                assertTrue(v > 0, "a time");
            }
        }
        assertTrue(log.toString(StandardCharsets.UTF_8).startsWith("round 1:"), log::toString);
        assertThrows(IllegalArgumentException.class, () -> TrafficCost.compare(
                SettingsComparison.benchCase("4,8,4096,8192,t"), 1, 0, new PrintStream(new ByteArrayOutputStream())));
    }
}
