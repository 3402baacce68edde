package io.opscv.runtime;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A block of device memory ({@code aclrtMalloc} / {@code aclrtFree}): an off-heap segment with a
 * 64-bit size. Closing it frees it; any later use fails with a status instead of touching freed
 * memory.
 */
public final class DeviceMemory implements AutoCloseable {
    /** Device memory is aligned like upstream's allocator does (512 bytes). */
    public static final long ALIGNMENT = 512;

    private final Device device;
    private final Arena arena;
    private final MemorySegment segment;
    private volatile boolean freed;

    private DeviceMemory(Device device, Arena arena, MemorySegment segment) {
        this.device = device;
        this.arena = arena;
        this.segment = segment;
    }

    static DeviceMemory allocate(Device device, long size) {
        Arena arena = Arena.ofShared();
        try {
            return new DeviceMemory(device, arena, arena.allocate(size, ALIGNMENT));
        } catch (OutOfMemoryError | IllegalArgumentException e) {
            arena.close();
            throw AclnnException.runtime("aclrtMalloc could not allocate " + size + " bytes of device memory: "
                    + e.getMessage(), e);
        }
    }

    static DeviceMemory wrap(Device device, MemorySegment segment) {
        return new DeviceMemory(device, null, segment);
    }

    /** The device this memory belongs to. */
    public Device device() {
        return device;
    }

    /** Size in bytes. */
    public long size() {
        return segment.byteSize();
    }

    /** Whether {@link #close()} has been called. */
    public boolean isFreed() {
        return freed;
    }

    /**
     * The memory itself, for zero-copy access from Java. Fails with a status once freed.
     */
    public MemorySegment segment() {
        return segmentForAccess();
    }

    MemorySegment segmentForAccess() {
        if (freed) {
            throw AclnnException.invalid("Device memory of " + segment.byteSize() + " bytes was freed (aclrtFree) and cannot be used.");
        }
        return segment;
    }

    /** {@code aclrtFree}. Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (freed) {
                return;
            }
            freed = true;
        }
        if (arena != null) {
            arena.close();
        }
        device.forget(this);
    }

    @Override
    public String toString() {
        return "DeviceMemory[" + segment.byteSize() + " bytes" + (freed ? ", freed]" : "]");
    }
}
