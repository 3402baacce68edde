package io.opscv.runtime;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A block of device memory ({@code aclrtMalloc} / {@code aclrtFree}): an off-heap segment with a
 * 64-bit size. Closing it frees it; any later use fails with a status instead of touching freed
 * memory.
 *
 * <p>Allocation never ends in an {@link OutOfMemoryError}: a request beyond what this process can
 * still get (its container's limit included) fails with 361001 before any page is touched (see
 * {@link AvailableMemory}). Freeing
 * is safe while other threads use the memory: a plan running on a stream {@linkplain #pin pins} the
 * memory it uses, and a free waits until the plan has finished; any other concurrent access fails with
 * {@link IllegalStateException} (the JDK's shared arenas; the executor reports it as a status)
 * instead of reading freed memory; and a free that would interrupt an I/O operation in progress is
 * refused with 361001, leaving the memory usable.
 *
 * <p>Blocks of {@link HugePages#THRESHOLD} bytes and more are mapped for transparent huge pages on
 * Linux when native access is enabled ({@link HugePages}); others, and those elsewhere, come from a
 * shared arena, zeroed.
 */
public final class DeviceMemory implements AutoCloseable {
    /** Device memory is aligned like upstream's allocator does (512 bytes). */
    public static final long ALIGNMENT = 512;
    /**
     * Allocations of at least this many bytes are checked against the available memory and made
     * one at a time, so that two large requests cannot both pass the check before either is touched.
     */
    static final long LARGE_ALLOCATION_BYTES = 64L << 20;
    private static final Object LARGE_ALLOCATIONS = new Object();

    private final Device device;
    private final Arena arena;
    private final MemorySegment segment;
    private volatile boolean freed;
    /** Plans running on this memory ({@link #pin}); guarded by {@code this}. */
    private int pins;

    private DeviceMemory(Device device, Arena arena, MemorySegment segment) {
        this.device = device;
        this.arena = arena;
        this.segment = segment;
    }

    static DeviceMemory allocate(Device device, long size) {
        if (size < LARGE_ALLOCATION_BYTES) {
            return allocateZeroed(device, size);
        }
        synchronized (LARGE_ALLOCATIONS) {
            AvailableMemory.Figure available = AvailableMemory.figure();
            if (size > available.bytes()) {
                throw AclnnException.runtime("aclrtMalloc could not allocate " + size + " bytes (" + available.bytes()
                        + " available to this process: " + available.source() + ").", null);
            }
            return allocateZeroed(device, size);
        }
    }

    private static DeviceMemory allocateZeroed(Device device, long size) {
        Arena arena = Arena.ofShared();
        try {
            // Large blocks mapped for huge pages where the platform allows (zeroed by the kernel); else the arena's.
            MemorySegment mapped = HugePages.allocate(size, arena);
            return new DeviceMemory(device, arena, mapped != null ? mapped : arena.allocate(size, ALIGNMENT));
        } catch (OutOfMemoryError | IllegalArgumentException e) {
            arena.close();
            throw AclnnException.runtime("aclrtMalloc could not allocate " + size + " bytes of device memory: "
                    + e.getMessage(), e);
        }
    }

    static DeviceMemory wrap(Device device, MemorySegment segment) {
        return new DeviceMemory(device, null, segment);
    }

    /** {@return the device this memory belongs to} */
    public Device device() {
        return device;
    }

    /** {@return the size in bytes} */
    public long size() {
        return segment.byteSize();
    }

    /** {@return whether {@link #close()} has been called, or the owner of wrapped memory has closed its arena} */
    public boolean isFreed() {
        return freed || !segment.scope().isAlive();
    }

    /** {@return the memory itself, for zero-copy access from Java}; fails with a status once freed */
    public MemorySegment segment() {
        return segmentForAccess();
    }

    MemorySegment segmentForAccess() {
        if (isFreed()) {
            throw AclnnException.invalid("Device memory of " + segment.byteSize() + " bytes was freed (aclrtFree, or its"
                    + " owner closed it) and cannot be used.");
        }
        return segment;
    }

    /**
     * Keeps this memory from being freed until {@link #unpin}: a free meanwhile waits. (Wrapped memory's
     * owner may still close it at any time: kernels access every tensor through its segment, whose
     * accesses the JDK checks, so that an access after such a close fails instead of touching freed memory.)
     *
     * @return false, pinning nothing, if the memory was already freed
     */
    public synchronized boolean pin() {
        if (isFreed()) {
            return false;
        }
        pins++;
        return true;
    }

    /** Ends a {@link #pin}; the last one lets a waiting free go on. */
    public synchronized void unpin() {
        if (pins <= 0) {
            throw new IllegalStateException("unpin without pin");
        }
        if (--pins == 0) {
            notifyAll();
        }
    }

    /**
     * {@code aclrtFree}. Idempotent. A plan that a stream is running on this memory finishes first
     * (this call waits for it, see {@link #pin}); a plan queued but not yet started fails (its stream
     * reports 161002 at synchronize). Freed memory is never read or written.
     *
     * @throws AclnnException 361001 when an I/O operation (a file read or write straight into this
     *                        memory) is in progress on another thread; the memory is then not freed
     */
    @Override
    public void close() {
        synchronized (this) {
            if (freed) {
                return;
            }
            freed = true;
            boolean interrupted = false;
            while (pins > 0) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    // The memory cannot be released under a running kernel: wait on, keep the interrupt.
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            if (arena != null) {
                try {
                    arena.close();
                } catch (IllegalStateException e) {
                    // A shared arena refuses to close while an I/O operation holds it ("acquired").
                    freed = false;
                    throw AclnnException.runtime("aclrtFree of " + segment.byteSize() + " bytes of device memory failed:"
                            + " an I/O operation on another thread is using it; free it when that has finished.", e);
                }
            }
        }
        device.forget(this);
    }

    @Override
    public String toString() {
        return "DeviceMemory[" + segment.byteSize() + " bytes" + (freed ? ", freed]" : "]");
    }
}
