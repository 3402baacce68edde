package io.opscv;

import io.opscv.runtime.DataType;
import java.lang.foreign.MemorySegment;

/** The facade's argument checks: sizes that overflow, arrays and segments of the wrong length, unusable segments. */
final class Operands {
    private Operands() {}

    /** {@code value}, which must be ≥ 0. */
    static long size(long value, String name) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must be >= 0, but got " + value + ".");
        }
        return value;
    }

    /** The product of {@code sizes}, refused when it overflows a long. */
    static long elements(String what, long... sizes) {
        long product = 1;
        for (long s : sizes) {
            try {
                product = Math.multiplyExact(product, s);
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException(what + " has more than 2^63 elements.", e);
            }
        }
        return product;
    }

    /** The length a heap array for {@code elements} needs, refused above the largest Java array. */
    static int arrayLength(long elements, String what) {
        if (elements > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(what + " has " + elements + " elements, more than a Java array holds:"
                    + " use the MemorySegment form.");
        }
        return (int) elements;
    }

    static void notNull(Object argument, String name) {
        if (argument == null) {
            throw new IllegalArgumentException("Expected an array for " + name + " but got null.");
        }
    }

    static void array(Object array, int length, long expected, String name, String shape) {
        notNull(array, name);
        if (length != expected) {
            throw new IllegalArgumentException(name + " has " + length + " elements, but " + shape + " needs " + expected
                    + ".");
        }
    }

    /** A slice of {@code count} elements of {@code array} from {@code offset}, checked against its length. */
    static void range(int arrayLength, int offset, long count, String name) {
        if (offset < 0 || offset > arrayLength || count > arrayLength - offset) {
            throw new IllegalArgumentException(name + ": " + count + " elements from offset " + offset
                    + " do not fit in an array of " + arrayLength + ".");
        }
    }

    static void bits16(DataType dtype) {
        if (dtype != DataType.FLOAT16 && dtype != DataType.BF16) {
            throw new IllegalArgumentException("short[] holds FLOAT16 or BF16 bit patterns, but got dtype " + dtype + ".");
        }
    }

    /**
     * Checks a segment argument: present, alive, accessible from this thread, of exactly
     * {@code elements} elements of {@code dtype}, and writable when it is an output.
     */
    static void segment(MemorySegment segment, long elements, DataType dtype, String name, String shape,
                        boolean output) {
        if (segment == null) {
            throw new IllegalArgumentException("Expected a MemorySegment for " + name + " but got null.");
        }
        if (dtype == null) {
            throw new IllegalArgumentException("Expected a DataType but got null.");
        }
        if (!segment.scope().isAlive()) {
            throw new IllegalArgumentException(name + "'s arena is closed.");
        }
        if (!segment.isAccessibleBy(Thread.currentThread())) {
            throw new IllegalArgumentException(name + " is confined to another thread.");
        }
        if (output && segment.isReadOnly()) {
            throw new IllegalArgumentException(name + " is read-only.");
        }
        long expected = elements(shape, elements, dtype.byteSize());
        if (segment.byteSize() != expected) {
            throw new IllegalArgumentException(name + " holds " + segment.byteSize() + " bytes, but " + shape + " of "
                    + dtype + " needs " + expected + ".");
        }
    }

    /** Refuses an output that shares bytes with the input: the result would depend on the order of the writes. */
    static void disjoint(MemorySegment in, String inName, MemorySegment out, String outName) {
        if (in.byteSize() > 0 && out.byteSize() > 0 && in.asOverlappingSlice(out).isPresent()) {
            throw new IllegalArgumentException(outName + " shares memory with " + inName + ": in-place calls are refused.");
        }
    }
}
