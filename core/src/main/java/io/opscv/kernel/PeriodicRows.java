package io.opscv.kernel;

/**
 * The 1-D backward along long rows whose table repeats ({@link LinearTable#periodicInputs}): each row is cut
 * into segments of whole periods, and each segment's inputs are summed as one row of per-element sums whose
 * tables hold a single period (a few KiB, in L1), from gradOut's run into out's
 * ({@link KernelProvider#sumRowRun}: decoded, summed and written in one run each way, or, where the vector
 * provider holds a period of one vector in registers, on the tensors in place). One row streams each way per
 * thread, where rows in lanes stream a group's 16 rows side by side and transpose every position in and out.
 * The inputs before and after the periodic run (the clamped ends of the row) are summed by the scalar loop, a
 * few a row.
 */
final class PeriodicRows {
    /** The shortest out rows taken: shorter rows are few inputs per call of the sums. */
    static final int MIN_INPUTS = 512;
    /** Inputs per segment, about (whole fours of periods): a segment's gradOut and sums stay in L1 and L2. */
    private static final int SEGMENT_INPUTS = 2048;
    /**
     * The longest period taken (inputs, whole vectors): its tables, up to 40 KiB, stay in L1 and L2. Periods of
     * 80 to 592 inputs ran as fast as rows in lanes or faster.
     */
    static final int MAX_PERIOD = 1024;
    /** The most terms an input takes where the period is several vectors (their slots read from the tables). */
    static final int MAX_SLOTS = 4;
    /**
     * The most terms where the period is one vector, whose slots the vector provider keeps in registers, four
     * at a time: up 2.5 and 3 (five and six terms) ran 1.15-1.4 × faster than in lanes; five terms on a period
     * of several vectors (37 inputs to 77 positions) 1.13 × slower.
     */
    static final int MAX_HELD_SLOTS = 8;
    /** The most inputs outside the periodic run (each summed by the scalar loop, every row). */
    private static final int MAX_EDGES = 64;

    /** The sums of a call: {@code sums} for the periodic run {@code [from, to)}, {@code edges} for the rest. */
    record Sums(RowSums sums, RowSums edges, int from, int to, int segment) {}

    private PeriodicRows() {}

    /**
     * The sums for this call, or null where the form does not apply: rows of {@link #MIN_INPUTS} inputs or
     * more, both tensors of L stride 1, a periodic run covering all but {@link #MAX_EDGES} inputs whose period is
     * at most {@link #MAX_PERIOD} inputs (whole vectors), each input taking at most {@link #MAX_SLOTS} terms
     * ({@link #MAX_HELD_SLOTS} where the period is one vector), every vector's terms within the permute windows.
     */
    static Sums backwardSums(LinearTable t, StridedTensor gradOut, StridedTensor out, KernelProvider provider) {
        int lin = t.lin();
        if (lin < MIN_INPUTS || gradOut.strides()[2] != 1 || out.strides()[2] != 1
                || gradOut.dataType() != out.dataType()) {
            return null;
        }
        LinearTable.Period period = t.periodicInputs();
        if (period == null || lin - (period.to() - period.from()) > MAX_EDGES) {
            return null;
        }
        // A period of whole vectors; where it is one vector (q divides the lanes) the provider keeps its slots in
        // registers.
        int q = period.inputs();
        int lanes = provider.lanes();
        long whole = (long) q / RowTaps.gcd(q, lanes) * lanes;
        if (whole > MAX_PERIOD) {
            return null;
        }
        int unit = (int) whole;
        int from = period.from();
        int to = period.to();
        if (to - from < 2 * unit) {
            return null;
        }
        int shift = unit / q * period.outputs();
        int[] input = new int[unit];
        for (int e = 0; e < unit; e++) {
            input[e] = from + e;
        }
        RowSums sums = RowSums.of(t, input, new int[unit], 1, to - from, shift);
        if (sums.slots > (unit == lanes ? MAX_HELD_SLOTS : MAX_SLOTS) || !sums.windows(lanes).fit()) {
            return null;
        }
        // The inputs before and after the run, listed without a pass over the row (rows may be millions long).
        int[] rest = new int[lin - (to - from)];
        for (int k = 0; k < rest.length; k++) {
            rest[k] = k < from ? k : to + k - from;
        }
        RowSums edges = RowSums.of(t, rest, new int[rest.length], 1);
        // Whole groups of periods (RowSums.PERIODS_AT_ONCE), at least one.
        int group = RowSums.PERIODS_AT_ONCE * unit;
        int segment = Math.max(1, SEGMENT_INPUTS / group) * group;
        return new Sums(sums, edges, from, to, segment);
    }

