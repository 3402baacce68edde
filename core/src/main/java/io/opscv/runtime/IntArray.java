package io.opscv.runtime;

import java.util.Arrays;

/** {@code aclCreateIntArray}: an immutable array of 64-bit integers (sizes, shapes). */
public final class IntArray implements AutoCloseable {
    private final long[] values;
    private volatile boolean destroyed;

    private IntArray(long[] values) {
        this.values = values;
    }

    /** {@code aclCreateIntArray(value, size)}. */
    public static IntArray of(long... values) {
        if (values == null) {
            throw AclnnException.nullptr("Expected a proper array but got null for argument value.");
        }
        return new IntArray(values.clone());
    }

    public int size() {
        return values.length;
    }

    /** Element {@code i}, 0 ≤ i &lt; {@link #size()}. */
    public long get(int i) {
        if (i < 0 || i >= values.length) {
            throw AclnnException.invalid("Index " + i + " is out of range for an IntArray of size " + values.length + ".");
        }
        return values[i];
    }

    /** The values (a copy). */
    public long[] toArray() {
        return values.clone();
    }

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
