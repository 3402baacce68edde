package io.opscv.perf.sweep;

import io.opscv.runtime.DataType;
import java.util.ArrayList;
import java.util.List;

/**
 * The 1-D operators' cases (issue 24's list). Each option has its own balanced, shuffled deck
 * ({@link Draws#deck}), so every value of every option is covered once the count reaches the number of
 * values, in random combinations:
 * <ul>
 *   <li>dtype FP32 / FP16 / BF16; alignCorners false / true; scales given (out/in, the floor rule holding) or
 *       derived (0);</li>
 *   <li>ratio class (forward Lout / Lin): {@code up_int} 2–16; {@code up_frac} 1–4, half from ratios users meet
 *       (160/147, 3/2, 4/3, 5/4, 37/10, 5/2, 8/7, 7/4), half irregular p/q; {@code up_large} 16–500 with
 *       Lin 1–16; {@code equal}; {@code down_int} 2–10; {@code down_frac} 1–4; {@code down_extreme} 1/50–1/500,
 *       half of them exactly 1/500;</li>
 *   <li>rows requested: {@code long} (the longest rows the contract and the traffic allow, longer side up to
 *       2^20, N·C from the traffic: 1 in the cache-resident group, 8–64 when memory-bound), {@code mid} (N·C 16–4096,
 *       the rows as long as the traffic needs), {@code short} (longer side 17–512), {@code tiny} (longer side
 *       4–16). The class the case reports is read back from its sizes ({@link #rowsClass}): large up has
 *       short inputs by definition, and extreme down long ones;</li>
 *   <li>layout contiguous / transposed (C ≥ 2 there) / strided_out.</li>
 * </ul>
 * The sizes give at least the drawn traffic; every dimension stays within 2^20 (SPEC §5), so a row never
 * exceeds 2^20 elements and a memory-bound case has more than a few rows. N·C is split as N × C with C from
 * a list of channel counts no larger than a quarter of N·C, so rounding N up adds at most a quarter.
 */
final class Linear1dDistribution {
    static final List<String> RATIO_CLASSES =
            List.of("up_int", "up_frac", "up_large", "equal", "down_int", "down_frac", "down_extreme");
    static final List<String> ROWS_REQUESTS = List.of("long", "mid", "short", "tiny");
    static final List<SweepLayout> LAYOUTS = List.of(SweepLayout.CONTIGUOUS, SweepLayout.TRANSPOSED, SweepLayout.STRIDED_OUT);
    static final List<DataType> DTYPES = List.of(DataType.FLOAT, DataType.FLOAT16, DataType.BF16);

    /** Up ratios users meet, as {Lout, Lin}: 44.1 → 48 kHz, 2:3, 3:4, 4:5, 7000 → 25900, 2:5, 224 → 256, 4:7. */
    private static final List<long[]> NAMED_UP = List.of(new long[] {160, 147}, new long[] {3, 2}, new long[] {4, 3},
            new long[] {5, 4}, new long[] {37, 10}, new long[] {5, 2}, new long[] {8, 7}, new long[] {7, 4});
    /** SPEC §5: every dimension of the 1-D operators' tensors is at most 2^20. */
    static final long MAX_LENGTH = 1L << 20;
    private static final List<Long> CHANNELS = List.of(1L, 2L, 3L, 4L, 8L, 16L, 32L, 64L, 128L, 256L, 512L, 1024L);

    private Linear1dDistribution() {}