    static void backward(StridedTensor gradOut, StridedTensor out, LinearTable t, Sums sums, KernelProvider provider,
                         WorkerPool pool) {
        long rows = out.shape()[0] * out.shape()[1];
        int lin = t.lin();
        // Segment k: inputs [0, from + segment) for k = 0, then whole segments; the last runs to the row's end.
        int segments = Math.max(1, (sums.to() - sums.from()) / sums.segment());
        int inputs = 0;
        int positions = 0;
        for (int k = 0; k < segments; k++) {
            int i0 = start(sums, k);
            int i1 = k == segments - 1 ? lin : start(sums, k + 1);
            inputs = Math.max(inputs, i1 - i0);
            positions = Math.max(positions, t.gatherTo(i1) - t.gatherFrom(i0));
        }
        int most = inputs;
        int reach = positions;
        int lanes = provider.lanes();
        pool.forEachChunk(rows * segments, ((long) lin + t.lout()) / segments,
                b -> new Scratch(reach, most, lanes, b), (c, s) -> {
                    int k = (int) (c % segments);
                    segment(gradOut, out, t, sums, provider, c / segments, start(sums, k),
                            k == segments - 1 ? lin : start(sums, k + 1), s);
                });
    }

    /** The first input of segment k. */
    private static int start(Sums sums, int k) {
        return k == 0 ? 0 : sums.from() + k * sums.segment();
    }

    /** One thread's buffers: a segment's gradOut positions (with four vectors of slack) and its sums. */
    private static final class Scratch {
        final float[] g;
        final float[] y;

        Scratch(int positions, int inputs, int lanes, Buffers b) {
            g = b.floats(positions + 4 * lanes);
            y = b.floats(inputs + lanes);
        }
    }

    /**
     * Inputs [i0, i1) of one row: the periodic run's through {@link KernelProvider#sumRowRun} (on the tensors in
     * place where the provider holds the sums), the edges' by the scalar loop.
     */
    private static void segment(StridedTensor gradOut, StridedTensor out, LinearTable t, Sums sums,
                                KernelProvider provider, long row, int i0, int i1, Scratch s) {
        long channels = out.shape()[1];
        long n = row / channels;
        long c = row % channels;
        long[] gs = gradOut.strides();
        long[] os = out.strides();
        long gRow = gradOut.offset() + n * gs[0] + c * gs[1];
        long outRow = out.offset() + n * os[0] + c * os[1];
        int from = sums.from();
        int to = sums.to();
        // The edges' elements: inputs [0, from) first, then [to, lin).
        if (i0 < from) {
            edge(gradOut, out, t, sums, gRow, outRow, i0, Math.min(i1, from), i0, s);
        }
        int p0 = Math.max(i0, from);
        int p1 = Math.min(i1, to);
        if (p0 < p1) {
            provider.sumRowRun(sums.sums(), p0 - from, p1 - from, t.gatherFrom(p0), t.gatherTo(p1), gradOut.segment(),
                    gRow, out.segment(), outRow + from, out.dataType(), s.g, s.y);
        }
        if (i1 > to) {
            int i = Math.max(i0, to);
            edge(gradOut, out, t, sums, gRow, outRow, i, i1, from + i - to, s);
        }
    }

    /** Inputs [i0, i1) outside the periodic run, element {@code e} of the edges' sums on. */
    private static void edge(StridedTensor gradOut, StridedTensor out, LinearTable t, Sums sums, long gRow, long outRow,
                             int i0, int i1, int e, Scratch s) {
        int lo = t.gatherFrom(i0);
        int hi = t.gatherTo(i1);
        ElementCodec.decode(gradOut.segment(), gradOut.dataType(), gRow + lo, 1, hi - lo, s.g, 0);
        ScalarKernelProvider.sumRowScalar(sums.edges(), e, e + i1 - i0, s.g, lo, s.y, e);
        ElementCodec.encode(s.y, 0, i1 - i0, out.segment(), out.dataType(), outRow + i0, 1);
    }
}
