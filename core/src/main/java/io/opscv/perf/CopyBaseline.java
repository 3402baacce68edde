package io.opscv.perf;

import io.opscv.kernel.ElementCodec;
import io.opscv.kernel.WorkerPool;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Device;
import io.opscv.runtime.DeviceMemory;
import java.lang.foreign.MemorySegment;

/**
 * The baseline an operator's time is compared with: copying a number of bytes between two buffers of
 * device memory, split over the shared worker pool's threads. Copying B bytes reads B and writes B, so
 * an operator that reads and writes 2B in all is compared with a copy of B.
 */
public final class CopyBaseline {
    /** Bytes per copy task: large enough that the per-task cost is noise. */
    private static final long COPY_CHUNK = 1 << 20;

    private final long bytes;
    private final DeviceMemory source;
    private final DeviceMemory target;

    /** Allocates both buffers on {@code device} (freed with the device) and touches every page once. */
    public CopyBaseline(Device device, long bytes) {
        this.bytes = bytes;
        this.source = device.malloc(Math.max(1, bytes));
        this.target = device.malloc(Math.max(1, bytes));
        source.segment().fill((byte) 1);
        target.segment().fill((byte) 2);
    }

    /** The bytes one {@link #run()} copies. */
    public long bytes() {
        return bytes;
    }

    /** Copies the bytes, in chunks over the shared pool's threads. */
    public void run() {
        MemorySegment src = source.segment();
        MemorySegment dst = target.segment();
        int chunks = (int) Math.max(1, (bytes + COPY_CHUNK - 1) / COPY_CHUNK);
        if (chunks == 1) {
            MemorySegment.copy(src, 0, dst, 0, bytes);
            return;
        }
        WorkerPool.shared().forEach(chunks, (chunk, slot) -> {
            long from = chunk * COPY_CHUNK;
            MemorySegment.copy(src, from, dst, from, Math.min(COPY_CHUNK, bytes - from));
        });
    }

    /**
     * Repeats a short run of ordinary values (no zeros, subnormals or non-finite ones) of {@code dtype} over
     * the whole of {@code segment}, so that no operator meets a fast path for special values.
     */
    public static void fillOrdinary(MemorySegment segment, DataType dtype) {
        int count = 4096;
        float[] values = new float[count];
        for (int k = 0; k < count; k++) {
            values[k] = 0.25f + (k * 37 % 101) / 64f * ((k & 1) == 0 ? 1 : -1);
        }
        int size = dtype.byteSize();
        long elements = segment.byteSize() / size;
        MemorySegment pattern = MemorySegment.ofArray(new byte[count * size]);
        ElementCodec.encode(values, 0, count, pattern, dtype, 0, 1);
        for (long e = 0; e < elements; e += count) {
            long run = Math.min(count, elements - e);
            MemorySegment.copy(pattern, 0, segment, e * size, run * size);
        }
    }
}
