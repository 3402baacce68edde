package io.opscv.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Element-by-element copy between two views of the same shape and dtype, any strides (the l0
 * {@code ViewCopy} and {@code Contiguous} steps, and the identity case Lin = Lout). Bytes are
 * moved unchanged, so NaN payloads and ±Inf survive.
 *
 * <p>Dimensions that are contiguous in both views are merged first, so that a view of padded rows
 * copies whole rows and a contiguous pair is one bulk copy. Rows stored side by side in one view and as
 * rows in the other (channels-last into contiguous, or back) go by blocks sorted in L1. The rows left are
 * cut into tasks over the worker pool: rows of consecutive elements are bulk copies, or eight bytes at a
 * time where they are short, strided ones typed loads and stores.
 */
public final class StridedCopy {
    /** Elements a task should cover at least. */
    private static final long TASK_ELEMENTS = 1 << 16;
    /**
     * The longest rows of consecutive elements copied by typed loads and stores rather than a copy call,
     * whose fixed cost is several times a few such accesses.
     */
    private static final long SHORT_ROW_BYTES = 64;
    /** Elements a strided row's loop takes on one int index. */
    private static final int PIECE = 4096;
    /** Below this many elements a copy runs on its caller. */
    private static final long PARALLEL_ELEMENTS = 1 << 18;
    /** Elements of a block of rows stored side by side, sorted in L1. */
    private static final int BLOCK_ELEMENTS = 8192;
    /** The most rows side by side sorted by blocks. */
    private static final int MAX_WAYS = 1024;

    private StridedCopy() {}

    public static void copy(StridedTensor src, StridedTensor dst) {
        copy(src, dst, WorkerPool.shared());
    }

    /** Copies {@code src} into {@code dst}, spreading the rows over {@code pool}. */
    public static void copy(StridedTensor src, StridedTensor dst, WorkerPool pool) {
        int rank = src.dim();
        if (rank != dst.dim() || src.dataType() != dst.dataType()) {
            throw new IllegalArgumentException("copy between " + src + " and " + dst);
        }
        for (int d = 0; d < rank; d++) {
            if (src.shape()[d] != dst.shape()[d]) {
                throw new IllegalArgumentException("copy between " + src + " and " + dst);
            }
        }
        if (src.numel() == 0) {
            return;
        }
        Rows rows = new Rows(src, dst);
        long elements = rows.count * rows.inner;
        if (rows.ways() > 0) {
            rows.interleaved(pool, elements < PARALLEL_ELEMENTS || pool.parallelism() == 1);
            return;
        }
        if (rows.count < 2L * pool.parallelism() && rows.bulk() && elements >= PARALLEL_ELEMENTS) {
            // Few long rows of consecutive elements (a contiguous tensor is one): pieces of rows as tasks.
            int pieces = (int) Math.min(4L * pool.parallelism(), rows.inner / TASK_ELEMENTS + 1);
            pool.forEach(Math.toIntExact(rows.count * pieces), (task, slot) -> rows.piece(task / pieces, task % pieces,
                    pieces));
            return;
        }
        long perTask = Math.max(1, TASK_ELEMENTS / rows.inner);
        long tasks = (rows.count + perTask - 1) / perTask;
        if (elements < PARALLEL_ELEMENTS || tasks < 2 || pool.parallelism() == 1) {
            rows.copy(0, rows.count);
            return;
        }
        long per = Math.max(perTask, (rows.count + Integer.MAX_VALUE - 1) / Integer.MAX_VALUE);
        int count = Math.toIntExact((rows.count + per - 1) / per);
        pool.forEach(count, (task, slot) -> rows.copy(task * per, Math.min(rows.count, (task + 1) * per)));
    }

