package io.opscv.verify;

/**
 * The SplitMix64 generator (Steele, Lea, Flood, "Fast splittable pseudorandom number generators",
 * OOPSLA 2014), written out so that a seed gives the same cases and values on every JDK: the
 * sequences of {@code java.util} generators are not specified across versions.
 */
final class SplitMix64 {
    private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;
    private long state;

    SplitMix64(long seed) {
        this.state = seed;
    }

    /** The generator for item {@code index} of a stream seeded with {@code seed}: independent of the other items. */
    static SplitMix64 forItem(long seed, long index) {
        return new SplitMix64(mix(seed ^ mix(index + GOLDEN_GAMMA)));
    }

    long nextLong() {
        state += GOLDEN_GAMMA;
        return mix(state);
    }

    /** Uniform in [0, 1), 53 random bits. */
    double nextDouble() {
        return (nextLong() >>> 11) * 0x1.0p-53;
    }

    /** Uniform in [0, bound), for bound > 0 (rejection sampling, so no modulo bias). */
    int nextInt(int bound) {
        long limit = Long.MAX_VALUE - (Long.MAX_VALUE % bound);
        while (true) {
            long r = nextLong() >>> 1;
            if (r < limit) {
                return (int) (r % bound);
            }
        }
    }

    /** Standard normal by Box–Muller (one of the pair is used, so each draw costs two uniforms). */
    double nextGaussian() {
        double u1 = 1.0 - nextDouble(); // (0, 1]: log stays finite
        double u2 = nextDouble();
        return Math.sqrt(-2.0 * Math.log(u1)) * Math.cos(2.0 * Math.PI * u2);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
