package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.opscv.runtime.DataType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The Vector API provider's in-register FP16/BF16 conversions agree with the scalar reference
 * ({@link ElementCodec}): decoding on every one of the 65536 bit patterns, encoding on every FP16 /
 * BF16 value, the midpoints between neighbours (the ties of round-to-nearest-even) and their float
 * neighbours, the overflow and subnormal boundaries, and random bit patterns. NaN is compared as
 * "is NaN" (its payload is not specified).
 */
class ProviderCodecTest {
    private static final KernelProvider SCALAR = KernelProviders.scalar();
    private static final KernelProvider VECTOR = KernelProviders.vector();

    @Test
    void decodingEveryBitPatternMatchesTheReference() {
        assertNotNull(VECTOR);
        for (DataType type : new DataType[] {DataType.FLOAT16, DataType.BF16}) {
            try (Arena arena = Arena.ofConfined()) {
                // Odd count and offsets: vector body plus scalar tail.
                int count = 65536 + 5;
                MemorySegment seg = arena.allocate(2L * (count + 3), 2);
                for (int k = 0; k < count; k++) {
                    seg.set(ElementCodec.U16, 2L * (k + 3), (short) k);
                }
                float[] expected = new float[count + 1];
                float[] actual = new float[count + 1];
                SCALAR.decodeRun(seg, type, 3, count, expected, 1);
                VECTOR.decodeRun(seg, type, 3, count, actual, 1);
                for (int k = 1; k <= count; k++) {
                    assertEquals(KernelCase.canonical(Float.floatToRawIntBits(expected[k]), DataType.FLOAT),
                            KernelCase.canonical(Float.floatToRawIntBits(actual[k]), DataType.FLOAT),
                            type + " bits 0x" + Integer.toHexString((k - 1) & 0xffff));
                }
            }
        }
    }

