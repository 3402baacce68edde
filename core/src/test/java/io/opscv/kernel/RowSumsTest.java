package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link KernelProvider#sumRow} over {@link RowSums} (the 2-D backward's W sums along rows, the 1-D backward's
 * short rows end to end) against the reference walk {@link KernelProvider#sumLanes} run channel by channel or
 * row by row, with both providers: random tables from downsampling by 8 to upsampling by 8 (inputs no position
 * reaches, a last input that is both taps, up to 16 terms an input), pixels of 1, 3, 16 and 32 elements, chunks
 * of rows whose sums repeat with a period (the arrays hold one period),
 * random ranges of elements (partial first and last vectors), several rows at pitches ({@link
 * KernelProvider#sumRows}), gradOut with NaN, infinities and -0, and buffers with and without slack.
 */
class RowSumsTest {
    private static final KernelProvider SCALAR = KernelProviders.scalar();
    private static final KernelProvider VECTOR = KernelProviders.vector();

    @Test
    void pixelRowSumsAreTheWalkOnEachChannel() {
        Random random = new Random(5);
        for (int trial = 0; trial < 800; trial++) {
            LinearTable t = table(random, 1 + random.nextInt(trial % 3 == 0 ? 300 : 40));
            int pix = new int[] {1, 3, 16, 32}[trial % 4];
            int lin = t.lin();
            int lout = t.lout();
            float[] g = gradOut(random, lout * pix + (random.nextBoolean() ? 0 : 64));
            float[] expected = new float[lin * pix];
            for (int c = 0; c < pix; c++) {
                float[] row = new float[lout];
                for (int j = 0; j < lout; j++) {
                    row[j] = g[j * pix + c];
                }
                float[] sums = new float[lin];
                SCALAR.sumLanes(t, 0, lin, 0, lout, row, 0, sums, 0);
                for (int i = 0; i < lin; i++) {
                    expected[i * pix + c] = sums[i];
                }
            }
            RowSums sums = RowSums.of(t, pix);
            assertEquals(sums.slots, RowSums.slots(t), "slots of " + lin + " <- " + lout);
            check(sums, g, expected, random, "trial " + trial + " (" + lin + " <- " + lout + ", pixels of " + pix + ")");
        }
    }

    @Test
    void flatRowSumsAreTheWalkOnEachRow() {
        Random random = new Random(6);
        for (int trial = 0; trial < 800; trial++) {
            LinearTable t = table(random, 1 + random.nextInt(32));
            int channels = new int[] {1, 2, 3, 8}[trial % 4];
            int rows = channels * (1 + random.nextInt(trial % 2 == 0 ? 12 : 60));
            int lin = t.lin();
            int lout = t.lout();
            float[] g = gradOut(random, rows * lout + (random.nextBoolean() ? 0 : 64));
            float[] expected = new float[rows * lin];
            for (int r = 0; r < rows; r++) {
                // Row r's positions as FlatRows reads them: end to end, or whole channels-last batches.
                int first = r / channels * lout * channels + r % channels;
                float[] row = new float[lout];
                for (int j = 0; j < lout; j++) {
                    row[j] = g[first + j * channels];
                }
                float[] sums = new float[lin];
                SCALAR.sumLanes(t, 0, lin, 0, lout, row, 0, sums, 0);
                System.arraycopy(sums, 0, expected, r * lin, lin);
            }
            check(RowSums.flat(t, rows, channels), g, expected, random, "trial " + trial + " (" + rows + " rows of "
                    + lin + " <- " + lout + ", " + channels + " channels)");
        }
    }

    @Test
    void rowsAtPitchesAreEachRowsSums() {
        Random random = new Random(7);
        for (int trial = 0; trial < 600; trial++) {
            LinearTable t = table(random, 1 + random.nextInt(trial % 3 == 0 ? 200 : 40));
            int pix = new int[] {1, 3, 16, 32}[trial % 4];
            RowSums sums = RowSums.of(t, pix);
            int n = t.lin() * pix;
            int rows = 1 + random.nextInt(9);
            int gPitch = t.lout() * pix + random.nextInt(80);
            float[] g = gradOut(random, (rows - 1) * gPitch + t.lout() * pix + (random.nextBoolean() ? 0 : 64));
            int e0 = random.nextBoolean() ? 0 : random.nextInt(n);
            int e1 = random.nextBoolean() ? n : e0 + 1 + random.nextInt(n - e0);
            String label = "trial " + trial + " (" + rows + " rows of " + t.lin() + " <- " + t.lout() + ", pixels of "
                    + pix + ", pitch " + gPitch + ", [" + e0 + ", " + e1 + "))";
            for (KernelProvider provider : new KernelProvider[] {SCALAR, VECTOR}) {
                float[][] y = new float[rows][];
                for (int k = 0; k < rows; k++) {
                    y[k] = new float[e1 - e0 + (random.nextBoolean() ? 0 : 16)];
                }
                provider.sumRows(sums, e0, e1, g, 0, gPitch, y, e0, rows);
                for (int k = 0; k < rows; k++) {
                    float[] expected = new float[n];
                    SCALAR.sumRow(sums, 0, n, g, -k * gPitch, expected, 0);
                    float[] row = y[k];
                    KernelCase.assertSameFloats(java.util.Arrays.copyOfRange(expected, e0, e1), 0, row, e1 - e0,
                            label + " row " + k + " " + provider.name());
                }
            }
        }
    }

    /** A table of {@code lin} inputs, its positions from an eighth to eight times as many, sometimes given scales. */
    static LinearTable table(Random random, int lin) {
        int lout = Math.max(1, (int) (lin * Math.exp((random.nextDouble() - 0.5) * 4.2)));
        boolean alignCorners = random.nextBoolean();
        double scales = !alignCorners && random.nextInt(4) == 0 ? (double) lout / lin * (0.6 + random.nextDouble()) : 0;
        return LinearTable.of(lin, lout, alignCorners, scales);
    }

    /** Both providers on the whole row and on a random range of it, against {@code expected}. */
    private static void check(RowSums sums, float[] g, float[] expected, Random random, String label) {
        int n = expected.length;
        for (KernelProvider provider : new KernelProvider[] {SCALAR, VECTOR}) {
            float[] y = new float[n + (random.nextBoolean() ? 0 : 16)];
            provider.sumRow(sums, 0, n, g, 0, y, 0);
            KernelCase.assertSameFloats(expected, 0, y, n, label + " " + provider.name());
            int e0 = random.nextInt(n);
            int e1 = e0 + 1 + random.nextInt(n - e0);
            float[] part = new float[e1 - e0 + (random.nextBoolean() ? 0 : 16)];
            provider.sumRow(sums, e0, e1, g, 0, part, e0);
            KernelCase.assertSameFloats(expected, e0, part, e1 - e0,
                    label + " " + provider.name() + " [" + e0 + ", " + e1 + ")");
        }
    }

    /** Gaussian values with NaN, infinities and -0 now and then. */
    static float[] gradOut(Random random, int length) {
        float[] g = new float[length];
        float[] special = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0f};
        for (int k = 0; k < length; k++) {
            g[k] = random.nextInt(60) == 0 ? special[random.nextInt(4)] : (float) random.nextGaussian();
        }
        return g;
    }
}