    /** The copy as rows: the merged dimensions but the last, each row {@code inner} elements. */
    private static final class Rows {
        final MemorySegment from;
        final MemorySegment to;
        final long size;
        final long[] shape;
        final long[] fromStrides;
        final long[] toStrides;
        final long fromOffset;
        final long toOffset;
        final long inner;
        final long fromStep;
        final long toStep;
        final long count;
        /** Short rows of consecutive elements longer than a long go through its row copy (a masked vector each). */
        final KernelProvider provider = KernelProviders.get();

        Rows(StridedTensor src, StridedTensor dst) {
            int rank = src.dim();
            long[] n = new long[Math.max(1, rank)];
            long[] s = new long[n.length];
            long[] t = new long[n.length];
            int dims = 0;
            for (int d = 0; d < rank; d++) {
                long extent = src.shape()[d];
                if (extent == 1) {
                    continue;
                }
                long ss = src.strides()[d];
                long ds = dst.strides()[d];
                // Merge into the previous dimension where both views step over it by exactly its extent.
                if (dims > 0 && s[dims - 1] == ss * extent && t[dims - 1] == ds * extent) {
                    n[dims - 1] *= extent;
                    s[dims - 1] = ss;
                    t[dims - 1] = ds;
                    continue;
                }
                n[dims] = extent;
                s[dims] = ss;
                t[dims] = ds;
                dims++;
            }
            if (dims == 0) {
                n[0] = 1;
                s[0] = 1;
                t[0] = 1;
                dims = 1;
            }
            from = src.segment();
            to = dst.segment();
            size = src.dataType().byteSize();
            fromOffset = src.offset();
            toOffset = dst.offset();
            inner = n[dims - 1];
            fromStep = s[dims - 1];
            toStep = t[dims - 1];
            shape = java.util.Arrays.copyOf(n, dims - 1);
            fromStrides = java.util.Arrays.copyOf(s, dims - 1);
            toStrides = java.util.Arrays.copyOf(t, dims - 1);
            long rows = 1;
            for (long extent : shape) {
                rows *= extent;
            }
            count = rows;
        }

        boolean bulk() {
            return fromStep == 1 && toStep == 1;
        }

        /**
         * The rows of the last outer dimension where one view stores them side by side (its stride 1, the rows'
         * element stride their count: the channels of a dense channels-last run) and the other as rows of
         * consecutive elements, for 2- and 4-byte elements: their count (the ways); else 0.
         */
        int ways() {
            int p = shape.length - 1;
            if (p < 0 || (size != Short.BYTES && size != Integer.BYTES) || shape[p] < 2 || shape[p] > MAX_WAYS) {
                return 0;
            }
            long w = shape[p];
            boolean unzip = toStep == 1 && fromStrides[p] == 1 && fromStep == w;
            boolean zip = fromStep == 1 && toStrides[p] == 1 && toStep == w;
            return unzip || zip ? (int) w : 0;
        }

        /**
         * The copy by blocks of positions of the {@link #ways} rows: each block read in one run (or a run per row),
         * sorted in L1 by the provider's {@code unzip} or {@code zip}, and written a run per row (or in one run),
         * where element-by-element strided accesses would cost several times the bytes moved.
         */
        void interleaved(WorkerPool pool, boolean inline) {
            int p = shape.length - 1;
            int ways = (int) shape[p];
            // Whole vectors of either element size at every width: blocks of a multiple of 32 positions.
            int positions = (int) Math.min(inner, Math.max(32, BLOCK_ELEMENTS / ways / 32 * 32));
            long blocks = (inner + positions - 1) / positions;
            long planes = count / ways;
            long units = planes * blocks;
            long perTask = Math.max(1, TASK_ELEMENTS / ((long) positions * ways));
            long per = Math.max(perTask, (units + Integer.MAX_VALUE - 1) / Integer.MAX_VALUE);
            int tasks = Math.toIntExact((units + per - 1) / per);
            int length = positions * ways;
            java.util.function.Function<Buffers, Object[]> scratch = size == Short.BYTES
                    ? b -> new Object[] {new short[length], new short[length]}
                    : b -> new Object[] {new int[length], new int[length]};
            pool.forEach(tasks, inline, scratch, (task, arrays) -> {
                for (long u = task * per; u < Math.min(units, (task + 1) * per); u++) {
                    block(u / blocks, u % blocks * positions, positions, ways, arrays);
                }
            });
        }

