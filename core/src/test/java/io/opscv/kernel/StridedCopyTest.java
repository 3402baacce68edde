package io.opscv.kernel;

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
            View src = View.of(shape, type, random, arena);
            View dst = View.of(shape, type, random, arena);
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
