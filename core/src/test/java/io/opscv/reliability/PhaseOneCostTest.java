package io.opscv.reliability;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.op.UpsampleLinear1dBackward;
import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Tensor;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * Issue 4: "Phase 1 must stay cheap (no allocation proportional to the tensor)". The cpu plan defers
 * the coordinate table to phase 2 (LinearTable.deferred): phase 1 of the longest row SPEC §5 allows
 * (Lout = 2^20) allocates a few kilobytes, where a table built in phase 1 would take 14 MiB.
 */
class PhaseOneCostTest {

    @Test
    void phaseOneOfTheLongestRowAllocatesNothingProportionalToIt() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long lout = 1L << 20;
        long lin = 1L << 19;
        Tensor gradOut = Tensor.placeholder(new long[] {1, 2, lout}, DataType.FLOAT, Format.ND);
        Tensor out = Tensor.placeholder(new long[] {1, 2, lin}, DataType.FLOAT, Format.ND);
        IntArray outputSize = IntArray.of(lout);
        IntArray inputSize = IntArray.of(1, 2, lin);
        // A first call loads and initialises classes; the second is what every later call costs.
        UpsampleLinear1dBackward.getWorkspaceSize(gradOut, outputSize, inputSize, false, 0, out);
        long before = threads.getCurrentThreadAllocatedBytes();
        WorkspaceAndExecutor phase1 = UpsampleLinear1dBackward.getWorkspaceSize(gradOut, outputSize, inputSize, false, 0,
                out);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(phase1.executor() != null);
        // The table of this axis would be 4·2^20 (x0) + 8·2^20 (w0, w1) + 4·2^19 (bounds) bytes = 14 MiB.
        assertTrue(allocated < 256 * 1024, "phase 1 allocated " + allocated + " bytes for a row of 2^20 outputs");
    }
}
