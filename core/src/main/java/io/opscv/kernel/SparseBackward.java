package io.opscv.kernel;

import io.opscv.runtime.DataType;
import java.lang.foreign.MemorySegment;

/**
 * The 1-D backward of a strong downsampling: out is zeros but for the two taps of each gradOut position,
 * so it is written as a fill with each position's two sums stored into it. Rows in lanes would stage every
 * block of out (a fill where a block has no position, a block's sums and transposes where it has one); here
 * out is written at the speed of a fill, and gradOut is read once, element by element.
 *
 * <p>It applies where every input receives the terms of one position at most (each position's left tap lies
 * past the previous one's right tap), so that each sum is {@code 0 + w0·g} or {@code 0 + w1·g}, and at a
 * last input that is both taps {@code (0 + w0·g) + w1·g}: the reference's sums in its order, rounded once,
 * so the bits are the reference's. Fills go ahead of the taps a chunk at a time, so that a tap finds its
 * line in cache; rows end to end in out are one stretch; native memory is filled by {@link NativeFill}
 * ({@code memset} writes whole lines without reading them). Tasks are ranges of rows.
 */
final class SparseBackward {
    /** Inputs per position from which the backward is written as a fill and its taps. */
    static final int MIN_RATIO = 32;
    /** Elements of out a task covers at least. */
    private static final long TASK_ELEMENTS = 1 << 15;
    /**
     * Bytes a fill writes ahead of the taps at most, so that the taps find their lines in cache. A fill, not
     * a copy from a block of zeros: the copy reads its source as it writes (10-30 % slower here).
     */
    private static final long FILL_BYTES = 1 << 16;

    private SparseBackward() {}

    /**
     * Whether {@code t} downsamples by {@link #MIN_RATIO} or more with no input reached by two positions, into
     * rows of out of stride 1.
     */
    static boolean applies(LinearTable t, StridedTensor out) {
        if (out.strides()[2] != 1 || t.lin() < (long) MIN_RATIO * t.lout()) {
            return false;
        }
        for (int j = 0; j + 1 < t.lout(); j++) {
            if (t.x0[j + 1] <= t.x1(j)) {
                return false;
            }
        }
        return true;
    }

    static void run(StridedTensor gradOut, StridedTensor out, LinearTable t, WorkerPool pool) {
        long channels = out.shape()[1];
        long rows = out.shape()[0] * channels;
        int lin = t.lin();
        if (rows == 0) {
            return;
        }
        long[] so = out.strides();
        // Rows end to end in out: a task's rows are one stretch of it, filled across the rows' ends.
        boolean endToEnd = so[1] == lin && (out.shape()[0] == 1 || so[0] == channels * lin);
        long rowsPerTask = Math.max(1, TASK_ELEMENTS / (lin + (long) t.lout()));
        int tasks = Math.toIntExact((rows + rowsPerTask - 1) / rowsPerTask);
        WorkerPool.Task body = (task, slot) -> {
            long r0 = task * rowsPerTask;
            rows(gradOut, out, t, r0, Math.min(rows, r0 + rowsPerTask), endToEnd);
        };
        if (tasks == 1 || pool.parallelism() == 1) {
            for (int task = 0; task < tasks; task++) {
                body.run(task, 0);
            }
        } else {
            pool.forEach(tasks, body);
        }
    }

    private static void rows(StridedTensor gradOut, StridedTensor out, LinearTable t, long r0, long r1,
                             boolean endToEnd) {
        final int[] x0 = t.x0;
        final float[] w0 = t.w0;
        final float[] w1 = t.w1;
        final int lin = t.lin();
        final int lout = t.lout();
        final long channels = out.shape()[1];
        final long[] sg = gradOut.strides();
        final long[] so = out.strides();
        final MemorySegment gSeg = gradOut.segment();
        final DataType gType = gradOut.dataType();
        final MemorySegment oSeg = out.segment();
        final DataType oType = out.dataType();
        final long size = oType.byteSize();
        long filled = -1;
        long end = -1;
        for (long r = r0; r < r1; r++) {
            long n = r / channels;
            long c = r % channels;
            long g = gradOut.offset() + n * sg[0] + c * sg[1];
            long o = out.offset() + n * so[0] + c * so[1];
            if (!endToEnd || r == r0) {
                filled = o;
                end = endToEnd ? o + (r1 - r0) * lin : o + lin;
            }
            for (int j = 0; j < lout; j++) {
                int left = x0[j];
                int right = left < lin - 1 ? left + 1 : left;
                if (filled <= o + right) {
                    long ahead = Math.max(o + right + 1, filled + FILL_BYTES / size);
                    filled = zeros(oSeg, size, filled, Math.min(end, ahead));
                }
                float v = ElementCodec.get(gSeg, gType, g + j * sg[2]);
                if (left == right) {
                    ElementCodec.set(oSeg, oType, o + left, 0f + w0[j] * v + w1[j] * v);
                } else {
                    ElementCodec.set(oSeg, oType, o + left, 0f + w0[j] * v);
                    ElementCodec.set(oSeg, oType, o + right, 0f + w1[j] * v);
                }
            }
            if (!endToEnd) {
                zeros(oSeg, size, filled, end);
            }
        }
        if (endToEnd) {
            zeros(oSeg, size, filled, end);
        }
    }

    /** Zeros elements [from, to) of {@code seg}; returns {@code to}. */
    private static long zeros(MemorySegment seg, long size, long from, long to) {
        for (long at = from; at < to; ) {
            long bytes = Math.min(FILL_BYTES, (to - at) * size);
            NativeFill.zero(seg, at * size, bytes);
            at += bytes / size;
        }
        return Math.max(from, to);
    }
}
