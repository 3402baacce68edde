package io.opscv.runtime;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * A tensor as {@code aclCreateTensor} describes one: a view (shape, strides in elements, storage
 * offset in elements) over a storage (storage shape) in device memory, with a dtype and a format.
 * Views need not be contiguous: any non-negative strides work, including 0 (broadcast) and
 * transposed orders.
 *
 * <p>Creation checks, with overflow-safe 64-bit arithmetic, that every element the view can reach
 * lies inside its storage and that the storage lies inside the device memory; a tensor that exists
 * therefore never reads or writes outside its memory.
 */
public final class Tensor implements AutoCloseable {
    /** The most dimensions a tensor may have (as ACL's {@code aclCreateTensor}). */
    public static final int MAX_DIM = 8;

    private final long[] shape;
    private final long[] strides;
    private final long storageOffset;
    private final DataType dataType;
    private final Format format;
    private final long[] storageShape;
    private final DeviceMemory memory;
    private final long numel;
    private final boolean placeholder;
    private volatile boolean destroyed;

    private Tensor(long[] shape, long[] strides, long storageOffset, DataType dataType, Format format,
                   long[] storageShape, DeviceMemory memory, long numel, boolean placeholder) {
        this.shape = shape;
        this.strides = strides;
        this.storageOffset = storageOffset;
        this.dataType = dataType;
        this.format = format;
        this.storageShape = storageShape;
        this.memory = memory;
        this.numel = numel;
        this.placeholder = placeholder;
    }

    /**
     * {@code aclCreateTensor(viewShape, dataType, stride, offset, format, storageShape, deviceAddr)}.
     *
     * @param viewShape     the logical shape; each dimension ≥ 0
     * @param dataType      the element type
     * @param strides       strides in elements, one per dimension, each ≥ 0; {@code null} means contiguous
     * @param storageOffset offset of element [0, ..., 0] in the storage, in elements, ≥ 0
     * @param format        the layout tag (ND, NCL, NCHW, NHWC, ...)
     * @param storageShape  the storage's shape; {@code null} means just large enough for the view
     * @param memory        the device memory holding the storage; may be {@code null} only for an empty view
     * @return the tensor, to destroy with {@link #close()}
     * @throws AclnnException 161001 for a missing argument, 161002 when the view or storage reach
     *                        outside their memory or a dimension/stride is negative
     */
    public static Tensor create(long[] viewShape, DataType dataType, long[] strides, long storageOffset,
                                Format format, long[] storageShape, DeviceMemory memory) {
        return create(viewShape, dataType, strides, storageOffset, format, storageShape, memory, false);
    }

    private static Tensor create(long[] viewShape, DataType dataType, long[] strides, long storageOffset,
                                 Format format, long[] storageShape, DeviceMemory memory, boolean placeholder) {
        if (viewShape == null) {
            throw AclnnException.nullptr("Expected a proper shape but got null for argument viewShape.");
        }
        if (dataType == null) {
            throw AclnnException.nullptr("Expected a proper DataType but got null for argument dataType.");
        }
        if (format == null) {
            throw AclnnException.nullptr("Expected a proper Format but got null for argument format.");
        }
        long[] shape = viewShape.clone();
        if (shape.length > MAX_DIM) {
            throw AclnnException.invalid("A tensor has at most " + MAX_DIM + " dimensions, but viewShape "
                    + Arrays.toString(shape) + " has " + shape.length + ".");
        }
        for (long d : shape) {
            if (d < 0) {
                throw AclnnException.invalid("Tensor dimensions must be >= 0, but viewShape is " + Arrays.toString(shape) + ".");
            }
        }
        // The element count first: contiguous strides of a shape whose count overflows would wrap.
        long numel = checkedProduct(shape, "viewShape");
        long[] st = strides == null ? contiguousStrides(shape) : strides.clone();
        if (st.length != shape.length) {
            throw AclnnException.invalid("strides " + Arrays.toString(st) + " must have one entry per dimension of viewShape "
                    + Arrays.toString(shape) + ".");
        }
        for (long s : st) {
            if (s < 0) {
                throw AclnnException.invalid("Tensor strides must be >= 0, but strides are " + Arrays.toString(st) + ".");
            }
        }
        if (storageOffset < 0) {
            throw AclnnException.invalid("storageOffset must be >= 0, but got " + storageOffset + ".");
        }
        // Index of the last element the view can reach (only meaningful when numel > 0).
        long lastIndex = storageOffset;
        if (numel > 0) {
            try {
                for (int d = 0; d < shape.length; d++) {
                    lastIndex = Math.addExact(lastIndex, Math.multiplyExact(shape[d] - 1, st[d]));
                }
            } catch (ArithmeticException e) {
                throw AclnnException.invalid("The view (shape " + Arrays.toString(shape) + ", strides " + Arrays.toString(st)
                        + ", offset " + storageOffset + ") reaches beyond 2^63 elements.");
            }
        }
        long[] storage = storageShape == null ? new long[] {numel == 0 ? storageOffset : lastIndex + 1} : storageShape.clone();
        for (long d : storage) {
            if (d < 0) {
                throw AclnnException.invalid("Storage dimensions must be >= 0, but storageShape is " + Arrays.toString(storage) + ".");
            }
        }
        if (placeholder) {
            return new Tensor(shape, st, 0, dataType, format, new long[] {0}, null, numel, true);
        }
        long storageNumel = checkedProduct(storage, "storageShape");
        if (numel > 0 && lastIndex >= storageNumel) {
            throw AclnnException.invalid("The view (shape " + Arrays.toString(shape) + ", strides " + Arrays.toString(st)
                    + ", offset " + storageOffset + ") reaches element " + lastIndex + ", outside its storage of "
                    + storageNumel + " elements (storageShape " + Arrays.toString(storage) + ").");
        }
        long storageBytes;
        try {
            storageBytes = Math.multiplyExact(storageNumel, (long) dataType.byteSize());
        } catch (ArithmeticException e) {
            throw AclnnException.invalid("storageShape " + Arrays.toString(storage) + " of " + dataType + " exceeds 2^63 bytes.");
        }
        if (memory == null) {
            if (numel > 0) {
                throw AclnnException.nullptr("Expected proper device memory but got null for a tensor of shape "
                        + Arrays.toString(shape) + ".");
            }
        } else {
            if (memory.isFreed()) {
                throw AclnnException.invalid("The device memory of the tensor was freed (aclrtFree).");
            }
            if (storageBytes > memory.size()) {
                throw AclnnException.invalid("The storage (storageShape " + Arrays.toString(storage) + " of " + dataType + ", "
                        + storageBytes + " bytes) does not fit in its device memory of " + memory.size() + " bytes.");
            }
        }
        return new Tensor(shape, st, storageOffset, dataType, format, storage, memory, numel, false);
    }

