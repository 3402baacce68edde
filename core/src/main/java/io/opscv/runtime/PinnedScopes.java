package io.opscv.runtime;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Memory whose lifetime is guaranteed for a while, so that kernels may read and write it through raw
 * addresses (one constant segment spanning the address space) instead of through its own segment.
 *
 * <p>Why: every access through a {@link MemorySegment} passed as an argument checks the segment's
 * bounds, its session's liveness and its read-only flag, with loads the JIT does not hoist out of a
 * kernel's row loop (the row stride is not a constant). Through a {@code static final} segment those
 * checks fold away: the in-place down4x block took 3.1 µs per call instead of 4.9–5.3
 * ({@code InPlaceBlockBenchmark}). What the checks protected, a kernel then checks once per call
 * (bounds: the provider; liveness: this class).
 *
 * <p>A scope is held between {@link #hold} and the returned handle's {@code close()}; whoever holds it
 * guarantees that nothing closes it meanwhile. {@link DeviceMemory} holds its arena's scope while a
 * plan runs on it ({@link DeviceMemory#pin}), and {@code aclrtFree} waits for the plan to finish;
 * memory the caller owns ({@code Device.wrap}) is not held, and kernels access it through its
 * segment, checked as before.
 */
public final class PinnedScopes {
    private static final Map<MemorySegment.Scope, Integer> HELD = new ConcurrentHashMap<>();

    private PinnedScopes() {
    }

    /** A held scope; closing it releases this hold (holds of the same scope nest). */
    public interface Hold extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Holds {@code scope} until the handle is closed. The caller guarantees that the scope stays alive
     * until then (its arena is not closed).
     *
     * @throws IllegalStateException if the scope is no longer alive
     */
    public static Hold hold(MemorySegment.Scope scope) {
        if (!scope.isAlive()) {
            throw new IllegalStateException("Cannot hold a closed scope");
        }
        HELD.merge(scope, 1, Integer::sum);
        return new Hold() {
            private boolean closed;

            @Override
            public synchronized void close() {
                if (!closed) {
                    closed = true;
                    HELD.computeIfPresent(scope, (s, n) -> n == 1 ? null : n - 1);
                }
            }
        };
    }

    /** Whether {@code segment} is native and its scope is held: its memory stays valid while the hold lasts. */
    public static boolean isHeld(MemorySegment segment) {
        return segment.isNative() && HELD.containsKey(segment.scope());
    }
}