    @Test
    void encodingMatchesTheReferenceOnTiesBoundariesAndRandomFloats() {
        for (DataType type : new DataType[] {DataType.FLOAT16, DataType.BF16, DataType.FLOAT}) {
            float[] values = encodingProbes(type);
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment expected = arena.allocate((long) type.byteSize() * (values.length + 2), 4);
                MemorySegment actual = arena.allocate((long) type.byteSize() * (values.length + 2), 4);
                SCALAR.encodeRun(values, 0, values.length, expected, type, 1);
                VECTOR.encodeRun(values, 0, values.length, actual, type, 1);
                for (int k = 0; k < values.length; k++) {
                    long at = (long) (k + 1) * type.byteSize();
                    int e = type == DataType.FLOAT ? Float.floatToRawIntBits(expected.get(ElementCodec.F32, at))
                            : expected.get(ElementCodec.U16, at) & 0xffff;
                    int a = type == DataType.FLOAT ? Float.floatToRawIntBits(actual.get(ElementCodec.F32, at))
                            : actual.get(ElementCodec.U16, at) & 0xffff;
                    assertEquals(KernelCase.canonical(e, type), KernelCase.canonical(a, type),
                            type + " of " + values[k] + " (0x" + Integer.toHexString(Float.floatToRawIntBits(values[k])) + ")");
                }
            }
        }
    }

    /**
     * The wide 16-bit calls' conversions into and out of native FLOAT scratch ({@code widen16}, {@code narrow16}):
     * every bit pattern widened, and the encoding probes rounded, from odd element offsets and with a tail shorter
     * than a vector, against the codec. BF16's widening is compared bit for bit (it is a shift), NaNs made canonical
     * elsewhere.
     */
    @Test
    void scratchConversionsMatchTheCodec() {
        assertNotNull(VECTOR);
        for (DataType type : new DataType[] {DataType.FLOAT16, DataType.BF16}) {
            try (Arena arena = Arena.ofConfined()) {
                int count = 65536 + 5;
                MemorySegment halfs = arena.allocate(2L * (count + 3), 2);
                for (int k = 0; k < count; k++) {
                    halfs.set(ElementCodec.U16, 2L * (k + 3), (short) k);
                }
                MemorySegment floats = arena.allocate(4L * (count + 2), 4);
                float[] expected = new float[count];
                ElementCodec.decode(halfs, type, 3, 1, count, expected, 0);
                for (int k0 = 0; k0 < count; k0 += VectorKernelProvider.SCRATCH_BLOCK * 4) {
                    int n = Math.min(VectorKernelProvider.SCRATCH_BLOCK * 4, count - k0);
                    VectorKernelProvider.widen16(halfs, type, 3 + k0, n, floats, 8 + 4L * k0);
                }
                for (int k = 0; k < count; k++) {
                    int e = Float.floatToRawIntBits(expected[k]);
                    int a = floats.get(ValueLayout.JAVA_INT_UNALIGNED, 8 + 4L * k);
                    assertEquals(type == DataType.BF16 ? e : KernelCase.canonical(e, DataType.FLOAT),
                            type == DataType.BF16 ? a : KernelCase.canonical(a, DataType.FLOAT),
                            type + " widened bits 0x" + Integer.toHexString(k & 0xffff));
                }
            }
            float[] values = encodingProbes(type);
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment floats = arena.allocate(4L * (values.length + 1), 4);
                MemorySegment.copy(values, 0, floats, ValueLayout.JAVA_FLOAT_UNALIGNED, 4, values.length);
                MemorySegment expected = arena.allocate(2L * (values.length + 1), 2);
                MemorySegment actual = arena.allocate(2L * (values.length + 1), 2);
                ElementCodec.encode(values, 0, values.length, expected, type, 1, 1);
                for (int k0 = 0; k0 < values.length; k0 += 4093) {
                    int n = Math.min(4093, values.length - k0);
                    VectorKernelProvider.narrow16(floats, 4 + 4L * k0, n, actual, type, 1 + k0);
                }
                for (int k = 0; k < values.length; k++) {
                    long at = 2L * (k + 1);
                    assertEquals(KernelCase.canonical(expected.get(ElementCodec.U16, at) & 0xffff, type),
                            KernelCase.canonical(actual.get(ElementCodec.U16, at) & 0xffff, type),
                            type + " of " + values[k] + " (0x" + Integer.toHexString(Float.floatToRawIntBits(values[k]))
                            + ")");
                }
            }
        }
    }

    @Test
    void decodingNeighbouringRowsPositionMajorMatchesTheReference() {
        // 48 rows side by side (3 vectors of 16), 50 positions 70 elements apart.
        int rows = 48;
        int count = 50;
        long stride = 70;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(4L * (7 + count * stride + rows), 4);
            for (long e = 0; e < seg.byteSize() / 4; e++) {
                seg.set(ElementCodec.F32, 4 * e, e * 0.5f - 3);
            }
            float[] expected = new float[rows * count];
            float[] actual = new float[rows * count];
            SCALAR.decodeSideBySide(seg, DataType.FLOAT, 7, stride, rows, count, expected);
            VECTOR.decodeSideBySide(seg, DataType.FLOAT, 7, stride, rows, count, actual);
            assertEquals(java.util.Arrays.toString(expected), java.util.Arrays.toString(actual));
            // Spot check of the reference itself: row 2, position 3 is element 7 + 3 * stride + 2.
            assertEquals((7 + 3 * stride + 2) * 0.5f - 3, expected[3 * rows + 2]);
        }
    }

    private static float[] encodingProbes(DataType type) {
        int grid = 65536;
        float[] probes = new float[grid * 5 + 200_000];
        int n = 0;
        for (int h = 0; h < grid; h++) {
            float v = type == DataType.BF16 ? ElementCodec.bf16ToFloat((short) h) : Float.float16ToFloat((short) h);
            float next = type == DataType.BF16 ? ElementCodec.bf16ToFloat((short) (h + 1))
                    : Float.float16ToFloat((short) (h + 1));
            float tie = (float) (((double) v + (double) next) / 2);
            probes[n++] = v;
            probes[n++] = tie;
            probes[n++] = Math.nextUp(tie);
            probes[n++] = Math.nextDown(tie);
            probes[n++] = Math.nextUp(v);
        }
        Random random = new Random(42);
        for (int k = 0; k < 200_000; k++) {
            probes[n++] = k % 2 == 0 ? Float.intBitsToFloat(random.nextInt())
                    : (float) (random.nextGaussian() * Math.pow(2, random.nextInt(60) - 30));
        }
        return probes;
    }
}