    /**
     * A contiguous (row-major) tensor over {@code memory}, starting at its first byte.
     *
     * @param shape    the shape; each dimension ≥ 0
     * @param dataType the element type
     * @param format   the layout tag (ND, NCL, NCHW, NHWC, ...)
     * @param memory   the device memory, large enough for the elements
     * @return the tensor, to destroy with {@link #close()}
     */
    public static Tensor create(long[] shape, DataType dataType, Format format, DeviceMemory memory) {
        return create(shape, dataType, null, 0, format, shape, memory);
    }

    /**
     * {@code aclCreateTensor} without device memory: a tensor that has a shape, a dtype and a format
     * but no storage, like PyTorch's "meta" tensors. Phase 1 of an operator validates it like any
     * other tensor (so that arguments can be checked before the memory for them is allocated);
     * phase 2 rejects it, and {@link #segment()} fails with 161002 unless it is empty. Its strides
     * are the contiguous ones.
     *
     * @param viewShape the logical shape; each dimension ≥ 0
     * @param dataType  the element type
     * @param format    the layout tag (ND, NCL, NCHW, NHWC, ...)
     * @return the placeholder tensor
     * @throws AclnnException 161001 for a missing argument, 161002 for a negative dimension, more
     *                        than {@link #MAX_DIM} dimensions or more than 2^63 elements
     */
    public static Tensor placeholder(long[] viewShape, DataType dataType, Format format) {
        return create(viewShape, dataType, null, 0, format, null, null, true);
    }

    /** {@return whether this tensor was made by {@link #placeholder} and so has no storage of its own} */
    public boolean isPlaceholder() {
        return placeholder;
    }

    /**
     * Row-major strides, in elements, of {@code shape} (dimensions of size 0 count as 1).
     *
     * @param shape a shape, each dimension ≥ 0
     * @return the strides, one per dimension
     * @throws AclnnException 161002 when a stride would exceed 2^63 - 1 (it would wrap)
     */
    public static long[] contiguousStrides(long[] shape) {
        long[] strides = new long[shape.length];
        long s = 1;
        for (int d = shape.length - 1; d >= 0; d--) {
            strides[d] = s;
            try {
                s = Math.multiplyExact(s, Math.max(shape[d], 1));
            } catch (ArithmeticException e) {
                if (d > 0) {
                    throw AclnnException.invalid("The contiguous strides of viewShape " + Arrays.toString(shape)
                            + " exceed 2^63 - 1 elements.");
                }
            }
        }
        return strides;
    }

    /** The exact product of non-negative {@code dims}: 0 when one is 0, whatever the others (they may overflow). */
    private static long checkedProduct(long[] dims, String name) {
        for (long d : dims) {
            if (d == 0) {
                return 0;
            }
        }
        long p = 1;
        try {
            for (long d : dims) {
                p = Math.multiplyExact(p, d);
            }
        } catch (ArithmeticException e) {
            throw AclnnException.invalid(name + " " + Arrays.toString(dims) + " has more than 2^63 elements.");
        }
        return p;
    }