        /** Positions {@code [k0, k0 + count)} (or to the end) of the ways rows of plane {@code plane}. */
        private void block(long plane, long k0, int count, int ways, Object[] arrays) {
            int p = shape.length - 1;
            long a = fromOffset;
            long b = toOffset;
            long rest = plane;
            for (int d = p - 1; d >= 0; d--) {
                a += rest % shape[d] * fromStrides[d];
                b += rest % shape[d] * toStrides[d];
                rest /= shape[d];
            }
            int n = (int) Math.min(count, inner - k0);
            ValueLayout layout = size == Short.BYTES ? ValueLayout.JAVA_SHORT_UNALIGNED
                    : ValueLayout.JAVA_INT_UNALIGNED;
            if (toStep == 1) {
                MemorySegment.copy(from, layout, (a + k0 * ways) * size, arrays[0], 0, n * ways);
                Object rows = arrays[0] instanceof short[] s ? provider.unzip(s, (short[]) arrays[1], ways, n)
                        : provider.unzip((int[]) arrays[0], (int[]) arrays[1], ways, n);
                for (int r = 0; r < ways; r++) {
                    MemorySegment.copy(rows, r * n, to, layout, (b + r * toStrides[p] + k0) * size, n);
                }
            } else {
                for (int r = 0; r < ways; r++) {
                    MemorySegment.copy(from, layout, (a + r * fromStrides[p] + k0) * size, arrays[0], r * n, n);
                }
                Object side = arrays[0] instanceof short[] s ? provider.zip(s, (short[]) arrays[1], ways, n)
                        : provider.zip((int[]) arrays[0], (int[]) arrays[1], ways, n);
                MemorySegment.copy(side, 0, to, layout, (b + k0 * ways) * size, n * ways);
            }
        }

        /** Copies piece {@code k} of {@code pieces} of row {@code row}, a row of consecutive elements. */
        void piece(long row, int k, int pieces) {
            long a = fromOffset;
            long b = toOffset;
            long rest = row;
            for (int d = shape.length - 1; d >= 0; d--) {
                a += rest % shape[d] * fromStrides[d];
                b += rest % shape[d] * toStrides[d];
                rest /= shape[d];
            }
            long start = inner * k / pieces;
            long end = inner * (k + 1) / pieces;
            MemorySegment.copy(from, (a + start) * size, to, (b + start) * size, (end - start) * size);
        }

        /** Copies rows {@code [first, end)} (row-major order over {@link #shape}). */
        void copy(long first, long end) {
            int outer = shape.length;
            if (outer == 0) {
                row(fromOffset, toOffset);
                return;
            }
            long[] index = new long[outer];
            long rest = first;
            for (int d = outer - 1; d >= 0; d--) {
                index[d] = rest % shape[d];
                rest /= shape[d];
            }
            int last = outer - 1;
            for (long r = first; r < end; ) {
                long a = fromOffset;
                long b = toOffset;
                for (int d = 0; d < outer; d++) {
                    a += index[d] * fromStrides[d];
                    b += index[d] * toStrides[d];
                }
                // The rows along the last outer dimension step evenly: no index arithmetic per row.
                long run = Math.min(end - r, shape[last] - index[last]);
                if (bulk() && inner * size <= Long.BYTES) {
                    typedRows(from, a * size, fromStrides[last] * size, to, b * size, toStrides[last] * size, run,
                            (int) (inner * size));
                } else if (bulk() && inner * size <= SHORT_ROW_BYTES) {
                    provider.copyRows(from, a * size, fromStrides[last] * size, to, b * size, toStrides[last] * size,
                            run, (int) (inner * size));
                } else {
                    for (long q = 0; q < run; q++) {
                        row(a + q * fromStrides[last], b + q * toStrides[last]);
                    }
                }
                r += run;
                index[last] += run;
                for (int d = last; d > 0 && index[d] == shape[d]; d--) {
                    index[d] = 0;
                    index[d - 1]++;
                }
            }
        }

