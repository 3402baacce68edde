package io.opscv.reliability;

import io.opscv.runtime.AclnnStatus;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Format;
import io.opscv.runtime.Tensor;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * A tensor argument for the fuzz: its shape, dtype, format, how it lies in memory, and at most one
 * defect. {@link FuzzArguments#tensor} builds it; {@link #expectedCreation} says, computed here
 * with exact (BigInteger) arithmetic and independently of {@link Tensor#create}, what creating it
 * must give.
 *
 * @param shape  the view's shape (any values, also negative or huge)
 * @param dtype  the element type
 * @param format the format tag
 * @param layout how the view's elements are placed in memory
 * @param offset the storage offset, in elements
 * @param defect what is wrong with it, if anything
 * @param detail a number the defect draws its value from (which dimension, which huge value)
 */
record TensorRecipe(long[] shape, DataType dtype, Format format, Layout layout, long offset, Defect defect, int detail) {

    /** How the view's elements are placed in memory. */
    enum Layout {
        /** Row-major. */
        CONTIGUOUS,
        /** The last two dimensions swapped in memory (a transposed view). */
        TRANSPOSED,
        /** Row-major with 1-3 unused elements after each row. */
        PADDED,
        /** Dimension 0 fastest in memory. */
        REVERSED,
        /** Every dimension but the last has stride 0: all rows are the same memory (fine for inputs only). */
        BROADCAST,
        /** The row stride is half a row, so consecutive rows share elements (fine for inputs only). */
        OVERLAPPING_ROWS,
        /** Every stride 0: one element serves the whole view, however large (fine for inputs only). */
        ALL_BROADCAST
    }

    /** At most one thing wrong with the tensor. */
    enum Defect {
        NONE,
        /** {@link Tensor#placeholder}: a shape and dtype without memory. */
        PLACEHOLDER,
        /** No memory for a tensor that has elements (161001 unless empty). */
        NULL_MEMORY,
        /** storageShape one element too small for the view. */
        SHORT_STORAGE,
        /** Memory one byte too small for the storage (zero bytes when the storage is one byte). */
        SHORT_MEMORY,
        /** The memory is freed before the tensor is created. */
        FREED_BEFORE_CREATE,
        /** The memory is freed after the tensor is created, before the operator sees it. */
        FREED_AFTER_CREATE,
        /** aclDestroyTensor before the operator sees it. */
        DESTROYED,
        /** One stride negative. */
        NEGATIVE_STRIDE,
        /** A negative storage offset. */
        NEGATIVE_OFFSET,
        /** A storage offset near 2^62 or 2^63. */
        HUGE_OFFSET,
        /** One stride near 2^62 or 2^63. */
        HUGE_STRIDE
    }

    /** Bytes of memory the fuzz allocates at most for one tensor; larger views get this much and must be refused. */
    static final long MEMORY_CAP = 1 << 18;
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    TensorRecipe {
        shape = shape.clone();
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    int rank() {
        return shape.length;
    }

    /** Exact element count (negative dimensions give a negative or zero product: only meaningful when none is). */
    BigInteger numel() {
        BigInteger n = BigInteger.ONE;
        for (long d : shape) {
            n = n.multiply(BigInteger.valueOf(d));
        }
        return n;
    }

    boolean hasNegativeDimension() {
        return Arrays.stream(shape).anyMatch(d -> d < 0);
    }

    /** The strides the layout gives, then the defect's stride, saturated to the long range. */
    long[] strides() {
        int r = shape.length;
        Integer[] memoryOrder = new Integer[r]; // fastest first
        for (int k = 0; k < r; k++) {
            memoryOrder[k] = r - 1 - k;
        }
        if (layout == Layout.TRANSPOSED && r >= 2) {
            memoryOrder[0] = r - 2;
            memoryOrder[1] = r - 1;
        } else if (layout == Layout.REVERSED) {
            for (int k = 0; k < r; k++) {
                memoryOrder[k] = k;
            }
        }
        BigInteger[] exact = new BigInteger[r];
        BigInteger running = BigInteger.ONE;
        for (int k = 0; k < r; k++) {
            int d = memoryOrder[k];
            exact[d] = running;
            running = running.multiply(BigInteger.valueOf(Math.max(shape[d], 1)));
            if (k == 0 && layout == Layout.PADDED) {
                running = running.add(BigInteger.valueOf(1 + Math.floorMod(detail, 3)));
            }
        }
        long[] strides = new long[r];
        for (int d = 0; d < r; d++) {
            strides[d] = exact[d].min(LONG_MAX).longValue();
        }
        if (layout == Layout.ALL_BROADCAST) {
            Arrays.fill(strides, 0);
        } else if (layout == Layout.BROADCAST) {
            for (int d = 0; d < r - 1; d++) {
                strides[d] = 0;
            }
        } else if (layout == Layout.OVERLAPPING_ROWS && r >= 2) {
            strides[r - 2] = Math.max(1, shape[r - 1] / 2);
            for (int d = r - 3; d >= 0; d--) {
                strides[d] = saturatingMultiply(strides[d + 1], Math.max(shape[d + 1], 1));
            }
        }
        if (r > 0) {
            int d = Math.floorMod(detail, r);
            if (defect == Defect.NEGATIVE_STRIDE) {
                strides[d] = detail % 2 == 0 ? -1 : Long.MIN_VALUE;
            } else if (defect == Defect.HUGE_STRIDE) {
                strides[d] = detail % 2 == 0 ? Long.MAX_VALUE : (1L << 62) + 1;
            }
        }
        return strides;
    }

    /** The storage offset after the defect. */
    long effectiveOffset() {
        return switch (defect) {
            case NEGATIVE_OFFSET -> detail % 2 == 0 ? -1 : Long.MIN_VALUE;
            case HUGE_OFFSET -> detail % 2 == 0 ? Long.MAX_VALUE - 1 : 1L << 62;
            default -> offset;
        };
    }

    /** The storage index of the last element the view reaches, exactly; {@code offset} for an empty view. */
    BigInteger reach() {
        BigInteger last = BigInteger.valueOf(effectiveOffset());
        if (numel().signum() <= 0) {
            return last;
        }
        long[] st = strides();
        for (int d = 0; d < shape.length; d++) {
            last = last.add(BigInteger.valueOf(shape[d] - 1).multiply(BigInteger.valueOf(st[d])));
        }
        return last;
    }

    /** Elements of storage the view needs: one past its last element, or the offset when empty. */
    BigInteger storageElements() {
        return numel().signum() > 0 ? reach().add(BigInteger.ONE) : BigInteger.valueOf(effectiveOffset());
    }

    /** Bytes of storage the view needs. */
    BigInteger storageBytes() {
        return storageElements().multiply(BigInteger.valueOf(dtype.byteSize()));
    }

    /** The storageShape to pass ({@code null}: as large as the view needs). */
    long[] storageShape() {
        if (defect != Defect.SHORT_STORAGE) {
            return null;
        }
        BigInteger elements = storageElements().subtract(BigInteger.ONE).max(BigInteger.ZERO).min(LONG_MAX);
        return new long[] {elements.longValue()};
    }

    /**
     * Bytes of memory to allocate: what the storage needs plus a guard tail (so that stray writes
     * show), or one byte short for {@link Defect#SHORT_MEMORY}, or {@link #MEMORY_CAP} when more is
     * needed (creation must then refuse the tensor).
     */
    long memoryBytes(int guardTail) {
        BigInteger needed = storageBytes().max(BigInteger.ZERO);
        if (defect == Defect.SHORT_MEMORY) {
            needed = needed.subtract(BigInteger.ONE).max(BigInteger.ZERO);
            return needed.compareTo(BigInteger.valueOf(MEMORY_CAP)) > 0 ? MEMORY_CAP : needed.longValue();
        }
        if (needed.compareTo(BigInteger.valueOf(MEMORY_CAP)) > 0) {
            return MEMORY_CAP;
        }
        return needed.longValue() + guardTail;
    }

    /**
     * What {@code Tensor.create} (or {@code Tensor.placeholder}) must give for this recipe, with
     * {@code memoryBytes} of memory: {@code null} when it must accept it, else the status. The
     * rules are aclCreateTensor's as {@link Tensor#create} documents them: 161002 for a negative
     * dimension, stride or offset, more than 8 dimensions, a view or storage beyond 2^63 elements
     * or bytes, a view beyond its storage or a storage beyond its memory, or freed memory; 161001
     * for missing memory when the view has elements and nothing else is wrong.
     */
    AclnnStatus expectedCreation(long memoryBytes, boolean memoryFreed) {
        if (shape.length > Tensor.MAX_DIM || hasNegativeDimension() || numel().compareTo(LONG_MAX) > 0) {
            return AclnnStatus.ERR_PARAM_INVALID;
        }
        if (defect == Defect.PLACEHOLDER) {
            return contiguousStridesFit() ? null : AclnnStatus.ERR_PARAM_INVALID;
        }
        long[] st = strides();
        if (Arrays.stream(st).anyMatch(s -> s < 0) || effectiveOffset() < 0) {
            return AclnnStatus.ERR_PARAM_INVALID;
        }
        boolean hasElements = numel().signum() > 0;
        if (hasElements && reach().compareTo(LONG_MAX) > 0) {
            return AclnnStatus.ERR_PARAM_INVALID;
        }
        long[] storage = storageShape();
        BigInteger storageElements = storage == null ? storageElements() : BigInteger.valueOf(storage[0]);
        if (hasElements && reach().compareTo(storageElements) >= 0) {
            return AclnnStatus.ERR_PARAM_INVALID;
        }
        BigInteger bytes = storageElements.multiply(BigInteger.valueOf(dtype.byteSize()));
        if (bytes.compareTo(LONG_MAX) > 0) {
            return AclnnStatus.ERR_PARAM_INVALID;
        }
        if (defect == Defect.NULL_MEMORY) {
            return hasElements ? AclnnStatus.ERR_PARAM_NULLPTR : null;
        }
        if (memoryFreed) {
            return AclnnStatus.ERR_PARAM_INVALID;
        }
        return bytes.compareTo(BigInteger.valueOf(memoryBytes)) > 0 ? AclnnStatus.ERR_PARAM_INVALID : null;
    }

    /** Whether row-major strides of the shape (sizes 0 counted as 1) stay below 2^63 (placeholders use them). */
    private boolean contiguousStridesFit() {
        BigInteger running = BigInteger.ONE;
        for (int d = shape.length - 1; d > 0; d--) {
            running = running.multiply(BigInteger.valueOf(Math.max(shape[d], 1)));
            if (running.compareTo(LONG_MAX) > 0) {
                return false;
            }
        }
        return true;
    }

    private static long saturatingMultiply(long a, long b) {
        long high = Math.multiplyHigh(a, b);
        long low = a * b;
        return high != 0 || low < 0 ? Long.MAX_VALUE : low;
    }

    @Override
    public String toString() {
        return dtype + " " + format + " " + Arrays.toString(shape) + " " + layout + " offset " + offset
                + (defect == Defect.NONE ? "" : " " + defect + "(" + detail + ")");
    }
}
