package io.opscv.perf.sweep;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The seeded draws of the distributions. {@link Random}'s generator is specified by its javadoc, so a seed
 * gives the same cases on every JDK and machine.
 */
final class Draws {
    private final Random random;

    Draws(long seed) {
        this.random = new Random(seed);
    }

    /**
     * {@code count} values in which each of {@code values} appears equally often (to within one), in a shuffled
     * order: every value is covered once {@code count >= values.size()}, in random combinations with the other
     * options' decks.
     */
    <T> List<T> deck(List<T> values, int count) {
        List<T> deck = new ArrayList<>(count);
        for (int k = 0; k < count; k++) {
            deck.add(values.get(k % values.size()));
        }
        Collections.shuffle(deck, random);
        return deck;
    }

    /** An integer in [lo, hi]. */
    long uniform(long lo, long hi) {
        return lo + (long) (random.nextDouble() * (hi - lo + 1));
    }

    /** A real in [lo, hi). */
    double uniformReal(double lo, double hi) {
        return lo + random.nextDouble() * (hi - lo);
    }

    /** An integer in [lo, hi], uniform in its logarithm (as many draws per octave). */
    long logUniform(long lo, long hi) {
        double v = Math.exp(uniformReal(Math.log(lo), Math.log(hi + 1.0)));
        return Math.max(lo, Math.min(hi, (long) v));
    }

    /** A real in [lo, hi), uniform in its logarithm. */
    double logUniformReal(double lo, double hi) {
        return Math.exp(uniformReal(Math.log(lo), Math.log(hi)));
    }

    /** One of {@code values}. */
    <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    boolean coin() {
        return random.nextBoolean();
    }

    /**
     * A scales for {@code in → out} that the operators accept as given: out / in, moved up by ulps where
     * needed so that floor(in · scales) == out (the backward's and the 1-D forward's rule).
     */
    static double givenScales(long in, long out) {
        double s = (double) out / in;
        for (int k = 0; k < 8 && Math.floor(in * s) != out; k++) {
            s = Math.nextUp(s);
        }
        return s;
    }
}