        /** One row from element {@code a} of the source to element {@code b} of the destination. */
        private void row(long a, long b) {
            if (!bulk()) {
                elements(a, b);
            } else {
                MemorySegment.copy(from, a * size, to, b * size, inner * size);
            }
        }

        /**
         * One row by typed loads and stores, in pieces of {@link #PIECE} elements on an int index: the JIT compiles
         * a long-indexed loop of segment accesses less well.
         */
        private void elements(long a, long b) {
            final MemorySegment src = from;
            final MemorySegment dst = to;
            final long bytes = size;
            final long fs = fromStep * bytes;
            final long ts = toStep * bytes;
            for (long k0 = 0; k0 < inner; k0 += PIECE) {
                int m = (int) Math.min(PIECE, inner - k0);
                long f = (a + k0 * fromStep) * bytes;
                long t = (b + k0 * toStep) * bytes;
                switch ((int) bytes) {
                    case 2 -> {
                        for (int i = 0; i < m; i++) {
                            dst.set(ValueLayout.JAVA_SHORT_UNALIGNED, t + i * ts,
                                    src.get(ValueLayout.JAVA_SHORT_UNALIGNED, f + i * fs));
                        }
                    }
                    case 4 -> {
                        for (int i = 0; i < m; i++) {
                            dst.set(ValueLayout.JAVA_INT_UNALIGNED, t + i * ts,
                                    src.get(ValueLayout.JAVA_INT_UNALIGNED, f + i * fs));
                        }
                    }
                    case 8 -> {
                        for (int i = 0; i < m; i++) {
                            dst.set(ValueLayout.JAVA_LONG_UNALIGNED, t + i * ts,
                                    src.get(ValueLayout.JAVA_LONG_UNALIGNED, f + i * fs));
                        }
                    }
                    default -> {
                        for (int i = 0; i < m; i++) {
                            MemorySegment.copy(src, f + i * fs, dst, t + i * ts, bytes);
                        }
                    }
                }
            }
        }
    }

    /**
     * Rows of {@code bytes} bytes a pitch apart by typed accesses, eight bytes at a time and then the rest (the
     * scalar {@link KernelProvider#copyRows}; rows of one long for every provider, where a masked vector was
     * 1.25 x slower). A copy call per row of a few bytes costs several such accesses.
     */
    static void typedRows(MemorySegment from, long fromAt, long fromPitch, MemorySegment to, long toAt, long toPitch,
                          long rows, int bytes) {
        for (long r = 0; r < rows; r++) {
            long a = fromAt + r * fromPitch;
            long b = toAt + r * toPitch;
            int k = 0;
            for (; k + 8 <= bytes; k += 8) {
                to.set(ValueLayout.JAVA_LONG_UNALIGNED, b + k, from.get(ValueLayout.JAVA_LONG_UNALIGNED, a + k));
            }
            if (k + 4 <= bytes) {
                to.set(ValueLayout.JAVA_INT_UNALIGNED, b + k, from.get(ValueLayout.JAVA_INT_UNALIGNED, a + k));
                k += 4;
            }
            if (k + 2 <= bytes) {
                to.set(ValueLayout.JAVA_SHORT_UNALIGNED, b + k, from.get(ValueLayout.JAVA_SHORT_UNALIGNED, a + k));
                k += 2;
            }
            if (k < bytes) {
                to.set(ValueLayout.JAVA_BYTE, b + k, from.get(ValueLayout.JAVA_BYTE, a + k));
            }
        }
    }
}
