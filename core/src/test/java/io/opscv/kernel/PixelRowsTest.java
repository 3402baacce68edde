package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.runtime.DataType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Random;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * {@link KernelProvider#interpolatePixels} and {@link KernelProvider#sumPixels} (the 2-D operators' W pass over
 * rows of channels-last pixels) against the 1-D references run channel by channel ({@link
 * KernelProvider#linearForward}, the walk {@link KernelProvider#sumLanes}), and {@link
 * KernelProvider#combinePixels} (both of the forward's passes at once) against the two passes apart, with both
 * providers: random tables from downsampling by 8 to upsampling by 8 ({@link RowSumsTest#table}: inputs no
 * position reaches, a last input that is both taps), pixels of 1 to 100 elements (under a vector, whole vectors, a
 * partial last vector), values with NaN, infinities and -0, and out rows holding garbage before the call (the sums
 * start from +0 regardless); rows read from a tensor of each dtype, at an offset, ending the segment or not.
 */
class PixelRowsTest {
    private static final KernelProvider SCALAR = KernelProviders.scalar();
    private static final KernelProvider VECTOR = KernelProviders.vector();
    private static final int[] PIXELS = {1, 2, 3, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 48, 100};

    @Test
    void pixelInterpolationIsTheForwardOnEachChannel() {
        Random random = new Random(11);
        for (int trial = 0; trial < 1500; trial++) {
            LinearTable t = RowSumsTest.table(random, 1 + random.nextInt(trial % 3 == 0 ? 120 : 24));
            int pix = PIXELS[trial % PIXELS.length];
            DataType type = new DataType[] {DataType.FLOAT, DataType.BF16, DataType.FLOAT16}[trial / 5 % 3];
            int n = t.lin() * pix;
            try (Arena arena = Arena.ofConfined()) {
                Row x = Row.of(arena, random, type, n, trial % 2 == 0);
                float[] expected = perChannel(x.values(), pix, t.lin(), t.lout(),
                        (row, y) -> SCALAR.linearForward(t, row, 0, 0, y, 0, 0, 1, 0, t.lout()));
                String label = "trial " + trial + " " + x + " (" + t.lin() + " -> " + t.lout() + ", pixels of " + pix
                        + ")";
                for (KernelProvider provider : new KernelProvider[] {SCALAR, VECTOR}) {
                    float[] y = garbage(random, expected.length + random.nextInt(2) * 16);
                    provider.interpolatePixels(t, pix, x.seg(), type, x.first(), garbage(random, n), y);
                    KernelCase.assertSameFloats(expected, 0, y, expected.length, label + " " + provider.name());
                }
            }
        }
    }

    @Test
    void pixelSumsAreTheWalkOnEachChannel() {
        Random random = new Random(12);
        for (int trial = 0; trial < 1500; trial++) {
            LinearTable t = RowSumsTest.table(random, 1 + random.nextInt(trial % 3 == 0 ? 120 : 24));
            int pix = PIXELS[trial % PIXELS.length];
            DataType type = new DataType[] {DataType.FLOAT, DataType.BF16, DataType.FLOAT16}[trial / 5 % 3];
            int n = t.lout() * pix;
            try (Arena arena = Arena.ofConfined()) {
                Row g = Row.of(arena, random, type, n, trial % 2 == 0);
                float[] expected = perChannel(g.values(), pix, t.lout(), t.lin(),
                        (row, sums) -> SCALAR.sumLanes(t, 0, t.lin(), 0, t.lout(), row, 0, sums, 0));
                String label = "trial " + trial + " " + g + " (" + t.lin() + " <- " + t.lout() + ", pixels of " + pix
                        + ")";
                for (KernelProvider provider : new KernelProvider[] {SCALAR, VECTOR}) {
                    float[] y = garbage(random, expected.length + random.nextInt(2) * 16);
                    provider.sumPixels(t, pix, g.seg(), type, g.first(), garbage(random, n), y);
                    KernelCase.assertSameFloats(expected, 0, y, expected.length, label + " " + provider.name());
                }
            }
        }
    }

    @Test
    void combinedPixelRowsAreBothPassesApart() {
        Random random = new Random(13);
        int taken = 0;
        int required = 0;
        for (int trial = 0; trial < 1500; trial++) {
            LinearTable t = RowSumsTest.table(random, 1 + random.nextInt(trial % 3 == 0 ? 120 : 24));
            if (t.identity()) {
                continue;
            }
            int pix = PIXELS[trial % PIXELS.length];
            DataType type = new DataType[] {DataType.FLOAT, DataType.BF16, DataType.FLOAT16}[trial / 5 % 3];
            int n = t.lin() * pix;
            int gap = trial % 4 == 0 ? -n : random.nextInt(3) * pix;
            float a = trial % 7 == 0 ? 0f : random.nextFloat();
            float b = trial % 7 == 1 ? 0f : 1f - a;
            try (Arena arena = Arena.ofConfined()) {
                Row x = Row.of(arena, random, type, 2 * n + gap, trial % 2 == 0);
                float[] values = x.values();
                float[] row1 = Arrays.copyOfRange(values, n + gap, 2 * n + gap);
                BiConsumer<float[], float[]> forward = (row, y) -> SCALAR.linearForward(t, row, 0, 0, y, 0, 0, 1, 0,
                        t.lout());
                float[] t0 = perChannel(values, pix, t.lin(), t.lout(), forward);
                float[] t1 = perChannel(row1, pix, t.lin(), t.lout(), forward);
                int m = t0.length;
                float[] combined = new float[m];
                for (int k = 0; k < m; k++) {
                    combined[k] = a * t0[k] + b * t1[k];
                }
                long at = random.nextInt(5);
                MemorySegment out = arena.allocate((at + m + 3) * type.byteSize());
                MemorySegment expected = arena.allocate(out.byteSize());
                ElementCodec.encode(garbage(random, (int) (at + m + 3)), 0, (int) (at + m + 3), out, type, 0, 1);
                expected.copyFrom(out);
                ElementCodec.encode(combined, 0, m, expected, type, at, 1);
                String label = "trial " + trial + " " + x + " (" + t.lin() + " -> " + t.lout() + ", pixels of " + pix
                        + ", rows " + (n + gap) + " apart)";
                for (KernelProvider provider : new KernelProvider[] {SCALAR, VECTOR}) {
                    boolean done = provider.combinePixels(t, pix, a, x.first(), b, x.first() + n + gap, x.seg(), type,
                            out, at);
                    if (provider == VECTOR && pix >= VECTOR.lanes() && type != DataType.FLOAT16) {
                        assertTrue(done, label);
                        required++;
                    }
                    if (done) {
                        taken++;
                        int all = (int) (at + m + 3);
                        float[] want = new float[all];
                        float[] got = new float[all];
                        ElementCodec.decode(expected, type, 0, 1, all, want, 0);
                        ElementCodec.decode(out, type, 0, 1, all, got, 0);
                        KernelCase.assertSameFloats(want, 0, got, all, label + " " + provider.name());
                    }
                }
            }
        }
        // Enough trials must require a combination (each asserted above), at any width: fewer pixel counts reach 16
        // lanes than 8.
        assertTrue(required > 250, "combinations required: " + required + ", rows combined: " + taken);
    }

    /** A row of random values (NaN, infinities and -0 among them) in a tensor of {@code type}, and its values. */
    private record Row(MemorySegment seg, DataType type, long first, long elements, float[] values) {
        /** {@code n} elements at a random offset, the segment ending with them where {@code ending}. */
        static Row of(Arena arena, Random random, DataType type, int n, boolean ending) {
            long first = random.nextInt(9);
            long elements = first + n + (ending ? 0 : random.nextInt(40));
            MemorySegment seg = arena.allocate(elements * type.byteSize());
            ElementCodec.encode(RowSumsTest.gradOut(random, (int) elements), 0, (int) elements, seg, type, 0, 1);
            float[] values = new float[n];
            ElementCodec.decode(seg, type, first, 1, n, values, 0);
            return new Row(seg, type, first, elements, values);
        }

        @Override
        public String toString() {
            return type + " from " + first + " of " + elements;
        }
    }

    /**
     * A row of {@code to} pixels from one of {@code from} pixels of {@code pix} channels, each channel's row of
     * {@code from} elements mapped to one of {@code to} (out zeroed first) by {@code oneChannel}.
     */
    private static float[] perChannel(float[] in, int pix, int from, int to, BiConsumer<float[], float[]> oneChannel) {
        float[] result = new float[to * pix];
        for (int c = 0; c < pix; c++) {
            float[] row = new float[from];
            for (int i = 0; i < from; i++) {
                row[i] = in[i * pix + c];
            }
            float[] mapped = new float[to];
            oneChannel.accept(row, mapped);
            for (int j = 0; j < to; j++) {
                result[j * pix + c] = mapped[j];
            }
        }
        return result;
    }

    /** A buffer of values the call must overwrite. */
    private static float[] garbage(Random random, int length) {
        float[] v = new float[length];
        for (int k = 0; k < length; k++) {
            v[k] = random.nextBoolean() ? Float.NaN : 1e30f;
        }
        return v;
    }
}
