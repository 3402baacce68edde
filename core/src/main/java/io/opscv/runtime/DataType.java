package io.opscv.runtime;

/**
 * The ACL data types ({@code aclDataType}), with their C codes, the names the operators print
 * ({@code DT_FLOAT}, ...), and their element sizes in bytes. The operators support only
 * {@link #FLOAT}, {@link #FLOAT16} and {@link #BF16}; the rest exist so that validation can reject
 * them by name, as upstream does.
 */
public enum DataType {
    /** {@code DT_FLOAT}, code 0, 4 bytes. */
    FLOAT(0, "DT_FLOAT", 4),
    /** {@code DT_FLOAT16}, code 1, 2 bytes. */
    FLOAT16(1, "DT_FLOAT16", 2),
    /** {@code DT_INT8}, code 2, 1 byte. */
    INT8(2, "DT_INT8", 1),
    /** {@code DT_INT32}, code 3, 4 bytes. */
    INT32(3, "DT_INT32", 4),
    /** {@code DT_UINT8}, code 4, 1 byte. */
    UINT8(4, "DT_UINT8", 1),
    /** {@code DT_INT16}, code 6, 2 bytes. */
    INT16(6, "DT_INT16", 2),
    /** {@code DT_UINT16}, code 7, 2 bytes. */
    UINT16(7, "DT_UINT16", 2),
    /** {@code DT_UINT32}, code 8, 4 bytes. */
    UINT32(8, "DT_UINT32", 4),
    /** {@code DT_INT64}, code 9, 8 bytes. */
    INT64(9, "DT_INT64", 8),
    /** {@code DT_UINT64}, code 10, 8 bytes. */
    UINT64(10, "DT_UINT64", 8),
    /** {@code DT_DOUBLE}, code 11, 8 bytes. */
    DOUBLE(11, "DT_DOUBLE", 8),
    /** {@code DT_BOOL}, code 12, 1 byte. */
    BOOL(12, "DT_BOOL", 1),
    /** {@code DT_COMPLEX64}, code 16, 8 bytes. */
    COMPLEX64(16, "DT_COMPLEX64", 8),
    /** {@code DT_COMPLEX128}, code 17, 16 bytes. */
    COMPLEX128(17, "DT_COMPLEX128", 16),
    /** {@code DT_BF16}, code 27, 2 bytes. */
    BF16(27, "DT_BF16", 2),
    /** {@code DT_COMPLEX32}, code 33, 4 bytes. */
    COMPLEX32(33, "DT_COMPLEX32", 4);

    private final int aclCode;
    private final String dtName;
    private final int byteSize;

    DataType(int aclCode, String dtName, int byteSize) {
        this.aclCode = aclCode;
        this.dtName = dtName;
        this.byteSize = byteSize;
    }

    /** {@return the {@code aclDataType} value, e.g. 27 for {@code ACL_BF16}} */
    public int aclCode() {
        return aclCode;
    }

    /** {@return the name used in operator messages, e.g. {@code DT_BF16}} */
    public String dtName() {
        return dtName;
    }

    /** {@return size of one element in bytes} */
    public int byteSize() {
        return byteSize;
    }

    /** {@return true for the three floating types the upsample operators compute on} */
    public boolean isComputeType() {
        return this == FLOAT || this == FLOAT16 || this == BF16;
    }

    @Override
    public String toString() {
        return dtName;
    }
}
