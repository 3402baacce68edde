package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * Zero fills write zeros over exactly their range, whether {@code memset} takes them (native segments from
 * {@link NativeFill#MIN_BYTES} on; the test JVM enables native access) or {@code fill} does (heap segments,
 * short fills), and leave every other byte as it was; a read-only segment is refused as {@code fill} refuses it
 * (a {@code memset} downcall would write it regardless).
 */
class NativeFillTest {
    private static final byte MARKER = (byte) 0x5a;

    @Test
    void zerosExactlyTheRangeOnNativeAndHeapSegments() {
        assertTrue(NativeFill.available(), "memset is found where native access is enabled");
        long[][] ranges = {{0, 1}, {3, 100}, {1, NativeFill.MIN_BYTES - 1}, {0, NativeFill.MIN_BYTES},
            {7, NativeFill.MIN_BYTES + 9}, {5, 200_003}, {0, 300_000}};
        for (long[] range : ranges) {
            try (Arena arena = Arena.ofShared()) {
                MemorySegment[] segments = {arena.allocate(300_000, 64), MemorySegment.ofArray(new byte[300_000])};
                for (MemorySegment seg : segments) {
                    seg.fill(MARKER);
                    NativeFill.zero(seg, range[0], range[1]);
                    for (long b = 0; b < seg.byteSize(); b++) {
                        byte expected = b >= range[0] && b < range[0] + range[1] ? 0 : MARKER;
                        assertEquals(expected, seg.get(ValueLayout.JAVA_BYTE, b), (seg.isNative() ? "native" : "heap")
                                + " segment, zeros [" + range[0] + ", +" + range[1] + "), byte " + b);
                    }
                }
            }
        }
    }

    @Test
    void readOnlySegmentsAreRefusedAndLeftAsTheyWere() {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment seg = arena.allocate(2 * NativeFill.MIN_BYTES, 64);
            seg.fill(MARKER);
            assertThrows(IllegalArgumentException.class,
                    () -> NativeFill.zero(seg.asReadOnly(), 0, seg.byteSize()));
            for (long b = 0; b < seg.byteSize(); b++) {
                assertEquals(MARKER, seg.get(ValueLayout.JAVA_BYTE, b), "byte " + b);
            }
        }
    }
}
