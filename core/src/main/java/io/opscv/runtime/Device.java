package io.opscv.runtime;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * An opened device ({@code aclrtSetDevice}) and its context: it allocates device memory
 * ({@code aclrtMalloc}), copies ({@code aclrtMemcpy}), creates streams, and holds the context
 * options ({@code aclrtCtxSetSysParamOpt}). Closing it is {@code aclrtResetDevice}: its streams are
 * drained and destroyed and its memory is freed.
 */
public final class Device implements AutoCloseable {
    private final AclRuntime runtime;
    private final int id;
    private final Platform platform;
    private final List<Stream> streams = new ArrayList<>();
    private final List<DeviceMemory> allocations = new ArrayList<>();
    private volatile boolean deterministic;
    private volatile boolean closed;

    Device(AclRuntime runtime, int id, Platform platform) {
        this.runtime = runtime;
        this.id = id;
        this.platform = platform;
        this.deterministic = platform.deterministicByDefault();
    }

    /** {@return the device id given to {@code aclrtSetDevice}, 0 .. {@link AclRuntime#DEVICE_COUNT} - 1} */
    public int id() {
        return id;
    }

    /** {@return the product this device behaves as} */
    public Platform platform() {
        return platform;
    }

    /**
     * Whether computations on this device are deterministic: the platform's default until
     * {@code ACL_OPT_DETERMINISTIC} is set. The CPU kernels are bit-reproducible either way; the
     * flag is kept so that a golden model answers what the product would.
     *
     * @return the {@code ACL_OPT_DETERMINISTIC} setting in effect
     */
    public boolean deterministic() {
        return deterministic;
    }

    /**
     * {@code aclrtCtxSetSysParamOpt}. A platform deterministic by default stays so whatever the value.
     *
     * @param opt the option, {@link SysParamOpt#ACL_OPT_DETERMINISTIC}
     * @param value 0 or 1 (161002 otherwise)
     */
    public void setSysParamOpt(SysParamOpt opt, long value) {
        ensureOpen();
        if (opt == null) {
            throw AclnnException.nullptr("Expected a proper SysParamOpt but got null for argument opt.");
        }
        if (value != 0 && value != 1) {
            throw AclnnException.invalid("ACL_OPT_DETERMINISTIC takes 0 or 1, but got " + value + ".");
        }
        deterministic = value == 1 || platform.deterministicByDefault();
    }

    /**
     * {@code aclrtCtxGetSysParamOpt}.
     *
     * @param opt the option, {@link SysParamOpt#ACL_OPT_DETERMINISTIC}
     * @return its value, 0 or 1
     */
    public long getSysParamOpt(SysParamOpt opt) {
        if (opt == null) {
            throw AclnnException.nullptr("Expected a proper SysParamOpt but got null for argument opt.");
        }
        return deterministic ? 1 : 0;
    }

    /** {@return a new stream on this device}, as {@code aclrtCreateStream}; closing it destroys it */
    public synchronized Stream createStream() {
        ensureOpen();
        Stream stream = new Stream(this);
        streams.add(stream);
        return stream;
    }

    /**
     * {@code aclrtMalloc}: {@code size} bytes of zeroed device memory. Fails with
     * {@link AclnnStatus#ERR_RUNTIME_ERROR} when the memory cannot be had.
     *
     * @param size the bytes to allocate, &gt; 0 (161002 otherwise)
     * @return the memory, freed by closing it or by resetting the device
     */
    public DeviceMemory malloc(long size) {
        ensureOpen();
        if (size <= 0) {
            throw AclnnException.invalid("aclrtMalloc size must be > 0, but got " + size + ".");
        }
        DeviceMemory memory = DeviceMemory.allocate(this, size);
        synchronized (this) {
            if (!closed) {
                allocations.add(memory);
                return memory;
            }
        }
        // The device was reset while the memory was being allocated: nothing would ever free it.
        memory.close();
        throw AclnnException.invalid("Device " + id + " was reset (aclrtResetDevice) during aclrtMalloc.");
    }

    /**
     * Wraps memory the caller already owns (an off-heap {@link MemorySegment}) as device memory,
     * without copying: the Java developer's zero-copy path. The caller keeps ownership; closing the
     * returned object only forbids further use through it. Since the caller may close the segment's
     * arena at any time, kernels access wrapped memory through its segment, checked at every access
     * (as they access all memory): the same kernels run on it as on {@link #malloc} memory, and a close
     * during a run fails that run with a status instead of touching freed memory.
     *
     * @param segment the caller's memory, from a shared, automatic or global arena
     * @return the device memory viewing it
     * @throws AclnnException 161002 when the segment is confined to one thread
     *                        ({@code Arena.ofConfined()}): kernels run on the stream's, the pool's
     *                        and synchronizing threads
     */
    public DeviceMemory wrap(MemorySegment segment) {
        ensureOpen();
        if (segment == null) {
            throw AclnnException.nullptr("Expected a proper MemorySegment but got null for argument segment.");
        }
        if (!segment.isAccessibleBy(Thread.ofVirtual().unstarted(() -> { }))) {
            throw AclnnException.invalid("The segment to wrap is confined to one thread (Arena.ofConfined()), but streams"
                    + " access device memory from their own threads: allocate it with Arena.ofShared(), ofAuto() or global().");
        }
        return DeviceMemory.wrap(this, segment);
    }