    /** {@return a copy of the view's shape, one entry per dimension} */
    public long[] shape() {
        return shape.clone();
    }

    /** {@return the number of dimensions of the view} */
    public int dim() {
        return shape.length;
    }

    /**
     * {@return the size of dimension {@code d}}
     *
     * @param d the dimension, 0 ≤ d &lt; {@link #dim()} (161002 otherwise)
     */
    public long size(int d) {
        return shape[checkDimension(d)];
    }

    /** {@return a copy of the strides, in elements, one per dimension} */
    public long[] strides() {
        return strides.clone();
    }

    /**
     * {@return the stride of dimension {@code d}, in elements}
     *
     * @param d the dimension, 0 ≤ d &lt; {@link #dim()} (161002 otherwise)
     */
    public long stride(int d) {
        return strides[checkDimension(d)];
    }

    private int checkDimension(int d) {
        if (d < 0 || d >= shape.length) {
            throw AclnnException.invalid("Dimension " + d + " is out of range for a tensor with " + shape.length
                    + " dimensions " + Arrays.toString(shape) + ".");
        }
        return d;
    }

    /** {@return the offset of the view's first element in the storage, in elements} */
    public long storageOffset() {
        return storageOffset;
    }

    /** {@return a copy of the storage's shape (given at creation, or one dimension just large enough for the view)} */
    public long[] storageShape() {
        return storageShape.clone();
    }

    /** {@return the element type} */
    public DataType dataType() {
        return dataType;
    }

    /** {@return the layout tag the tensor was created with} */
    public Format format() {
        return format;
    }

    /** {@return the number of elements of the view} */
    public long numel() {
        return numel;
    }

    /** {@return whether the view has no elements (a dimension of size 0)} */
    public boolean isEmpty() {
        return numel == 0;
    }

    /** {@return whether the view is row-major contiguous (dimensions of size 1 may have any stride)} */
    public boolean isContiguous() {
        long expected = 1;
        for (int d = shape.length - 1; d >= 0; d--) {
            if (shape[d] != 1 && strides[d] != expected) {
                return false;
            }
            expected *= shape[d];
        }
        return true;
    }

    /** {@return the device memory, or {@code null} for an empty tensor or a placeholder created without memory} */
    public DeviceMemory memory() {
        return memory;
    }

    /** {@return the device the memory belongs to, or {@code null} when the tensor has no memory} */
    public Device device() {
        return memory == null ? null : memory.device();
    }

    /**
     * The memory for kernels: fails with a status if the tensor was destroyed, its memory freed, or
     * it is a non-empty {@linkplain #placeholder placeholder}. Empty tensors without memory give
     * {@link MemorySegment#NULL}.
     *
     * @return the segment of the tensor's whole device memory (not just the view)
     */
    public MemorySegment segment() {
        if (destroyed) {
            throw AclnnException.invalid("The tensor " + this + " was destroyed (aclDestroyTensor) and cannot be used.");
        }
        if (memory == null) {
            if (numel > 0) {
                throw AclnnException.invalid("The tensor " + this + " is a placeholder without device memory: it can be"
                        + " validated (phase 1) but not read or written.");
            }
            return MemorySegment.NULL;
        }
        return memory.segmentForAccess();
    }

    /**
     * The bytes of its memory this view spans, from its first element to the end of its last one
     * (elements in between that the view skips included), for the checks that operands do not share
     * memory ({@link MemorySegment#asOverlappingSlice}); {@code null} for an empty tensor or one without
     * memory, which occupy no bytes. Fails as {@link #segment()} once the tensor is no longer usable.
     *
     * @return the spanned slice of the memory, or {@code null}
     */
    public MemorySegment spannedBytes() {
        if (isEmpty() || memory == null) {
            return null;
        }
        long last = storageOffset;
        for (int d = 0; d < shape.length; d++) {
            last += (shape[d] - 1) * strides[d];
        }
        // Within the memory: creation checked that the view fits.
        long size = dataType.byteSize();
        return segment().asSlice(storageOffset * size, (last - storageOffset + 1) * size);
    }

    /** {@return whether the tensor can still be used: not destroyed, memory not freed} */
    public boolean isUsable() {
        return !destroyed && (memory == null || !memory.isFreed());
    }

    /** {@code aclDestroyTensor}: the memory stays allocated; the tensor can no longer be used. */
    @Override
    public void close() {
        destroyed = true;
    }

    @Override
    public String toString() {
        return "Tensor[" + dataType + ", " + format.name() + ", shape=" + Arrays.toString(shape) + ", strides="
                + Arrays.toString(strides) + ", offset=" + storageOffset + (placeholder ? ", placeholder]" : "]");
    }
}
