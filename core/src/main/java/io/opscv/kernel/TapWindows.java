package io.opscv.kernel;

/**
 * Where each whole vector of {@code lanes} elements of a row of taps ({@link RowTaps}, {@link RowSums}) finds
 * its inputs: slot k of the vector's lanes reads {@code x[base[v] + rel[k·n + e]]} (n the elements its arrays
 * describe), by plain loads ({@link #RUNS}: every slot's lanes consecutive; {@link #SPAN}: runs whose lanes
 * also share each slot's weight and term, the channels of one pixel), permutes of two or four vectors
 * from {@code base} ({@link #PAIR}, {@link #QUAD}), or hardware gathers ({@link #GATHER}) where they spread
 * further; {@code reach[v]} inputs from {@code base} cover its loads. {@code slots[v]} is the number of slots
 * the vector uses (the rest have no term in any lane). Worked out once per call rather than per vector and row.
 * {@code near} is {@code rel} a byte each, for the permutes' windows (below 4·lanes): the backward's sums read
 * an index vector per slot, and a quarter of the bytes made them faster; the forward reads two per vector and
 * keeps the ints. A four-vector window whose every slot's lanes lie within two vectors also slides
 * ({@link #slides}): slot k's pair starts {@code lift[k·vectors + v]} inputs into the window, its lanes at
 * {@code slid} (ints) or {@code slidNear} (bytes) from there, so that a slot permutes two vectors, not four.
 */
record TapWindows(int lanes, int[] base, byte[] kind, int[] reach, int[] slots, int[] rel, byte[] near,
                  boolean[] slides, int[] lift, int[] slid, byte[] slidNear) {
    static final byte RUNS = 0;
    static final byte PAIR = 1;
    static final byte QUAD = 2;
    static final byte GATHER = 3;
    /**
     * Runs whose lanes share every slot's weight and have the same terms (the channels of one pixel, the rows of a
     * channels-last chunk side by side): a slot is a load times one weight, added in every lane.
     */
    static final byte SPAN = 4;

    /**
     * The windows of the whole vectors of a row of {@code n} elements whose slot k reads {@code at[k·n + e]}; a
     * slot counts for a vector where some lane has its term ({@code has[k·n + e]}; every slot where {@code has}
     * is null). Runs whose lanes have the same terms with the same weights {@code w[k·n + e]} are {@link #SPAN}s
     * (none where {@code w} is null).
     */
    static TapWindows of(int lanes, int n, int[] at, boolean[] has, float[] w) {
        int vectors = n / lanes;
        int count = at.length / n;
        int[] base = new int[vectors];
        byte[] kind = new byte[vectors];
        int[] reach = new int[vectors];
        int[] slots = new int[vectors];
        int[] rel = new int[at.length];
        boolean[] slides = new boolean[vectors];
        int[] lift = new int[count * vectors];
        int[] slid = new int[at.length];
        for (int v = 0; v < vectors; v++) {
            int e = v * lanes;
            int used = has == null ? count : 0;
            for (int k = 0; has != null && k < count; k++) {
                for (int l = e; l < e + lanes; l++) {
                    used = has[k * n + l] ? k + 1 : used;
                }
            }
            used = Math.max(used, 1);
            boolean runs = true;
            int low = Integer.MAX_VALUE;
            int high = Integer.MIN_VALUE;
            for (int k = 0; k < used; k++) {
                for (int l = e; l < e + lanes; l++) {
                    int q = k * n + l;
                    runs &= l == e || at[q] == at[q - 1] + 1;
                    low = Math.min(low, at[q]);
                    high = Math.max(high, at[q]);
                }
            }
            for (int k = 0; k < count; k++) {
                for (int l = e; l < e + lanes; l++) {
                    rel[k * n + l] = at[k * n + l] - low;
                }
            }
            long span = (long) high - low;
            base[v] = low;
            slots[v] = used;
            kind[v] = runs ? shared(lanes, n, e, used, has, w) ? SPAN : RUNS
                    : span < 2L * lanes ? PAIR : span < 4L * lanes ? QUAD : GATHER;
            reach[v] = kind[v] == PAIR ? 2 * lanes : kind[v] == QUAD ? 4 * lanes : (int) span + 1;
            slides[v] = kind[v] == QUAD && slide(lanes, n, v, vectors, used, rel, lift, slid);
        }
        byte[] near = new byte[rel.length];
        byte[] slidNear = new byte[rel.length];
        for (int q = 0; q < rel.length; q++) {
            near[q] = (byte) rel[q];
            slidNear[q] = (byte) slid[q];
        }
        return new TapWindows(lanes, base, kind, reach, slots, rel, near, slides, lift, slid, slidNear);
    }

    /**
     * Whether each of vector v's {@code used} slots has its lanes within two vectors of the window; if so, each
     * slot's start in the window (at most two vectors in, so that its pair stays inside) goes to {@code lift}, and
     * its lanes' places from there to {@code slid}.
     */
    private static boolean slide(int lanes, int n, int v, int vectors, int used, int[] rel, int[] lift, int[] slid) {
        for (int k = 0; k < used; k++) {
            int q = k * n + v * lanes;
            int low = Integer.MAX_VALUE;
            int high = Integer.MIN_VALUE;
            for (int l = q; l < q + lanes; l++) {
                low = Math.min(low, rel[l]);
                high = Math.max(high, rel[l]);
            }
            if (high - low >= 2 * lanes) {
                return false;
            }
            lift[k * vectors + v] = Math.min(low, 2 * lanes);
        }
        for (int k = 0; k < used; k++) {
            int q = k * n + v * lanes;
            for (int l = q; l < q + lanes; l++) {
                slid[l] = rel[l] - lift[k * vectors + v];
            }
        }
        return true;
    }

    /** Whether every lane of the vector at e has a term in each of its {@code used} slots, with the same weight. */
    private static boolean shared(int lanes, int n, int e, int used, boolean[] has, float[] w) {
        if (w == null || has == null) {
            return false;
        }
        for (int k = 0; k < used; k++) {
            int q = k * n + e;
            for (int l = q; l < q + lanes; l++) {
                if (!has[l] || Float.floatToRawIntBits(w[l]) != Float.floatToRawIntBits(w[q])) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether every whole vector's slots are runs of consecutive inputs. */
    boolean runs() {
        for (byte k : kind) {
            if (k != RUNS && k != SPAN) {
                return false;
            }
        }
        return true;
    }

    /** Whether some whole vector permutes a window of four vectors. */
    boolean quads() {
        for (byte k : kind) {
            if (k == QUAD) {
                return true;
            }
        }
        return false;
    }

    /** Whether no whole vector needs gathers: every one within four vectors of inputs. */
    boolean fit() {
        for (byte k : kind) {
            if (k == GATHER) {
                return false;
            }
        }
        return true;
    }
}
