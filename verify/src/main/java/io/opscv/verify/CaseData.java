package io.opscv.verify;

import io.opscv.kernel.ElementCodec;
import io.opscv.npy.Npy;
import io.opscv.npy.NpyDtype;
import io.opscv.npy.NpyFormatException;
import io.opscv.npy.NpyHeader;
import io.opscv.runtime.DataType;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The values of a case: its input in the operator's encoding (off-heap, as the operator reads it), and
 * float64 arrays of the input, the expected values, the bound and the result for judging.
 */
final class CaseData {
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED;

    private CaseData() {}

    /** The case's input, {@code shape} elements in its dtype's encoding, allocated in {@code arena}. */
    static MemorySegment input(CheckCase c, long[] shape, Arena arena) throws IOException {
        long count = numel(shape);
        MemorySegment bytes = arena.allocate(Math.max(1, count * c.dataType().byteSize()), 8);
        switch (c.input()) {
            case InputSource.File file -> readEncoded(file.path(), "input", c.dataType(), shape, bytes);
            case InputSource.Drawn drawn -> encode(drawn.values().draw(drawn.seed(), Math.toIntExact(count)), c.dataType(), bytes);
            case InputSource.Listed listed -> encode(listed.fill(Math.toIntExact(count)), c.dataType(), bytes);
            case InputSource.Unused unused -> throw new IllegalStateException(c.name() + " has no input: it only expects a status");
        }
        return bytes.asSlice(0, count * c.dataType().byteSize());
    }

    /** A result produced elsewhere ({@code actual}), in the case's dtype's encoding, widened to float64. */
    static double[] actual(Path file, DataType type, long[] shape) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            long count = numel(shape);
            MemorySegment bytes = arena.allocate(Math.max(1, count * type.byteSize()), 8);
            readEncoded(file, "actual", type, shape, bytes);
            return decode(bytes, type, Math.toIntExact(count));
        }
    }

    /** A float64 .npy ({@code <f8}) of {@code shape}: expected values or bounds. */
    static double[] float64(Path file, String field, long[] shape) throws IOException {
        NpyHeader header = Npy.readHeader(file);
        if (!header.descr().equals("<f8")) {
            throw new NpyFormatException(field + " " + file + ": holds '" + header.descr() + "', expected float64 '<f8'");
        }
        requireShape(header, field, file, shape);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment bytes = arena.allocate(Math.max(8, header.dataBytes()), 8);
            Npy.readData(file, header, bytes);
            return bytes.asSlice(0, header.dataBytes()).toArray(ValueLayout.JAVA_DOUBLE);
        }
    }

    private static void readEncoded(Path file, String field, DataType type, long[] shape, MemorySegment dst) throws IOException {
        NpyHeader header = Npy.readHeader(file);
        DataType held = NpyDtype.toDataType(header.descr(), type == DataType.BF16 && header.descr().endsWith("u2"));
        if (held != type) {
            throw new NpyFormatException(field + " " + file + ": holds '" + header.descr() + "' (" + held.dtName()
                    + "), but the case's dtype " + CaseFiles.dtypeName(type) + " is stored as '" + NpyDtype.toDescr(type) + "'"
                    + (type == DataType.BF16 ? " (bfloat16 bits)" : ""));
        }
        requireShape(header, field, file, shape);
        Npy.readData(file, header, dst);
    }

    private static void requireShape(NpyHeader header, String field, Path file, long[] shape) throws NpyFormatException {
        if (!Arrays.equals(header.shape(), shape)) {
            throw new NpyFormatException(field + " " + file + ": has shape " + Arrays.toString(header.shape()) + ", but the case needs "
                    + Arrays.toString(shape));
        }
    }

    /** Writes {@code values} to {@code dst} in {@code type}'s encoding, rounding to nearest even. */
    static void encode(double[] values, DataType type, MemorySegment dst) {
        for (int k = 0; k < values.length; k++) {
            float f = (float) values[k];
            switch (type) {
                case FLOAT -> dst.set(F32, 4L * k, f);
                case FLOAT16 -> dst.set(U16, 2L * k, Float.floatToFloat16(f));
                case BF16 -> dst.set(U16, 2L * k, ElementCodec.floatToBf16(f));
                default -> throw new IllegalArgumentException("no encoding for " + type);
            }
        }
    }

    /** The first {@code count} elements of {@code src} in {@code type}'s encoding, widened to float64 (exactly). */
    static double[] decode(MemorySegment src, DataType type, int count) {
        double[] values = new double[count];
        for (int k = 0; k < count; k++) {
            values[k] = switch (type) {
                case FLOAT -> src.get(F32, 4L * k);
                case FLOAT16 -> Float.float16ToFloat(src.get(U16, 2L * k));
                case BF16 -> ElementCodec.bf16ToFloat(src.get(U16, 2L * k));
                default -> throw new IllegalArgumentException("no encoding for " + type);
            };
        }
        return values;
    }

    static double[] abs(double[] values) {
        double[] out = new double[values.length];
        for (int k = 0; k < values.length; k++) {
            out[k] = Math.abs(values[k]);
        }
        return out;
    }

    static boolean allOnes(double[] values) {
        if (values.length == 0) {
            return false;
        }
        for (double v : values) {
            if (v != 1.0) {
                return false;
            }
        }
        return true;
    }

    static long numel(long[] shape) {
        long count = 1;
        for (long d : shape) {
            count = Math.multiplyExact(count, d);
        }
        return count;
    }
}
