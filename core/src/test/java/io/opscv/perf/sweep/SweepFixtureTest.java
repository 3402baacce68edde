package io.opscv.perf.sweep;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.kernel.WorkerPool;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every drawn case, scaled down, is accepted by its operator's phase 1 and runs; the runner measures it. */
class SweepFixtureTest {

    private static boolean anyNonZero(MemorySegment s) {
        for (long i = 0; i < s.byteSize(); i++) {
            if (s.get(ValueLayout.JAVA_BYTE, i) != 0) {
                return true;
            }
        }
        return false;
    }

    @Test
    void everyCaseRunsThroughThePublicApi() {
        for (SweepOp op : SweepOp.values()) {
            // 1/64 MiB: the cases' options and shapes' classes as at full size, a few KiB each.
            for (SweepCase k : SweepDistribution.cases(op, SweepDistribution.DEFAULT_SEED, 24, 1.0 / 64)) {
                try (SweepFixture fixture = new SweepFixture(k)) {
                    fixture.runOperator();
                    fixture.runCopy();
                    assertTrue(anyNonZero(fixture.outSegment()), "the operator wrote out: " + k);
                }
            }
        }
    }

    @Test
    void theRunnerGivesOneResultPerCase() {
        WorkerPool.setSharedParallelism(2);
        List<SweepCase> cases = SweepDistribution.cases(SweepOp.BILINEAR2D_BACKWARD, 7, 2, 1.0 / 64);
        List<SweepResult> results = new SweepRunner(2, true, System.err).run(cases);
        assertTrue(results.size() == cases.size());
        for (int i = 0; i < cases.size(); i++) {
            assertTrue(results.get(i).sweepCase().equals(cases.get(i)));
            assertTrue(results.get(i).opMs() > 0 && results.get(i).copyMs() > 0);
        }
    }
}
