package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.opscv.runtime.DataType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The strided copy moves exactly the views' elements, bytes unchanged, and nothing else: views of
 * rank 0 to 4 with size-1 dimensions, padded rows, permuted (transposed) and reversed-order strides,
 * rows long enough for bulk copies and short ones, every element size, on one thread and on several
 * (rows cut into tasks), against an element-by-element reference.
 */
class StridedCopyTest {
    private static final byte MARKER = (byte) 0x5a;

    @Test
    void copiesExactlyTheViewsElementsForAnyStridesAndThreads() {
        Random random = new Random(11);
        DataType[] types = {DataType.FLOAT, DataType.FLOAT16, DataType.INT8, DataType.DOUBLE, DataType.COMPLEX128};
        try (WorkerPool one = new WorkerPool(1); WorkerPool three = new WorkerPool(3)) {
            for (int trial = 0; trial < 400; trial++) {
                int rank = random.nextInt(5);
                long[] shape = new long[rank];
                int longRow = random.nextInt(Math.max(1, rank));
                for (int d = 0; d < rank; d++) {
                    int pick = random.nextInt(6);
                    // At most one long dimension (bulk rows), the others short: cases stay small.
                    shape[d] = pick == 0 ? 1 : pick == 1 ? 2 + random.nextInt(3)
                            : 1 + random.nextInt(d == longRow && trial % 3 == 0 ? 400 : 12);
                }
                DataType type = types[trial % types.length];
                check(shape, type, random, trial % 2 == 0 ? one : three, "trial " + trial);
            }
            // Large enough to be cut into many tasks, with rows too short for bulk copies.
            check(new long[] {600, 7, 5}, DataType.FLOAT16, random, three, "many short rows");
            check(new long[] {3, 300, 500}, DataType.FLOAT, random, three, "many long rows");
            // Few very long rows: each cut into pieces that are tasks of their own.
            check(new long[] {2, 200_001}, DataType.FLOAT, random, three, "two very long rows");
            check(new long[] {300_007}, DataType.BF16, random, three, "one very long row");
        }
    }

    /**
     * Channels-last runs into rows and back (the channels side by side on one side, rows of consecutive
     * elements on the other), sorted by blocks: 2 to 300 channels, powers of two and not, positions that fill
     * whole blocks and vectors and tails that do not, 2- and 4-byte elements, rows padded on the row side.
     */
    @Test
    void channelsSideBySideBecomeRowsAndBack() {
        Random random = new Random(29);
        long[] channels = {2, 3, 4, 5, 8, 16, 32, 64, 300};
        // Blocks hold about 8192 elements: the longest rows make several blocks and a tail at every channel count.
        long[] lengths = {1, 31, 32, 100, 5000};
        DataType[] types = {DataType.FLOAT16, DataType.FLOAT, DataType.BF16};
        try (WorkerPool one = new WorkerPool(1); WorkerPool three = new WorkerPool(3)) {
            int trial = 0;
            for (long c : channels) {
                for (long length : lengths) {
                    length = c > 8 ? Math.min(length, 1100) : length;
                    for (boolean unzip : new boolean[] {true, false}) {
                        DataType type = types[trial % types.length];
                        long n = 1 + random.nextInt(3);
                        long pad = random.nextInt(2) * 3;
                        long[] shape = {n, c, length};
                        try (Arena arena = Arena.ofShared()) {
                            MemorySegment side = arena.allocate((n * c * length + 1) * type.byteSize(), 8);
                            MemorySegment rows = arena.allocate((n * c * (length + pad) + 2) * type.byteSize(), 8);
                            StridedTensor sideBySide = new StridedTensor(side, 1, shape, new long[] {c * length, 1, c},
                                    type);
                            StridedTensor asRows = new StridedTensor(rows, 2, shape,
                                    new long[] {c * (length + pad), length + pad, 1}, type);
                            String what = "C " + c + ", L " + length + (unzip ? ", unzip" : ", zip");
                            checkViews(unzip ? sideBySide : asRows, unzip ? asRows : sideBySide, random,
                                    trial % 2 == 0 ? one : three, what);
                        }
                        trial++;
                    }
                }
            }
        }
    }

    /**
     * The vector provider's unzip and zip give the scalar reference's arrays: 1 to 64 ways and multiples of the
     * lanes beyond, whole vectors of positions and tails.
     */
    @Test
    void unzipAndZipMatchTheReference() {
        Random random = new Random(31);
        KernelProvider scalar = KernelProviders.scalar();
        KernelProvider vector = KernelProviders.get();
        int[] many = java.util.stream.IntStream.concat(java.util.stream.IntStream.rangeClosed(1, 64),
                java.util.stream.IntStream.of(96, 128, 256, 320)).toArray();
        for (int ways : many) {
            for (int count : new int[] {1, 16, 32, 64, 96, 37}) {
                int length = ways * count;
                short[] shorts = new short[length];
                int[] ints = new int[length];
                for (int e = 0; e < length; e++) {
                    shorts[e] = (short) random.nextInt();
                    ints[e] = random.nextInt();
                }
                String what = vector.name() + ", " + ways + " ways of " + count;
                assertArrayEquals(scalar.unzip(shorts.clone(), new short[length], ways, count),
                        vector.unzip(shorts.clone(), new short[length], ways, count), what + ", unzip 16 bits");
                assertArrayEquals(scalar.zip(shorts.clone(), new short[length], ways, count),
                        vector.zip(shorts.clone(), new short[length], ways, count), what + ", zip 16 bits");
                assertArrayEquals(scalar.unzip(ints.clone(), new int[length], ways, count),
                        vector.unzip(ints.clone(), new int[length], ways, count), what + ", unzip 32 bits");
                assertArrayEquals(scalar.zip(ints.clone(), new int[length], ways, count),
                        vector.zip(ints.clone(), new int[length], ways, count), what + ", zip 32 bits");
                short[] side = vector.zip(vector.unzip(shorts.clone(), new short[length], ways, count).clone(),
                        new short[length], ways, count);
                assertArrayEquals(shorts, side, what + ", zip of the unzip");
            }
        }
    }

