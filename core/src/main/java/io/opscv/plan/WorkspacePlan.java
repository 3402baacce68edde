package io.opscv.plan;

import io.opscv.runtime.AclnnException;
import io.opscv.runtime.DataType;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Format;

/**
 * Lays out a plan's intermediates in the caller's workspace, one after another, each starting on a
 * {@link #ALIGNMENT}-byte boundary (as upstream's executor aligns its workspace tensors). The plan's
 * workspace size is exactly {@link #totalBytes()}: the sum of the aligned slices.
 */
public final class WorkspacePlan {
    /** Every intermediate starts on this boundary; the same 512 bytes as device memory. */
    public static final long ALIGNMENT = DeviceMemory.ALIGNMENT;

    /** An empty layout: no intermediates, no workspace. */
    public WorkspacePlan() {}

    /** Bytes laid out so far, the next intermediate's offset. */
    private long total;

    /**
     * A new contiguous intermediate of {@code shape}, in the next aligned slice.
     *
     * @param name what it holds, for {@link Executor#explain()}
     * @param shape its shape
     * @param dataType its element type
     * @param format its format tag
     * @return the intermediate, owning its slice of the workspace
     */
    public Operand allocate(String name, long[] shape, DataType dataType, Format format) {
        long bytes;
        try {
            long numel = 1;
            for (long d : shape) {
                numel = Math.multiplyExact(numel, d);
            }
            bytes = alignUp(Math.multiplyExact(numel, (long) dataType.byteSize()));
        } catch (ArithmeticException e) {
            throw AclnnException.invalid("The intermediate " + name + " of the plan needs more than 2^63 bytes of workspace.");
        }
        Operand operand = Operand.intermediate(name, total, bytes, shape, dataType, format);
        try {
            total = Math.addExact(total, bytes);
        } catch (ArithmeticException e) {
            throw AclnnException.invalid("The intermediates of the plan, up to " + name
                    + ", need more than 2^63 bytes of workspace.");
        }
        return operand;
    }

    /** {@return the bytes of workspace the plan needs: the sum of its aligned intermediates} */
    public long totalBytes() {
        return total;
    }

    /**
     * {@return {@code bytes} rounded up to {@link #ALIGNMENT}}
     *
     * @param bytes a byte count, not negative
     */
    public static long alignUp(long bytes) {
        return Math.multiplyExact(Math.ceilDiv(bytes, ALIGNMENT), ALIGNMENT);
    }
}
