package io.opscv.testing;

import io.opscv.kernel.ElementCodec;
import io.opscv.runtime.AclRuntime;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Device;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Format;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A runtime, device and stream for tests, with helpers to put values into tensors of any dtype and
 * layout and to read a view back as doubles in row-major order.
 */
public final class TestDevice implements AutoCloseable {
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED;

    public final AclRuntime runtime;
    public final Device device;
    public final Stream stream;

    public TestDevice() {
        this(Platform.CPU);
    }

    public TestDevice(Platform platform) {
        runtime = AclRuntime.init(platform);
        device = runtime.setDevice(0);
        stream = device.createStream();
    }

    /** A contiguous tensor holding {@code values} rounded (to nearest even) to {@code type}. */
    public Tensor tensor(long[] shape, DataType type, float[] values) {
        return strided(shape, type, Tensor.contiguousStrides(shape), 0, values);
    }

    /**
     * A tensor with the given strides and offset whose logical (row-major) elements are {@code values};
     * the storage's other elements are filled with a sentinel (-7168, exact in every float dtype) so stray reads or writes show.
     */
    public Tensor strided(long[] shape, DataType type, long[] strides, long offset, float[] values) {
        return strided(shape, type, strides, offset, values, Format.ND);
    }

    /** A contiguous tensor of {@code format} (e.g. NCHW, NHWC: the shape is given in the format's order). */
    public Tensor tensor(long[] shape, DataType type, float[] values, Format format) {
        return strided(shape, type, Tensor.contiguousStrides(shape), 0, values, format);
    }

    /** As {@link #strided(long[], DataType, long[], long, float[])}, with a format tag. */
    public Tensor strided(long[] shape, DataType type, long[] strides, long offset, float[] values, Format format) {
        long last = offset;
        long numel = 1;
        for (int d = 0; d < shape.length; d++) {
            last += (shape[d] - 1) * strides[d];
            numel *= shape[d];
        }
        long storage = numel == 0 ? Math.max(offset, 1) : last + 1;
        DeviceMemory memory = device.malloc(storage * type.byteSize());
        MemorySegment seg = memory.segment();
        for (long e = 0; e < storage; e++) {
            put(seg, type, e, SENTINEL);
        }
        Tensor t = Tensor.create(shape, type, strides, offset, format, new long[] {storage}, memory);
        long[] index = new long[shape.length];
        for (long k = 0; k < numel; k++) {
            long at = offset;
            for (int d = 0; d < shape.length; d++) {
                at += index[d] * strides[d];
            }
            put(seg, type, at, values[(int) k]);
            increment(index, shape);
        }
        return t;
    }

    /** Storage filler that marks elements no view should touch. */
    public static final float SENTINEL = -7168f;

    /** A tensor of {@code type} whose elements are given as raw storage bytes (e.g. bf16 bit patterns). */
    public Tensor fromRaw(long[] shape, DataType type, MemorySegment raw) {
        return fromRaw(shape, type, raw, Format.ND);
    }

    /** A contiguous tensor of {@code format} holding the raw storage bytes {@code raw}. */
    public Tensor fromRaw(long[] shape, DataType type, MemorySegment raw, Format format) {
        DeviceMemory memory = device.malloc(Math.max(raw.byteSize(), 1));
        MemorySegment.copy(raw, 0, memory.segment(), 0, raw.byteSize());
        return Tensor.create(shape, type, null, 0, format, shape, memory);
    }

    /** Values exactly representable in every dtype the operators take (multiples of 1/64 in [-4, 4)), from {@code seed}. */
    public static float[] randomValues(int count, long seed) {
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        float[] v = new float[count];
        for (int k = 0; k < count; k++) {
            v[k] = (random.nextInt(512) - 256) / 64f;
        }
        return v;
    }

    /** The view's elements, row-major, widened to double. */
    public static double[] read(Tensor t) {
        long[] shape = t.shape();
        long[] strides = t.strides();
        int numel = Math.toIntExact(t.numel());
        double[] out = new double[numel];
        long[] index = new long[shape.length];
        MemorySegment seg = t.segment();
        for (int k = 0; k < numel; k++) {
            long at = t.storageOffset();
            for (int d = 0; d < shape.length; d++) {
                at += index[d] * strides[d];
            }
            out[k] = get(seg, t.dataType(), at);
            increment(index, shape);
        }
        return out;
    }

    /** Every storage element of the tensor's memory, widened (to look for writes outside the view). */
    public static double[] readStorage(Tensor t) {
        MemorySegment seg = t.segment();
        int count = Math.toIntExact(seg.byteSize() / t.dataType().byteSize());
        double[] out = new double[count];
        for (int e = 0; e < count; e++) {
            out[e] = get(seg, t.dataType(), e);
        }
        return out;
    }

    static void put(MemorySegment seg, DataType type, long element, float value) {
        switch (type) {
            case FLOAT -> seg.set(F32, element * 4, value);
            case FLOAT16 -> seg.set(U16, element * 2, Float.floatToFloat16(value));
            case BF16 -> seg.set(U16, element * 2, ElementCodec.floatToBf16(value));
            case DOUBLE -> seg.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, element * 8, value);
            default -> {
                // Integer and other types: the operators reject them before reading; leave zeros.
            }
        }
    }

    static double get(MemorySegment seg, DataType type, long element) {
        return switch (type) {
            case FLOAT -> seg.get(F32, element * 4);
            case FLOAT16 -> Float.float16ToFloat(seg.get(U16, element * 2));
            case BF16 -> ElementCodec.bf16ToFloat(seg.get(U16, element * 2));
            case DOUBLE -> seg.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, element * 8);
            default -> throw new IllegalArgumentException("cannot read " + type);
        };
    }

    private static void increment(long[] index, long[] shape) {
        for (int d = shape.length - 1; d >= 0; d--) {
            if (++index[d] < shape[d]) {
                return;
            }
            index[d] = 0;
        }
    }

    @Override
    public void close() {
        runtime.close();
    }
}
