package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.opscv.runtime.DataType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The twins of the segment methods ({@link SegmentTwins}): how they read, and their bits. */
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
                        if (SegmentClasses.OFF_HEAP.isInstance(seg)) {
                            return sumOffHeap(seg, at, n);
                        }
                        if (SegmentClasses.FLOAT_ARRAY.isInstance(seg)) {
                            return sumFloatArrays(seg, at, n);
                        }
                        if (SegmentClasses.SHORT_ARRAY.isInstance(seg)) {
                            return sumShortArrays(seg, at, n);
                        }
                        return sumAnyMemory(seg, at, n);
                    }

                    /** {@link #sum} on off-heap memory. */
                    private static int sumOffHeap(MemorySegment seg, long at,
                            int n) {
                        seg = (MemorySegment) SegmentClasses.OFF_HEAP.cast(seg);
                        return seg.get(U16, at) + n;
                    }

                    /** {@link #sum} on float arrays. */
                    private static int sumFloatArrays(MemorySegment seg, long at,
                            int n) {
                        seg = (MemorySegment) SegmentClasses.FLOAT_ARRAY.cast(seg);
                        return seg.get(U16, at) + n;
                    }

                    /** {@link #sum} on short arrays. */
                    private static int sumShortArrays(MemorySegment seg, long at,
                            int n) {
                        seg = (MemorySegment) SegmentClasses.SHORT_ARRAY.cast(seg);
                        return seg.get(U16, at) + n;
                    }

                    /** {@link #sum} on any memory. */
                    private static int sumAnyMemory(MemorySegment seg, long at,
                            int n) {
                        return seg.get(U16, at) + n;
                    }

                    private static void copy(MemorySegment from, MemorySegment to) {
                        if (SegmentClasses.OFF_HEAP.isInstance(from) && SegmentClasses.OFF_HEAP.isInstance(to)) {
                            copyOffHeap(from, to);
                        } else if (SegmentClasses.FLOAT_ARRAY.isInstance(from) && SegmentClasses.FLOAT_ARRAY.isInstance(to)) {
                            copyFloatArrays(from, to);
                        } else if (SegmentClasses.SHORT_ARRAY.isInstance(from) && SegmentClasses.SHORT_ARRAY.isInstance(to)) {
                            copyShortArrays(from, to);
                        } else {
                            copyAnyMemory(from, to);
                        }
                    }

                    /** {@link #copy} on off-heap memory. */
                    private static void copyOffHeap(MemorySegment from, MemorySegment to) {
                        from = (MemorySegment) SegmentClasses.OFF_HEAP.cast(from);
                        to = (MemorySegment) SegmentClasses.OFF_HEAP.cast(to);
                        to.copyFrom(from);
                    }

                    /** {@link #copy} on float arrays. */
                    private static void copyFloatArrays(MemorySegment from, MemorySegment to) {
                        from = (MemorySegment) SegmentClasses.FLOAT_ARRAY.cast(from);
                        to = (MemorySegment) SegmentClasses.FLOAT_ARRAY.cast(to);
                        to.copyFrom(from);
                    }

                    /** {@link #copy} on short arrays. */
                    private static void copyShortArrays(MemorySegment from, MemorySegment to) {
                        from = (MemorySegment) SegmentClasses.SHORT_ARRAY.cast(from);
                        to = (MemorySegment) SegmentClasses.SHORT_ARRAY.cast(to);
                        to.copyFrom(from);
                    }

                    /** {@link #copy} on any memory. */
                    private static void copyAnyMemory(MemorySegment from, MemorySegment to) {
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
    void theClassesAreThoseOfEveryArenasSegmentsAndOfTheArrayForms() {
        try (Arena confined = Arena.ofConfined(); Arena shared = Arena.ofShared()) {
            assertEquals(SegmentClasses.OFF_HEAP, confined.allocate(8).getClass());
            assertEquals(SegmentClasses.OFF_HEAP, shared.allocate(8).getClass());
            assertEquals(SegmentClasses.OFF_HEAP, Arena.global().allocate(8).getClass());
        }
        assertEquals(SegmentClasses.FLOAT_ARRAY, MemorySegment.ofArray(new float[3]).asSlice(4).getClass());
        assertEquals(SegmentClasses.SHORT_ARRAY, MemorySegment.ofArray(new short[3]).asSlice(2).getClass());
    }

    /** Every bit pattern class (normal, subnormal, zero, infinity, NaN) through the codecs' twins. */
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
            float[] fromFloats = new float[n];
            float[] fromOffHeapFloats = new float[n];
            MemorySegment floatsOffHeap = arena.allocate(n * 4L).copyFrom(MemorySegment.ofArray(floats));
            ElementCodec.decode(MemorySegment.ofArray(floats), DataType.FLOAT, 0, 1, n, fromFloats, 0);
            ElementCodec.decode(floatsOffHeap, DataType.FLOAT, 0, 1, n, fromOffHeapFloats, 0);
            assertArrayEquals(fromFloats, fromOffHeapFloats, "FLOAT decode");
            for (DataType type : new DataType[] {DataType.BF16, DataType.FLOAT16}) {
                MemorySegment heap = MemorySegment.ofArray(halfs.clone());
                MemorySegment offHeap = arena.allocate(n * 2L).copyFrom(heap);
                // Bytes on the heap: neither class of the array forms, the twin that does not cast.
                MemorySegment bytes = MemorySegment.ofArray(new byte[n * 2]).copyFrom(heap);
                float[] fromHeap = new float[n + 16];
                float[] fromOffHeap = new float[n + 16];
                float[] fromBytes = new float[n + 16];
                ElementCodec.decode(heap, type, 0, 1, n, fromHeap, 0);
                ElementCodec.decode(offHeap, type, 0, 1, n, fromOffHeap, 0);
                ElementCodec.decode(bytes, type, 0, 1, n, fromBytes, 0);
                assertArrayEquals(fromHeap, fromOffHeap, type + " decode");
                assertArrayEquals(fromHeap, fromBytes, type + " decode from bytes");
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