    /** {@code count} cases whose traffic is drawn log-uniformly in [lo, hi) bytes; names {@code prefix<index>_...}. */
    static List<SweepCase> draw(SweepOp op, Draws d, int count, double lo, double hi, String prefix, boolean cache) {
        List<String> ratios = d.deck(RATIO_CLASSES, count);
        List<String> rows = d.deck(ROWS_REQUESTS, count);
        List<DataType> dtypes = d.deck(DTYPES, count);
        List<Boolean> align = d.deck(List.of(false, true), count);
        List<Boolean> given = d.deck(List.of(false, true), count);
        List<SweepLayout> layouts = d.deck(LAYOUTS, count);
        List<SweepCase> cases = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            cases.add(one(op, d, String.format("%s%02d", prefix, i), ratios.get(i), rows.get(i), dtypes.get(i),
                    align.get(i), given.get(i), layouts.get(i), d.logUniformReal(lo, hi), cache));
        }
        return cases;
    }

    private static SweepCase one(SweepOp op, Draws d, String index, String ratioClass, String rowsRequest,
                                 DataType dtype, boolean alignCorners, boolean scalesGiven, SweepLayout layout,
                                 double traffic, boolean cache) {
        long size = dtype.byteSize();
        boolean transposed = layout == SweepLayout.TRANSPOSED;
        long maxSide = switch (rowsRequest) {
            case "tiny" -> 16;
            case "short" -> 512;
            default -> Long.MAX_VALUE;
        };
        long[] pq = ratio(ratioClass, d, maxSide);
        long p = pq[0];
        long q = pq[1];
        long k;
        long rowCount;
        if (rowsRequest.equals("mid") && !ratioClass.equals("up_large")) {
            // N·C first, the row length follows from the traffic.
            rowCount = d.logUniform(16, 4096);
            k = Math.max(1, (long) Math.ceil(traffic / ((double) rowCount * (p + q) * size)));
        } else {
            // The row length first (large up: Lin 1-16 by definition), N·C follows from the traffic.
            long longerSide = switch (rowsRequest) {
                case "long" -> MAX_LENGTH;
                case "short" -> d.logUniform(17, 512);
                default -> d.uniform(4, 16);
            };
            if (ratioClass.equals("up_large")) {
                k = rowsRequest.equals("tiny") ? 1 : d.uniform(1, 16);
            } else {
                k = Math.max(1, longerSide / Math.max(p, q));
            }
            rowCount = 0;
        }
        // Every dimension at most 2^20 (SPEC §5), and no row beyond the traffic; as many rows as the traffic needs,
        // then the rows shortened to what N × C of them need (N rounded up, or C ≥ 2 for a transposed view).
        k = Math.min(k, Math.min(MAX_LENGTH / Math.max(p, q), Math.max(1, Math.round(traffic / ((p + q) * size)))));
        rowCount = (long) Math.ceil(traffic / ((double) k * (p + q) * size));
        long c = channels(d, rowCount, transposed);
        long n = Math.ceilDiv(rowCount, c);
        k = Math.max(1, Math.min(k, (long) Math.ceil(traffic / ((double) n * c * (p + q) * size))));
        long lin = k * q;
        long lout = k * p;
        double scales = scalesGiven ? Draws.givenScales(lin, lout) : 0;
        String rowsClass = rowsClass(Math.max(lin, lout));
        return new SweepCase(index + "_" + ratioClass + "_" + rowsClass, op, dtype, n, c, 1, lin, 1, lout, alignCorners,
                0, scales, layout, ratioClass, rowsClass, cache);
    }

    /** The rows class of a case, from the longer of its row lengths. */
    static String rowsClass(long longerSide) {
        if (longerSide <= 16) {
            return "tiny";
        }
        if (longerSide <= 512) {
            return "short";
        }
        return longerSide < MAX_LENGTH / 16 ? "mid" : "long";
    }

    /** {Lout, Lin} in lowest terms for the class, both at most {@code maxSide} where the class allows it. */
    static long[] ratio(String ratioClass, Draws d, long maxSide) {
        return switch (ratioClass) {
            case "up_int" -> new long[] {d.uniform(2, 16), 1};
            case "up_frac" -> fractionalUp(d, maxSide);
            case "up_large" -> new long[] {maxSide <= 16 ? 16 : d.logUniform(16, 500), 1};
            case "equal" -> new long[] {1, 1};
            case "down_int" -> new long[] {1, d.uniform(2, 10)};
            case "down_frac" -> {
                long[] up = fractionalUp(d, maxSide);
                yield new long[] {up[1], up[0]};
            }
            case "down_extreme" -> new long[] {1, d.coin() ? 500 : d.logUniform(50, 500)};
            default -> throw new IllegalArgumentException("no ratio class " + ratioClass);
        };
    }

    /** p/q strictly between 1 and 4 and not an integer: a named ratio or an irregular one. */
    private static long[] fractionalUp(Draws d, long maxSide) {
        if (d.coin()) {
            List<long[]> fitting = NAMED_UP.stream().filter(r -> r[0] <= maxSide).toList();
            return d.pick(fitting);
        }
        long q = maxSide <= 16 ? d.uniform(2, 5) : d.uniform(7, 120);
        long p = Math.round(q * d.uniformReal(1.05, 3.95));
        p = Math.max(q + 1, Math.min(4 * q - 1, p));
        if (p % q == 0) {
            p++;
        }
        if (p > maxSide) {
            p = q + 1;
        }
        long g = gcd(p, q);
        return new long[] {p / g, q / g};
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /**
     * A channel count for {@code rows} rows: at most a quarter of them (two at least where transposed), and
     * enough that N stays within 2^20.
     */
    private static long channels(Draws d, long rows, boolean transposed) {
        long cap = Math.max(transposed ? 2 : 1, rows / 4);
        long least = Math.max(transposed ? 2 : 1, Math.ceilDiv(rows, MAX_LENGTH));
        List<Long> fitting = CHANNELS.stream().filter(c -> c <= cap && c >= least).toList();
        return fitting.isEmpty() ? least : d.pick(fitting);
    }
}
