package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.opscv.runtime.DataType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The off-heap and on-heap twins of the segment methods ({@link SegmentTwins}): how they read, and their bits. */
class SegmentTwinsTest {
    @Test
    void methodsTakingSegmentsDispatchToTwinsAndOthersStayAsWritten() {
        String source = """
                final class A {
                    /** Doc. */
                    static int sum(MemorySegment seg, long at,
                            int n) {
                        return seg.get(U16, at) + n;
                    }

                    private static void copy(MemorySegment from, MemorySegment to) {
                        to.copyFrom(from);
                    }

                    static int plain(int x) {
                        return x;
                    }
                }
                """;
        String expected = """
                final class A {
                    /** Doc. */
                    static int sum(MemorySegment seg, long at,
                            int n) {
                        if (OffHeap.SEGMENT.isInstance(seg)) {
                            return sumOffHeap(seg, at, n);
                        }
                        return sumOnHeap(seg, at, n);
                    }

                    /** {@link #sum} on off-heap memory. */
                    private static int sumOffHeap(MemorySegment seg, long at,
                            int n) {
                        seg = (MemorySegment) OffHeap.SEGMENT.cast(seg);
                        return seg.get(U16, at) + n;
                    }

                    /** {@link #sum} on heap memory. */
                    private static int sumOnHeap(MemorySegment seg, long at,
                            int n) {
                        return seg.get(U16, at) + n;
                    }

                    private static void copy(MemorySegment from, MemorySegment to) {
                        if (OffHeap.SEGMENT.isInstance(from) && OffHeap.SEGMENT.isInstance(to)) {
                            copyOffHeap(from, to);
                        } else {
                            copyOnHeap(from, to);
                        }
                    }

                    /** {@link #copy} on off-heap memory. */
                    private static void copyOffHeap(MemorySegment from, MemorySegment to) {
                        from = (MemorySegment) OffHeap.SEGMENT.cast(from);
                        to = (MemorySegment) OffHeap.SEGMENT.cast(to);
                        to.copyFrom(from);
                    }

                    /** {@link #copy} on heap memory. */
                    private static void copyOnHeap(MemorySegment from, MemorySegment to) {
                        to.copyFrom(from);
                    }

                    static int plain(int x) {
                        return x;
                    }
                }
                """;
        assertEquals(expected, SegmentTwins.apply(source));
    }

    @Test
    void offHeapClassIsThatOfEveryArenasSegments() {
        try (Arena confined = Arena.ofConfined(); Arena shared = Arena.ofShared()) {
            assertEquals(OffHeap.SEGMENT, confined.allocate(8).getClass());
            assertEquals(OffHeap.SEGMENT, shared.allocate(8).getClass());
            assertEquals(OffHeap.SEGMENT, Arena.global().allocate(8).getClass());
        }
    }

    /** Every bit pattern class (normal, subnormal, zero, infinity, NaN) through both twins of the codecs. */
    @Test
    void heapAndOffHeapSegmentsGiveTheSameBits() {
        SplittableRandom random = new SplittableRandom(7);
        int n = 16 * 37 + 5;
        short[] halfs = new short[n];
        for (int i = 0; i < n; i++) {
            halfs[i] = (short) random.nextInt(1 << 16);
        }
        float[] floats = new float[n];
        for (int i = 0; i < n; i++) {
            floats[i] = Float.intBitsToFloat(random.nextInt());
        }
        try (Arena arena = Arena.ofConfined()) {
            for (DataType type : new DataType[] {DataType.BF16, DataType.FLOAT16}) {
                MemorySegment heap = MemorySegment.ofArray(halfs.clone());
                MemorySegment offHeap = arena.allocate(n * 2L).copyFrom(heap);
                float[] fromHeap = new float[n + 16];
                float[] fromOffHeap = new float[n + 16];
                ElementCodec.decode(heap, type, 0, 1, n, fromHeap, 0);
                ElementCodec.decode(offHeap, type, 0, 1, n, fromOffHeap, 0);
                assertArrayEquals(fromHeap, fromOffHeap, type + " decode");
                int vectors = n / 16;
                if (type == DataType.BF16) {
                    VectorCodec.widenBf16(heap, 0, 16, vectors, 16, fromHeap, 0);
                    VectorCodec.widenBf16(offHeap, 0, 16, vectors, 16, fromOffHeap, 0);
                } else {
                    VectorCodec.widenFp16(heap, 0, 16, vectors, 16, fromHeap, 0);
                    VectorCodec.widenFp16(offHeap, 0, 16, vectors, 16, fromOffHeap, 0);
                }
                assertArrayEquals(fromHeap, fromOffHeap, type + " widen");

                MemorySegment heapOut = MemorySegment.ofArray(new short[n]);
                MemorySegment offHeapOut = arena.allocate(n * 2L);
                ElementCodec.encode(floats, 0, n, heapOut, type, 0, 1);
                ElementCodec.encode(floats, 0, n, offHeapOut, type, 0, 1);
                assertArrayEquals(heapOut.toArray(ValueLayout.JAVA_SHORT), offHeapOut.toArray(ValueLayout.JAVA_SHORT),
                        type + " encode");
            }
        }
    }
}
