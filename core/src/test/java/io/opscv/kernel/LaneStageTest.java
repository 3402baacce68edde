package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.opscv.runtime.DataType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * A stage reads what memory holds at the time of the read's selection: a group of rows end to end that it
 * decodes whole at its first read is dropped at the next selection, so that a buffer rewritten between two
 * selections of the same rows (the 2-D kernels' intermediates) is read anew. Writes of rows announced whole
 * collect until every position is written, zeros included, and a selection that finds them partly written
 * throws rather than drop them.
 */
class LaneStageTest {
    @Test
    void readsTheRowsAgainAfterEachSelection() {
        for (KernelProvider provider : new KernelProvider[] {KernelProviders.scalar(), KernelProviders.vector()}) {
            if (provider == null) {
                continue; // no Vector API in this run
            }
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

    @Test
    void writesRowsAnnouncedWholeOnceEveryPositionIsWritten() {
        KernelProvider provider = KernelProviders.vector();
        assumeTrue(provider != null, "the Vector API provider: rows end to end need several lanes");
        int lanes = provider.lanes();
        int length = 300;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(2L * lanes * length * Float.BYTES, 64);
            StridedTensor rows = new StridedTensor(seg, 0, new long[] {1, 2L * lanes, length},
                    new long[] {2L * lanes * length, length, 1}, DataType.FLOAT);
            LaneStage stage = new LaneStage(rows, provider, 256);
            float[] lanesIn = new float[(length + lanes) * lanes];
            seg.fill((byte) 0x7f);
            for (int group = 0; group < 2; group++) {
                for (int k = 0; k < length; k++) {
                    for (int l = 0; l < lanes; l++) {
                        lanesIn[k * lanes + l] = 1 + group * 100000 + l * 1000 + k;
                    }
                }
                stage.select((long) group * lanes, lanes, 1, 0);
                stage.writesWholeRows();
                // The last stretch first, zeros in the middle of the second group (the first wrote values there).
                float[] tail = java.util.Arrays.copyOfRange(lanesIn, 250 * lanes, (250 + 50 + lanes) * lanes);
                stage.write(250, 50, tail);
                if (group == 0) {
                    stage.write(0, 250, lanesIn);
                } else {
                    stage.write(0, 100, lanesIn);
                    stage.writeZeros(100, 150);
                }
            }
            for (int group = 0; group < 2; group++) {
                for (int l = 0; l < lanes; l++) {
                    for (int k = 0; k < length; k++) {
                        float expected = group == 1 && k >= 100 && k < 250 ? 0f : 1 + group * 100000 + l * 1000 + k;
                        long at = ((long) group * lanes + l) * length + k;
                        assertEquals(expected, seg.getAtIndex(ValueLayout.JAVA_FLOAT, at),
                                "group " + group + " row " + l + " position " + k);
                    }
                }
            }
            stage.select(0, lanes, 1, 0);
            stage.writesWholeRows();
            stage.write(0, 100, lanesIn);
            assertThrows(IllegalStateException.class, () -> stage.select(lanes, lanes, 1, 0));
        }
    }
}