    /**
     * {@code aclrtMemcpy} host → device.
     *
     * @param dst the device memory written from its start
     * @param destMax the bytes {@code dst} may take, at most its size
     * @param src the host memory read from its start
     * @param count the bytes to copy, at most {@code destMax} and {@code src}'s size
     * @param kind {@link MemcpyKind#HOST_TO_DEVICE}
     */
    public void memcpy(DeviceMemory dst, long destMax, MemorySegment src, long count, MemcpyKind kind) {
        requireKind(kind, MemcpyKind.HOST_TO_DEVICE);
        requireNotNull(dst, "dst");
        requireNotNull(src, "src");
        copy(dst.segmentForAccess(), destMax, src, count);
    }

    /**
     * {@code aclrtMemcpy} device → host.
     *
     * @param dst the host memory written from its start
     * @param destMax the bytes {@code dst} may take, at most its size
     * @param src the device memory read from its start
     * @param count the bytes to copy, at most {@code destMax} and {@code src}'s size
     * @param kind {@link MemcpyKind#DEVICE_TO_HOST}
     */
    public void memcpy(MemorySegment dst, long destMax, DeviceMemory src, long count, MemcpyKind kind) {
        requireKind(kind, MemcpyKind.DEVICE_TO_HOST);
        requireNotNull(dst, "dst");
        requireNotNull(src, "src");
        copy(dst, destMax, src.segmentForAccess(), count);
    }

    /**
     * {@code aclrtMemcpy} device → device.
     *
     * @param dst the device memory written from its start
     * @param destMax the bytes {@code dst} may take, at most its size
     * @param src the device memory read from its start
     * @param count the bytes to copy, at most {@code destMax} and {@code src}'s size
     * @param kind {@link MemcpyKind#DEVICE_TO_DEVICE}
     */
    public void memcpy(DeviceMemory dst, long destMax, DeviceMemory src, long count, MemcpyKind kind) {
        requireKind(kind, MemcpyKind.DEVICE_TO_DEVICE);
        requireNotNull(dst, "dst");
        requireNotNull(src, "src");
        copy(dst.segmentForAccess(), destMax, src.segmentForAccess(), count);
    }

    private void copy(MemorySegment dst, long destMax, MemorySegment src, long count) {
        ensureOpen();
        if (count < 0 || destMax < 0) {
            throw AclnnException.invalid("aclrtMemcpy needs count >= 0 and destMax >= 0, but got count=" + count
                    + ", destMax=" + destMax + ".");
        }
        if (count > destMax) {
            throw AclnnException.invalid("aclrtMemcpy count (" + count + ") > destMax (" + destMax + ").");
        }
        if (destMax > dst.byteSize()) {
            throw AclnnException.invalid("aclrtMemcpy destMax (" + destMax + ") > size of dst (" + dst.byteSize() + ").");
        }
        if (count > src.byteSize()) {
            throw AclnnException.invalid("aclrtMemcpy count (" + count + ") > size of src (" + src.byteSize() + ").");
        }
        try {
            MemorySegment.copy(src, 0, dst, 0, count);
        } catch (IllegalStateException e) {
            throw AclnnException.invalid("aclrtMemcpy: a buffer was freed or its arena closed during the copy (" + e.getMessage() + ").");
        } catch (WrongThreadException e) {
            throw AclnnException.invalid("aclrtMemcpy: a host buffer is confined to another thread (" + e.getMessage() + ").");
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            throw AclnnException.invalid("aclrtMemcpy: dst cannot be written (" + e.getMessage() + ").");
        }
    }

    private static void requireKind(MemcpyKind actual, MemcpyKind expected) {
        if (actual == null) {
            throw AclnnException.nullptr("Expected a proper MemcpyKind but got null for argument kind.");
        }
        if (actual != expected) {
            throw AclnnException.invalid("aclrtMemcpy kind " + actual + " does not match its arguments, expected "
                    + expected + ".");
        }
    }

    private static void requireNotNull(Object value, String name) {
        if (value == null) {
            throw AclnnException.nullptr("Expected a proper buffer but got null for argument " + name + ".");
        }
    }

    synchronized void forget(Stream stream) {
        streams.remove(stream);
    }

    synchronized void forget(DeviceMemory memory) {
        allocations.remove(memory);
    }

    void ensureOpen() {
        if (closed) {
            throw AclnnException.invalid("Device " + id + " was reset (aclrtResetDevice) and cannot be used.");
        }
    }

    boolean isOpen() {
        return !closed;
    }

    /** {@code aclrtResetDevice}: drains and destroys this device's streams, frees its memory. */
    @Override
    public void close() {
        List<Stream> openStreams;
        List<DeviceMemory> openMemory;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            openStreams = new ArrayList<>(streams);
            openMemory = new ArrayList<>(allocations);
        }
        // Release everything even if one release fails (memory busy in a file transfer gives 361001); report the first.
        AclnnException first = null;
        List<AutoCloseable> resources = new ArrayList<>(openStreams);
        resources.addAll(openMemory);
        for (AutoCloseable resource : resources) {
            try {
                resource.close();
            } catch (AclnnException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            } catch (Exception e) {
                throw new IllegalStateException("streams and device memory close without checked exceptions", e);
            }
        }
        runtime.forget(this);
        if (first != null) {
            throw first;
        }
    }

    @Override
    public String toString() {
        return "Device[" + id + ", " + platform + "]";
    }
}
