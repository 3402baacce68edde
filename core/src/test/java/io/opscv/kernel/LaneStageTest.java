package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.opscv.runtime.DataType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * A stage reads what memory holds at the time of the read's selection: a group of rows end to end that it
 * decodes whole at its first read is dropped at the next selection, so that a buffer rewritten between two
 * selections of the same rows (the 2-D kernels' intermediates) is read anew.
 */
class LaneStageTest {
    @Test
    void readsTheRowsAgainAfterEachSelection() {
        for (KernelProvider provider : new KernelProvider[] {KernelProviders.scalar(), KernelProviders.vector()}) {
            int lanes = provider.lanes();
            int length = 300;
            int chunk = 256;
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment seg = arena.allocate((long) lanes * length * Float.BYTES, 64);
                StridedTensor rows = new StridedTensor(seg, 0, new long[] {1, lanes, length},
                        new long[] {(long) lanes * length, length, 1}, DataType.FLOAT);
                LaneStage stage = new LaneStage(rows, provider, chunk);
                float[] lanesOut = new float[(length + lanes) * lanes];
                for (int round = 0; round < 2; round++) {
                    for (int e = 0; e < lanes * length; e++) {
                        seg.setAtIndex(ValueLayout.JAVA_FLOAT, e, 1000f * round + e);
                    }
                    stage.select(0, lanes, 1, 0);
                    for (int from = 0; from < length; from += chunk) {
                        int count = Math.min(chunk, length - from);
                        stage.read(from, count, lanesOut);
                        for (int k = 0; k < count; k++) {
                            for (int l = 0; l < lanes; l++) {
                                assertEquals(1000f * round + l * length + from + k, lanesOut[k * lanes + l],
                                        provider.name() + " round " + round + " row " + l + " position " + (from + k));
                            }
                        }
                    }
                }
            }
        }
    }
}
