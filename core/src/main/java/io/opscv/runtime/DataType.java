package io.opscv.runtime;

/**
 * The ACL data types ({@code aclDataType}), with their C codes, the names the operators print
 * ({@code DT_FLOAT}, ...), and their element sizes in bytes. The operators support only
 * {@link #FLOAT}, {@link #FLOAT16} and {@link #BF16}; the rest exist so that validation can reject
 * them by name, as upstream does.
 */
public enum DataType {
    FLOAT(0, "DT_FLOAT", 4),
    FLOAT16(1, "DT_FLOAT16", 2),
    INT8(2, "DT_INT8", 1),
    INT32(3, "DT_INT32", 4),
    UINT8(4, "DT_UINT8", 1),
    INT16(6, "DT_INT16", 2),
    UINT16(7, "DT_UINT16", 2),
    UINT32(8, "DT_UINT32", 4),
    INT64(9, "DT_INT64", 8),
    UINT64(10, "DT_UINT64", 8),
    DOUBLE(11, "DT_DOUBLE", 8),
    BOOL(12, "DT_BOOL", 1),
    COMPLEX64(16, "DT_COMPLEX64", 8),
    COMPLEX128(17, "DT_COMPLEX128", 16),
    BF16(27, "DT_BF16", 2),
    COMPLEX32(33, "DT_COMPLEX32", 4);

    private final int aclCode;
    private final String dtName;
    private final int byteSize;

    DataType(int aclCode, String dtName, int byteSize) {
        this.aclCode = aclCode;
        this.dtName = dtName;
        this.byteSize = byteSize;
    }

    /** The {@code aclDataType} value, e.g. 27 for {@code ACL_BF16}. */
    public int aclCode() {
        return aclCode;
    }

    /** The name used in operator messages, e.g. {@code DT_BF16}. */
    public String dtName() {
        return dtName;
    }

    /** Size of one element in bytes. */
    public int byteSize() {
        return byteSize;
    }

    /** True for the three floating types the upsample operators compute on. */
    public boolean isComputeType() {
        return this == FLOAT || this == FLOAT16 || this == BF16;
    }

    @Override
    public String toString() {
        return dtName;
    }
}
