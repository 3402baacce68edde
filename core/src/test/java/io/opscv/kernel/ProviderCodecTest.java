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
                MemorySegment lanes = arena.allocate((long) type.byteSize() * (values.length + 2), 4);
                SCALAR.encodeRun(values, 0, values.length, expected, type, 1);
                VECTOR.encodeRun(values, 0, values.length, actual, type, 1);
                // The same floats as rows side by side (a vector per position, its own rounding in registers).
                int positions = values.length / VECTOR.lanes();
                VECTOR.encodeLanes(values, 0, positions, lanes, type, 1, VECTOR.lanes());
                for (int k = 0; k < values.length; k++) {
                    long at = (long) (k + 1) * type.byteSize();
                    int e = type == DataType.FLOAT ? Float.floatToRawIntBits(expected.get(ElementCodec.F32, at))
                            : expected.get(ElementCodec.U16, at) & 0xffff;
                    int a = type == DataType.FLOAT ? Float.floatToRawIntBits(actual.get(ElementCodec.F32, at))
                            : actual.get(ElementCodec.U16, at) & 0xffff;
                    String what = type + " of " + values[k] + " (0x" + Integer.toHexString(Float.floatToRawIntBits(values[k])) + ")";
                    assertEquals(KernelCase.canonical(e, type), KernelCase.canonical(a, type), what);
                    if (k < positions * VECTOR.lanes()) {
                        int l = type == DataType.FLOAT ? Float.floatToRawIntBits(lanes.get(ElementCodec.F32, at))
                                : lanes.get(ElementCodec.U16, at) & 0xffff;
                        assertEquals(KernelCase.canonical(e, type), KernelCase.canonical(l, type), what + " side by side");
                    }
                }
            }
        }
    }

    /**
     * Runs of every length up to three vectors, from a source with room for a whole last vector (its slack holding
     * NaN and huge values), are written as the codec writes them, tails included (a NaN among them too), and
     * nothing past the run is touched.
     */
    @Test
    void runsWithAPartialLastVectorWriteExactlyTheirElements() {
        int lanes = VECTOR.lanes();
        for (DataType type : new DataType[] {DataType.BF16, DataType.FLOAT16, DataType.FLOAT}) {
            for (int count = 1; count <= 3 * lanes + 1; count++) {
                float[] values = new float[count + lanes];
                java.util.Random random = new java.util.Random(count);
                for (int k = 0; k < values.length; k++) {
                    values[k] = k < count ? (float) random.nextGaussian() * 300 : k % 2 == 0 ? Float.NaN : 3e38f;
                }
                if (count > lanes) {
                    values[count - 1] = Float.NaN;
                }
                try (Arena arena = Arena.ofConfined()) {
                    long bytes = (long) type.byteSize() * (values.length + 4);
                    MemorySegment expected = arena.allocate(bytes, 4);
                    MemorySegment actual = arena.allocate(bytes, 4);
                    expected.fill((byte) 0x5a);
                    actual.fill((byte) 0x5a);
                    SCALAR.encodeRun(values, 0, count, expected, type, 2);
                    VECTOR.encodeRun(values, 0, count, actual, type, 2);
                    for (int k = 0; k < values.length + 4; k++) {
                        long at = (long) k * type.byteSize();
                        int e = type == DataType.FLOAT ? Float.floatToRawIntBits(expected.get(ElementCodec.F32, at))
                                : expected.get(ElementCodec.U16, at) & 0xffff;
                        int a = type == DataType.FLOAT ? Float.floatToRawIntBits(actual.get(ElementCodec.F32, at))
                                : actual.get(ElementCodec.U16, at) & 0xffff;
                        boolean inRun = k >= 2 && k < count + 2;
                        assertEquals(inRun ? KernelCase.canonical(e, type) : e,
                                inRun ? KernelCase.canonical(a, type) : a, type + ", a run of " + count + ", element " + k);
                    }
                }
            }
        }
    }

    /**
     * Short rows (a partial last vector each) read like the codec, their slack up to whole vectors +0,
     * whether NaN bits follow them in the segment (read whole, the lanes past the row zeroed in registers)
     * or the segment ends with the last row (read masked).
     */
    @Test
    void shortRowsReadLikeTheCodecWhateverFollowsThem() {
        int lanes = VECTOR.lanes();
        for (DataType type : new DataType[] {DataType.FLOAT, DataType.FLOAT16, DataType.BF16}) {
            for (int count = 1; count <= 2 * lanes + 3; count++) {
                int rows = 3;
                int pitch = count + 5;
                try (Arena arena = Arena.ofConfined()) {
                    // The last row ends the segment; garbage fills the gaps between rows.
                    MemorySegment seg = arena.allocate((long) type.byteSize() * (2L * pitch + count), 4);
                    Random random = new Random(count);
                    for (long b = 0; b < seg.byteSize(); b++) {
                        seg.set(ValueLayout.JAVA_BYTE, b, (byte) 0xff);
                    }
                    long[] starts = {0, pitch, 2L * pitch};
                    float[] values = new float[rows * count];
                    for (int r = 0; r < rows; r++) {
                        for (int k = 0; k < count; k++) {
                            values[r * count + k] = (float) random.nextGaussian();
                        }
                        ElementCodec.encode(values, r * count, count, seg, type, starts[r], 1);
                    }
                    int stride = (count + lanes - 1) / lanes * lanes;
                    float[] tile = new float[rows * stride];
                    java.util.Arrays.fill(tile, Float.NaN);
                    VECTOR.decodeRows(seg, type, starts, 0, rows, count, tile, stride);
                    float[] one = new float[1];
                    for (int r = 0; r < rows; r++) {
                        for (int k = 0; k < stride; k++) {
                            float expected = 0f;
                            if (k < count) {
                                ElementCodec.decode(seg, type, starts[r] + k, 1, 1, one, 0);
                                expected = one[0];
                            }
                            assertEquals(Float.floatToRawIntBits(expected),
                                    Float.floatToRawIntBits(tile[r * stride + k]),
                                    type + ", rows of " + count + ", row " + r + " position " + k);
                        }
                    }
                }
            }
        }
    }

    /**
     * Rows side by side (a channels-last tensor): one vector per position in and out, for every dtype,
     * against the codec element by element, on every BF16/FP16 bit pattern's neighbourhood.
     */
    @Test
    void rowsSideBySideMoveLikeTheCodec() {
        int lanes = VECTOR.lanes();
        int count = 300;
        long stride = lanes + 5;
        for (DataType type : new DataType[] {DataType.FLOAT, DataType.FLOAT16, DataType.BF16}) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment seg = arena.allocate(type.byteSize() * (7 + count * stride + lanes), 4);
                Random random = new Random(type.ordinal());
                for (long e = 0; e < seg.byteSize() / 2; e++) {
                    seg.set(ElementCodec.U16, 2 * e, (short) random.nextInt());
                }
                float[] lanesBuffer = new float[count * lanes];
                VECTOR.decodeLanes(seg, type, 7, stride, count, lanesBuffer, 0);
                float[] one = new float[1];
                for (int k = 0; k < count; k++) {
                    for (int l = 0; l < lanes; l++) {
                        ElementCodec.decode(seg, type, 7 + k * stride + l, 1, 1, one, 0);
                        assertEquals(Float.floatToRawIntBits(one[0]), Float.floatToRawIntBits(lanesBuffer[k * lanes + l]),
                                type + " position " + k + " lane " + l);
                    }
                }
                float[] sums = new float[count * lanes];
                for (int m = 0; m < sums.length; m++) {
                    sums[m] = m % 97 == 0 ? Float.NaN : (float) (random.nextGaussian() * 1e3);
                }
                MemorySegment expected = arena.allocate(seg.byteSize(), 4);
                MemorySegment actual = arena.allocate(seg.byteSize(), 4);
                for (int k = 0; k < count; k++) {
                    ElementCodec.encode(sums, k * lanes, lanes, expected, type, 7 + k * stride, 1);
                }
                VECTOR.encodeLanes(sums, 0, count, actual, type, 7, stride);
                for (long e = 0; e < seg.byteSize() / type.byteSize(); e++) {
                    float[] x = new float[1];
                    float[] y = new float[1];
                    ElementCodec.decode(expected, type, e, 1, 1, x, 0);
                    ElementCodec.decode(actual, type, e, 1, 1, y, 0);
                    assertEquals(KernelCase.canonical(Float.floatToRawIntBits(x[0]), DataType.FLOAT),
                            KernelCase.canonical(Float.floatToRawIntBits(y[0]), DataType.FLOAT), type + " element " + e);
                }
            }
        }
    }

    /**
     * Rows a pitch apart (a padded out): each row rounded like the codec, element by element, and nothing
     * between the rows or past the last one touched; short rows (masked), whole vectors, and rows longer than
     * the masked-row limit, on ties, NaN and infinities.
     */
    @Test
    void rowsAPitchApartMoveLikeTheCodecAndLeaveTheGaps() {
        int lanes = VECTOR.lanes();
        Random random = new Random(7);
        float[] probes = encodingProbes(DataType.FLOAT16);
        for (DataType type : new DataType[] {DataType.FLOAT, DataType.FLOAT16, DataType.BF16}) {
            for (int length : new int[] {1, 3, 4, 7, 8, 11, 15, lanes, lanes + 5, 40, 70}) {
                for (long pitch : new long[] {length + 1, length + 7, 2L * length + 3}) {
                    int rows = 37;
                    float[] buf = new float[rows * length + lanes];
                    for (int i = 0; i < rows * length; i++) {
                        buf[i] = i % 53 == 0 ? Float.NaN : i % 59 == 0 ? Float.NEGATIVE_INFINITY
                                : probes[random.nextInt(probes.length)];
                    }
                    float[] copy = buf.clone();
                    try (Arena arena = Arena.ofConfined()) {
                        long bytes = type.byteSize() * (3 + rows * pitch + lanes);
                        MemorySegment expected = arena.allocate(bytes, 4);
                        MemorySegment actual = arena.allocate(bytes, 4);
                        MemorySegment scalar = arena.allocate(bytes, 4);
                        for (long b = 0; b < bytes; b++) {
                            byte marker = (byte) (b * 31 + 5);
                            expected.set(ValueLayout.JAVA_BYTE, b, marker);
                            actual.set(ValueLayout.JAVA_BYTE, b, marker);
                            scalar.set(ValueLayout.JAVA_BYTE, b, marker);
                        }
                        for (int r = 0; r < rows; r++) {
                            ElementCodec.encode(copy, r * length, length, expected, type, 3 + r * pitch, 1);
                        }
                        VECTOR.encodePitched(buf, new short[rows * length + lanes], length, rows, pitch, actual,
                                type, 3);
                        SCALAR.encodePitched(copy.clone(), new short[rows * length + lanes], length, rows, pitch,
                                scalar, type, 3);
                        for (long e = 0; e < bytes / type.byteSize(); e++) {
                            long at = e * type.byteSize();
                            int x = type == DataType.FLOAT ? Float.floatToRawIntBits(expected.get(ElementCodec.F32, at))
                                    : expected.get(ElementCodec.U16, at) & 0xffff;
                            int v = type == DataType.FLOAT ? Float.floatToRawIntBits(actual.get(ElementCodec.F32, at))
                                    : actual.get(ElementCodec.U16, at) & 0xffff;
                            int sc = type == DataType.FLOAT ? Float.floatToRawIntBits(scalar.get(ElementCodec.F32, at))
                                    : scalar.get(ElementCodec.U16, at) & 0xffff;
                            String what = type + " rows of " + length + " pitch " + pitch + " element " + e;
                            assertEquals(KernelCase.canonical(x, type), KernelCase.canonical(v, type), what);
                            assertEquals(KernelCase.canonical(x, type), KernelCase.canonical(sc, type), what + " scalar");
                        }
                    }
                }
            }
        }
    }

    /** Positions {@code step} apart of a lane-major buffer, moved whole to consecutive positions, by both providers. */
    @Test
    void copyPositionsMovesWholePositions() {
        for (KernelProvider provider : new KernelProvider[] {SCALAR, VECTOR}) {
            int n = provider.lanes();
            float[] src = new float[40 * n];
            for (int k = 0; k < src.length; k++) {
                src[k] = k;
            }
            float[] dst = new float[20 * n];
            java.util.Arrays.fill(dst, -1f);
            provider.copyPositions(src, 2, 3, 9, dst, 4);
            for (int p = 0; p < 20; p++) {
                for (int l = 0; l < n; l++) {
                    float expected = p >= 4 && p < 13 ? (2 + (p - 4) * 3) * n + l : -1f;
                    assertEquals(expected, dst[p * n + l], provider.name() + " position " + p + " lane " + l);
                }
            }
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
