package io.opscv;

import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Format;
import io.opscv.runtime.Tensor;
import io.opscv.testing.Phase2;
import io.opscv.testing.TestDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Assertions;

/** The facade's expected results, computed through the two-phase ACL mirror the way its own users call it. */
final class Mirror {
    private Mirror() {}

    /** Runs {@code phase1} and its phase 2 on a fresh device, from the raw bytes {@code in}; the output's raw bytes. */
    static byte[] run(long[] inShape, long[] outShape, DataType dtype, Format format, byte[] in,
                      BiFunction<Tensor, Tensor, WorkspaceAndExecutor> phase1, Phase2.Call phase2) {
        try (TestDevice dev = new TestDevice();
             Arena arena = Arena.ofConfined()) {
            MemorySegment raw = arena.allocate(Math.max(in.length, 1));
            MemorySegment.copy(in, 0, raw, ValueLayout.JAVA_BYTE, 0, in.length);
            Tensor x = dev.fromRaw(inShape, dtype, raw.asSlice(0, in.length), format);
            long outBytes = numel(outShape) * dtype.byteSize();
            Tensor y = dev.fromRaw(outShape, dtype, arena.allocate(Math.max(outBytes, 1)).asSlice(0, outBytes), format);
            Phase2.run(dev, phase1.apply(x, y), phase2);
            return y.segment().asSlice(0, outBytes).toArray(ValueLayout.JAVA_BYTE);
        }
    }

    static long numel(long[] shape) {
        long n = 1;
        for (long s : shape) {
            n *= s;
        }
        return n;
    }

    /** Raw bytes of {@code count} random values exactly representable in {@code dtype}, with a few non-finite ones. */
    static byte[] values(long count, DataType dtype, long seed) {
        float[] v = TestDevice.randomValues((int) count, seed);
        SplittableRandom random = new SplittableRandom(seed ^ 0x5DEECE66DL);
        if (count > 8) {
            v[random.nextInt((int) count)] = Float.POSITIVE_INFINITY;
            v[random.nextInt((int) count)] = Float.NaN;
        }
        MemorySegment out = MemorySegment.ofArray(new byte[(int) count * dtype.byteSize()]);
        for (int i = 0; i < count; i++) {
            switch (dtype) {
                case FLOAT -> out.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, v[i]);
                case FLOAT16 -> out.setAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i, Float.floatToFloat16(v[i]));
                case BF16 -> out.setAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i,
                        (short) (Float.floatToRawIntBits(v[i]) >>> 16));
                default -> throw new IllegalArgumentException(dtype.toString());
            }
        }
        return out.toArray(ValueLayout.JAVA_BYTE);
    }

    /**
     * Asserts that two raw {@code dtype} tensors hold the same bits, every NaN counted as equal:
     * IEEE 754 leaves a NaN result's sign and payload unspecified, and the JIT may swap the operands
     * of an add, so the mirror and the facade may disagree on them from one compilation to the next.
     */
    static void assertSameBits(byte[] expected, byte[] actual, DataType dtype, String message) {
        Assertions.assertArrayEquals(canonicalNaNs(expected, dtype), canonicalNaNs(actual, dtype), message);
    }

    private static byte[] canonicalNaNs(byte[] raw, DataType dtype) {
        MemorySegment seg = MemorySegment.ofArray(raw.clone());
        if (dtype == DataType.FLOAT) {
            for (long i = 0; i < seg.byteSize() / 4; i++) {
                if (Float.isNaN(seg.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i))) {
                    seg.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i, 0x7fc00000);
                }
            }
        } else {
            int inf = dtype == DataType.FLOAT16 ? 0x7c00 : 0x7f80;
            short quiet = (short) (dtype == DataType.FLOAT16 ? 0x7e00 : 0x7fc0);
            for (long i = 0; i < seg.byteSize() / 2; i++) {
                if ((seg.getAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i) & 0x7fff) > inf) {
                    seg.setAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i, quiet);
                }
            }
        }
        return seg.toArray(ValueLayout.JAVA_BYTE);
    }

    static float[] floats(byte[] raw) {
        return MemorySegment.ofArray(raw).toArray(ValueLayout.JAVA_FLOAT_UNALIGNED);
    }

    static short[] shorts(byte[] raw) {
        return MemorySegment.ofArray(raw).toArray(ValueLayout.JAVA_SHORT_UNALIGNED);
    }

    static byte[] bytes(float[] values) {
        return MemorySegment.ofArray(values).toArray(ValueLayout.JAVA_BYTE);
    }

    static byte[] bytes(short[] values) {
        return MemorySegment.ofArray(values).toArray(ValueLayout.JAVA_BYTE);
    }
}
