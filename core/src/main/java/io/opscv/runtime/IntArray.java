package io.opscv.runtime;

import java.util.Arrays;

/** {@code aclCreateIntArray}: an immutable array of 64-bit integers (sizes, shapes). */
public final class IntArray implements AutoCloseable {
    private final long[] values;
    private volatile boolean destroyed;

    private IntArray(long[] values) {
        this.values = values;
    }

    /**
     * {@code aclCreateIntArray(value, size)}.
     *
     * @param values the elements, copied (161001 when null)
     * @return the array
     */
    public static IntArray of(long... values) {
        if (values == null) {
            throw AclnnException.nullptr("Expected a proper array but got null for argument value.");
        }
        return new IntArray(values.clone());
    }

    /** {@return the number of elements} */
    public int size() {
        return values.length;
    }

    /**
     * {@return element {@code i}}
     *
     * @param i the index, 0 ≤ i &lt; {@link #size()} (161002 otherwise)
     */
    public long get(int i) {
        if (i < 0 || i >= values.length) {
            throw AclnnException.invalid("Index " + i + " is out of range for an IntArray of size " + values.length + ".");
        }
        return values[i];
    }

    /** {@return a copy of the values} */
    public long[] toArray() {
        return values.clone();
    }

    /** {@return false once {@code aclDestroyIntArray} ({@link #close()}) has been called} */
    public boolean isUsable() {
        return !destroyed;
    }

    /** {@code aclDestroyIntArray}. */
    @Override
    public void close() {
        destroyed = true;
    }

    @Override
    public String toString() {
        return Arrays.toString(values);
    }
}
