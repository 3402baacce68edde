package io.opscv.kernel;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * A pool thread's buffers for the scratch of a call, kept from call to call ({@link WorkerPool#forEach(int,
 * boolean, java.util.function.Function, WorkerPool.ScratchTask)}): a call that asks for the buffers the last one
 * asked for gets the same ones back instead of new zeroed memory. A scratch of a few MiB allocated per call cost
 * its zeroing, fresh cache lines and the collections that follow, a large share of a small call's time; an
 * off-heap one, a shared arena per call, whose closing stops every thread.
 *
 * <p>A buffer's contents are unspecified: whatever the last call left, as a scratch reused across a call's tasks
 * already holds whatever the last task left. With {@code -Dopscv.poisonBuffers=true} (the tests' setting) every
 * buffer handed back is filled with NaN, so that a kernel that read a position it had not written would show it.
 * Only the thread that owns the pool's slot uses its instance, and only during a call; a call that does not own
 * a slot (run inline beside another call) gets {@link #FRESH}, which keeps nothing. Off-heap buffers belong to an
 * automatic arena: freed once neither this instance nor a scratch holds them, never while in use.
 */
final class Buffers {
    /** Fills every buffer handed back with NaN (see the class comment). */
    static final boolean POISON = Boolean.getBoolean("opscv.poisonBuffers");
    /** The most bytes a slot keeps between calls (16 MiB): beyond it, the largest buffers are dropped. */
    static final long KEEP_BYTES = 1L << 24;
    /** Allocates every buffer and keeps none. */
    static final Buffers FRESH = new Buffers(0);

    private final long keepBytes;
    private final Shelf floats = new Shelf();
    private final Shelf segments = new Shelf();

    Buffers(long keepBytes) {
        this.keepBytes = keepBytes;
    }

    /** An array of at least {@code n} floats, contents unspecified, the caller's until the call ends. */
    float[] floats(int n) {
        if (keepBytes == 0) {
            return new float[n];
        }
        float[] a = (float[]) floats.take(4L * n);
        return floats.lend(a != null ? a : new float[n]);
    }

    /** At least {@code bytes} bytes off-heap, aligned to 64, contents unspecified, the caller's until the call ends. */
    MemorySegment segment(long bytes) {
        if (keepBytes == 0) {
            return Arena.ofAuto().allocate(bytes, 64);
        }
        MemorySegment s = (MemorySegment) segments.take(bytes);
        return segments.lend(s != null ? s : Arena.ofAuto().allocate(bytes, 64));
    }

    /** The call has ended: its buffers are free for the next one, as many as {@link #KEEP_BYTES} allows. */
    void release() {
        if (floats.lentCount == 0 && segments.lentCount == 0) {
            return;
        }
        floats.release();
        segments.release();
        long kept = keptBytes();
        while (kept > keepBytes) {
            Shelf from = floats.largest() >= segments.largest() ? floats : segments;
            kept -= from.dropLargest();
        }
    }

    /** Bytes kept for the next call. */
    long keptBytes() {
        return floats.freeBytes() + segments.freeBytes();
    }

    private static long bytes(Object buffer) {
        return buffer instanceof float[] a ? 4L * a.length : ((MemorySegment) buffer).byteSize();
    }

    /** Buffers of one kind: those free for the next call and those lent to this one. */
    private static final class Shelf {
        private Object[] free = new Object[8];
        private int freeCount;
        private Object[] lent = new Object[8];
        private int lentCount;

        /** The smallest free buffer of at least {@code bytes}, taken off the shelf, or null. */
        Object take(long bytes) {
            int best = -1;
            for (int i = 0; i < freeCount; i++) {
                if (bytes(free[i]) >= bytes && (best < 0 || bytes(free[i]) < bytes(free[best]))) {
                    best = i;
                }
            }
            if (best < 0) {
                return null;
            }
            Object b = free[best];
            free[best] = free[--freeCount];
            free[freeCount] = null;
            return b;
        }

        <T> T lend(T buffer) {
            if (lentCount == lent.length) {
                lent = Arrays.copyOf(lent, 2 * lentCount);
            }
            lent[lentCount++] = buffer;
            return buffer;
        }

        void release() {
            for (int i = 0; i < lentCount; i++) {
                if (POISON) {
                    if (lent[i] instanceof float[] a) {
                        Arrays.fill(a, Float.NaN);
                    } else {
                        ((MemorySegment) lent[i]).fill((byte) 0xff);
                    }
                }
                if (freeCount == free.length) {
                    free = Arrays.copyOf(free, 2 * freeCount);
                }
                free[freeCount++] = lent[i];
                lent[i] = null;
            }
            lentCount = 0;
        }

        long freeBytes() {
            long sum = 0;
            for (int i = 0; i < freeCount; i++) {
                sum += bytes(free[i]);
            }
            return sum;
        }

        long largest() {
            long most = 0;
            for (int i = 0; i < freeCount; i++) {
                most = Math.max(most, bytes(free[i]));
            }
            return most;
        }

        /** Drops the largest free buffer; its bytes. */
        long dropLargest() {
            int largest = 0;
            for (int i = 1; i < freeCount; i++) {
                if (bytes(free[i]) > bytes(free[largest])) {
                    largest = i;
                }
            }
            long b = bytes(free[largest]);
            free[largest] = free[--freeCount];
            free[freeCount] = null;
            return b;
        }
    }
}