    /** Both providers' row copy: rows of 1 to 64 bytes a pitch apart, every byte moved, nothing else written. */
    @Test
    void rowCopiesMoveEveryByteOfEachRowAndNothingElse() {
        Random random = new Random(5);
        for (KernelProvider provider : new KernelProvider[] {KernelProviders.scalar(), KernelProviders.get()}) {
            for (int bytes = 1; bytes <= 64; bytes++) {
                try (Arena arena = Arena.ofConfined()) {
                    int rows = 7;
                    long fromPitch = bytes + 5;
                    long toPitch = bytes + 3;
                    MemorySegment from = arena.allocate(3 + rows * fromPitch);
                    MemorySegment to = arena.allocate(1 + rows * toPitch + 64);
                    for (long b = 0; b < from.byteSize(); b++) {
                        from.set(ValueLayout.JAVA_BYTE, b, (byte) random.nextInt());
                    }
                    to.fill(MARKER);
                    provider.copyRows(from, 3, fromPitch, to, 1, toPitch, rows, bytes);
                    for (long b = 0; b < to.byteSize(); b++) {
                        long r = (b - 1) / toPitch;
                        long k = (b - 1) % toPitch;
                        byte expected = b >= 1 && r < rows && k < bytes
                                ? from.get(ValueLayout.JAVA_BYTE, 3 + r * fromPitch + k) : MARKER;
                        assertEquals(expected, to.get(ValueLayout.JAVA_BYTE, b),
                                provider.name() + ": rows of " + bytes + " bytes, byte " + b);
                    }
                }
            }
        }
    }

    private static void check(long[] shape, DataType type, Random random, WorkerPool pool, String what) {
        try (Arena arena = Arena.ofShared()) {
            checkViews(View.of(shape, type, random, arena).tensor, View.of(shape, type, random, arena).tensor, random,
                    pool, what);
        }
    }

    /** Copies random bytes from {@code src} to {@code dst} and compares every byte of dst's segment. */
    private static void checkViews(StridedTensor srcView, StridedTensor dstView, Random random, WorkerPool pool,
                                   String what) {
        try (Arena arena = Arena.ofShared()) {
            View src = new View(srcView, srcView.segment());
            View dst = new View(dstView, dstView.segment());
            long[] shape = srcView.shape();
            DataType type = srcView.dataType();
            for (long b = 0; b < src.seg.byteSize(); b++) {
                src.seg.set(ValueLayout.JAVA_BYTE, b, (byte) random.nextInt());
            }
            dst.seg.fill(MARKER);
            MemorySegment expected = arena.allocate(dst.seg.byteSize());
            expected.fill(MARKER);
            long size = type.byteSize();
            long numel = 1;
            for (long n : shape) {
                numel *= n;
            }
            long[] index = new long[shape.length];
            for (long e = 0; e < numel; e++) {
                MemorySegment.copy(src.seg, src.at(index) * size, expected, dst.at(index) * size, size);
                for (int d = shape.length - 1; d >= 0; d--) {
                    if (++index[d] < shape[d]) {
                        break;
                    }
                    index[d] = 0;
                }
            }
            StridedCopy.copy(src.tensor, dst.tensor, pool);
            for (long b = 0; b < dst.seg.byteSize(); b++) {
                assertEquals(expected.get(ValueLayout.JAVA_BYTE, b), dst.seg.get(ValueLayout.JAVA_BYTE, b),
                        what + ": byte " + b + " of " + dst.tensor);
            }
        }
    }

    /** A view with random strides over a segment of its own: dimensions in a random order, rows padded or not. */
    private record View(StridedTensor tensor, MemorySegment seg) {
        static View of(long[] shape, DataType type, Random random, Arena arena) {
            int rank = shape.length;
            Integer[] order = new Integer[rank];
            for (int d = 0; d < rank; d++) {
                order[d] = d;
            }
            // The innermost dimension in memory is usually the last, sometimes another (a transposed view).
            if (rank > 1 && random.nextInt(3) == 0) {
                java.util.Collections.shuffle(java.util.Arrays.asList(order), random);
            }
            long[] strides = new long[rank];
            long step = 1;
            for (int k = rank - 1; k >= 0; k--) {
                int d = order[k];
                strides[d] = step;
                step *= shape[d] + (random.nextInt(4) == 0 ? random.nextInt(3) : 0);
            }
            long offset = random.nextInt(3);
            long elements = offset + Math.max(1, step) + 2;
            MemorySegment seg = arena.allocate(elements * type.byteSize(), 8);
            return new View(new StridedTensor(seg, offset, shape, strides, type), seg);
        }

        long at(long[] index) {
            long e = tensor.offset();
            for (int d = 0; d < index.length; d++) {
                e += index[d] * tensor.strides()[d];
            }
            return e;
        }
    }
}
