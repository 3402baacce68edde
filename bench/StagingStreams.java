import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * How fast rows stage through a small heap tile when several rows stream at once, against one large copy of
 * the same bytes: the staging pattern of rows in lanes (docs/KERNELS.md, "Where the gaps are"). For each chunk
 * length and number of rows taken together, a pass copies a chunk of each of those rows from a native buffer
 * into a tile and back out to another native buffer, row after row, along the rows; reads and writes are also
 * timed alone. One thread, best of eight passes, ratios to the copy.
 *
 * <p>Run: {@code java bench/StagingStreams.java} (JDK 22 or later; no build needed).
 */
public final class StagingStreams {
    private static final long ROWS = 64;
    private static final long LENGTH = 200_000;
    private static final int[] CHUNKS = {256, 1024, 4096};
    private static final int[] TOGETHER = {1, 2, 4, 8, 16};

    private StagingStreams() {}

    public static void main(String[] args) {
        Arena arena = Arena.global();
        MemorySegment src = arena.allocate(ROWS * LENGTH * Float.BYTES, 64);
        MemorySegment dst = arena.allocate(ROWS * LENGTH * Float.BYTES, 64);
        for (long i = 0; i < ROWS * LENGTH; i++) {
            src.setAtIndex(ValueLayout.JAVA_FLOAT, i, i);
        }
        dst.fill((byte) 1);
        long copy = Long.MAX_VALUE;
        long[][][] best = new long[CHUNKS.length][TOGETHER.length][3];
        for (long[][] byChunk : best) {
            for (long[] cell : byChunk) {
                java.util.Arrays.fill(cell, Long.MAX_VALUE);
            }
        }
        for (int pass = 0; pass < 8; pass++) {
            long t0 = System.nanoTime();
            MemorySegment.copy(src, 0, dst, 0, ROWS * LENGTH * Float.BYTES);
            copy = Math.min(copy, System.nanoTime() - t0);
            for (int c = 0; c < CHUNKS.length; c++) {
                for (int g = 0; g < TOGETHER.length; g++) {
                    for (int mode = 0; mode < 3; mode++) {
                        best[c][g][mode] = Math.min(best[c][g][mode], stage(src, dst, CHUNKS[c], TOGETHER[g], mode));
                    }
                }
            }
        }
        System.out.printf("one copy of %d MiB: %.2f ms%n", ROWS * LENGTH * Float.BYTES >> 20, copy / 1e6);
        System.out.println("chunk (floats)  rows at once  read  write  both   (x the copy)");
        for (int c = 0; c < CHUNKS.length; c++) {
            for (int g = 0; g < TOGETHER.length; g++) {
                System.out.printf("%14d  %12d  %4.2f  %5.2f  %4.2f%n", CHUNKS[c], TOGETHER[g],
                        (double) best[c][g][0] / copy, (double) best[c][g][1] / copy, (double) best[c][g][2] / copy);
            }
        }
    }

    /** One pass; mode 0 reads only, 1 writes only, 2 both. Returns nanoseconds. */
    private static long stage(MemorySegment src, MemorySegment dst, int chunk, int together, int mode) {
        float[] tile = new float[together * chunk];
        long t0 = System.nanoTime();
        for (long r0 = 0; r0 < ROWS; r0 += together) {
            for (long p = 0; p < LENGTH; p += chunk) {
                int n = (int) Math.min(chunk, LENGTH - p);
                for (int r = 0; r < together && mode != 1; r++) {
                    MemorySegment.copy(src, ValueLayout.JAVA_FLOAT, ((r0 + r) * LENGTH + p) * Float.BYTES, tile,
                            r * chunk, n);
                }
                for (int r = 0; r < together && mode != 0; r++) {
                    MemorySegment.copy(tile, r * chunk, dst, ValueLayout.JAVA_FLOAT,
                            ((r0 + r) * LENGTH + p) * Float.BYTES, n);
                }
            }
        }
        return System.nanoTime() - t0;
    }
}
