package io.opscv.npy;

import io.opscv.runtime.DataType;
import java.util.Map;

/**
 * The mapping between NumPy dtype descriptors and ACL dtypes. BFLOAT16 has no NumPy dtype: it is
 * stored as its raw 16-bit patterns in {@code <u2} and must be asked for explicitly.
 */
public final class NpyDtype {
    private static final Map<String, DataType> BY_DESCR = Map.ofEntries(
            Map.entry("f4", DataType.FLOAT),
            Map.entry("f2", DataType.FLOAT16),
            Map.entry("f8", DataType.DOUBLE),
            Map.entry("i1", DataType.INT8),
            Map.entry("u1", DataType.UINT8),
            Map.entry("i2", DataType.INT16),
            Map.entry("u2", DataType.UINT16),
            Map.entry("i4", DataType.INT32),
            Map.entry("u4", DataType.UINT32),
            Map.entry("i8", DataType.INT64),
            Map.entry("u8", DataType.UINT64),
            Map.entry("b1", DataType.BOOL),
            Map.entry("c8", DataType.COMPLEX64),
            Map.entry("c16", DataType.COMPLEX128));

    private NpyDtype() {}

    /**
     * The ACL dtype of a descriptor; {@code <u2} is {@link DataType#BF16} when {@code bf16} is set.
     *
     * @param descr the NumPy descriptor, e.g. {@code <f4}
     * @param bf16 whether {@code <u2} data holds bfloat16 bit patterns
     * @return the dtype
     * @throws NpyFormatException for big-endian, object, string or other unsupported descriptors
     */
    public static DataType toDataType(String descr, boolean bf16) throws NpyFormatException {
        if (descr.length() < 2) {
            throw new NpyFormatException("unsupported dtype descriptor '" + descr + "'");
        }
        char order = descr.charAt(0);
        String kind = descr.substring(1);
        if (order == '>') {
            throw new NpyFormatException("big-endian dtype '" + descr + "' is not supported: save the array as little-endian ('<')");
        }
        if (order != '<' && order != '|' && order != '=') {
            throw new NpyFormatException("unsupported dtype descriptor '" + descr + "'");
        }
        DataType type = BY_DESCR.get(kind);
        if (type == null) {
            throw new NpyFormatException("unsupported dtype '" + descr + "' (object, string, structured and other dtypes cannot be read)");
        }
        if (bf16) {
            if (type != DataType.UINT16) {
                throw new NpyFormatException("bfloat16 data must be stored as raw 16-bit patterns in '<u2', but the file holds '" + descr + "'");
            }
            return DataType.BF16;
        }
        return type;
    }

    /**
     * {@return the descriptor this library writes for {@code type}: {@code <f4}, {@code <f2}, {@code <u2} for BF16, ...}
     *
     * @param type the dtype
     */
    public static String toDescr(DataType type) {
        return switch (type) {
            case FLOAT -> "<f4";
            case FLOAT16 -> "<f2";
            case BF16, UINT16 -> "<u2";
            case DOUBLE -> "<f8";
            case INT8 -> "|i1";
            case UINT8 -> "|u1";
            case INT16 -> "<i2";
            case INT32 -> "<i4";
            case UINT32 -> "<u4";
            case INT64 -> "<i8";
            case UINT64 -> "<u8";
            case BOOL -> "|b1";
            case COMPLEX64 -> "<c8";
            case COMPLEX128 -> "<c16";
            case COMPLEX32 -> throw new IllegalArgumentException("NumPy has no dtype for " + type);
        };
    }

    /** Checks that {@code descr} is a descriptor this library reads (in any of its ACL meanings). */
    static void toDataTypeOrDescribe(String descr, java.nio.file.Path file) throws NpyFormatException {
        try {
            toDataType(descr, false);
        } catch (NpyFormatException e) {
            throw new NpyFormatException(file + ": " + e.getMessage());
        }
    }

    static int itemSize(String descr) {
        String digits = descr.replaceAll("[^0-9]", "");
        return digits.isEmpty() ? 0 : Integer.parseInt(digits);
    }
}
