package io.opscv.verify;

import com.fasterxml.jackson.databind.JsonNode;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Format;
import io.opscv.runtime.Platform;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A sweep of a case file: {@code count} cases of one op drawn from distributions (see {@link Distribution})
 * with a seed. Case {@code i} is drawn from its own generator, {@code SplitMix64.forItem(seed, i)}, so it
 * does not change when {@code count} does.
 *
 * <p>Per spatial axis the sweep draws the input length ({@code l_in}, or {@code h_in}/{@code w_in}) and the
 * size ratio ({@code ratio}, or {@code ratio_h}/{@code ratio_w}: the forward multiplier, output / input), and
 * {@code scales} decides how the output length follows: {@code "given"} passes the ratio (rounded to 4
 * significant digits) as the scales argument and sets the output length to floor(input · scales), as SPEC §5
 * requires; {@code "derived"} passes scales 0 and rounds input · ratio. A draw whose output length falls
 * outside {@code l_out} (or {@code h_out}/{@code w_out}: {@code {"min", "max"}}) is drawn again. Then, while
 * N · C · (input + output elements per row) exceeds {@code max_elements}, N and then C are lowered: the big
 * end of N and C is sampled sparsely so that a sweep stays fast. An optional {@code format} (a choice of
 * {@code "nchw"} and {@code "nhwc"} for the 2-D ops) is drawn last.
 */
final class Sweep {
    /** SPEC §5: scales ≤ 500 and a size ratio ≤ 500. */
    static final double MAX_RATIO = 500.0;
    static final long DEFAULT_MAX_ELEMENTS = 2_000_000;
    /**
     * The most cases a sweep (and a case file) may hold: the cases are drawn one at a time as they run, but
     * each result is kept for the table and the report.
     */
    static final int MAX_COUNT = 100_000;
    private static final int MAX_TRIES = 1000;

    private final String context;
    private final String name;
    private final OperatorAdapter adapter;
    private final int count;
    private final long seed;
    private final Distribution<Integer> n;
    private final Distribution<Integer> c;
    private final List<Distribution<Integer>> inLengths;
    private final List<Distribution<Double>> ratios;
    private final int[][] outBounds;
    private final Distribution<Boolean> alignCorners;
    private final Distribution<String> scalesMode;
    private final Distribution<DataType> dtype;
    private final Distribution<ValueSpec> values;
    private final Distribution<Format> format;
    private final Platform platform;
    private final Standard standard;
    private final long maxElements;

    private Sweep(String context, String name, OperatorAdapter adapter, int count, long seed, Distribution<Integer> n,
                  Distribution<Integer> c, List<Distribution<Integer>> inLengths, List<Distribution<Double>> ratios,
                  int[][] outBounds, Distribution<Boolean> alignCorners, Distribution<String> scalesMode,
                  Distribution<DataType> dtype, Distribution<ValueSpec> values, Distribution<Format> format, Platform platform,
                  Standard standard, long maxElements) {
        this.context = context;
        this.name = name;
        this.adapter = adapter;
        this.count = count;
        this.seed = seed;
        this.n = n;
        this.c = c;
        this.inLengths = inLengths;
        this.ratios = ratios;
        this.outBounds = outBounds;
        this.alignCorners = alignCorners;
        this.scalesMode = scalesMode;
        this.dtype = dtype;
        this.values = values;
        this.format = format;
        this.platform = platform;
        this.standard = standard;
        this.maxElements = maxElements;
    }

    /** Parses one entry of {@code "sweeps"}. */
    static Sweep parse(JsonNode node, String where, Platform filePlatform) {
        String name = new JsonFields(node, where).requiredText("name");
        JsonFields f = new JsonFields(node, where + " ('" + name + "')");
        f.requiredText("name");
        OperatorAdapter adapter = CaseFiles.adapter(f);
        int count = f.requiredInt("count", 1);
        if (count > MAX_COUNT) {
            throw new CaseFileException(f.context() + ": field 'count' should be at most " + MAX_COUNT + " (each case's result "
                    + "is kept for the table and the report), but got " + count);
        }
        long seed = f.requiredLong("seed");
        Distribution<Integer> n = f.has("n") ? Distribution.ints(f, "n", 1) : new Distribution.Fixed<>(1);
        Distribution<Integer> c = f.has("c") ? Distribution.ints(f, "c", 1) : new Distribution.Fixed<>(1);
        String[][] axes = adapter.spatialAxes() == 1
                ? new String[][] {{"l_in", "ratio", "l_out"}}
                : new String[][] {{"h_in", "ratio_h", "h_out"}, {"w_in", "ratio_w", "w_out"}};
        List<Distribution<Integer>> inLengths = new ArrayList<>();
        List<Distribution<Double>> ratios = new ArrayList<>();
        int[][] outBounds = new int[axes.length][];
        for (int a = 0; a < axes.length; a++) {
            inLengths.add(Distribution.ints(f, axes[a][0], 1));
            ratios.add(Distribution.positiveReals(f, axes[a][1], MAX_RATIO));
            outBounds[a] = bounds(f, axes[a][2]);
        }
        Distribution<Boolean> alignCorners = Distribution.choices(f, "align_corners",
                new Distribution.Choice<>(List.of(true, false), new double[] {1, 1}), v -> {
                    if (!v.isBoolean()) {
                        throw f.wrong("align_corners", "true, false or a choice of them", v);
                    }
                    return v.asBoolean();
                });
        Distribution<String> scalesMode = Distribution.choices(f, "scales",
                new Distribution.Choice<>(List.of("given", "derived"), new double[] {1, 1}), v -> {
                    if (!v.isTextual() || !Set.of("given", "derived").contains(v.asText())) {
                        throw f.wrong("scales", "\"given\", \"derived\" or a choice of them", v);
                    }
                    return v.asText();
                });
        Distribution<DataType> dtype = Distribution.choices(f, "dtype", null, v -> CaseFiles.dataType(v, f, "dtype"));
        Distribution<ValueSpec> values = Distribution.choices(f, "values", new Distribution.Fixed<>(ValueSpec.STANDARD_NORMAL),
                v -> CaseFiles.valueSpec(v, f.context() + ", field 'values'"));
        Distribution<Format> format = Distribution.choices(f, "format", new Distribution.Fixed<>(null),
                v -> CaseFiles.format(v, f, adapter));
        Platform platform = CaseFiles.platform(f, filePlatform);
        Standard standard = CaseFiles.standard(f);
        long maxElements = f.has("max_elements") ? f.requiredLong("max_elements") : DEFAULT_MAX_ELEMENTS;
        if (maxElements < 2 || maxElements > CaseFiles.MAX_ELEMENTS_PER_TENSOR) {
            throw new CaseFileException(f.context() + ": field 'max_elements' should be in [2, "
                    + CaseFiles.MAX_ELEMENTS_PER_TENSOR + "], but got " + maxElements);
        }
        f.rejectUnknown(Set.of("comment", "description"));
        Sweep sweep = new Sweep(f.context(), name, adapter, count, seed, n, c, inLengths, ratios, outBounds, alignCorners,
                scalesMode, dtype, values, format, platform, standard, maxElements);
        // The cases are drawn as they run; drawing the first here catches bounds that can never meet before any runs.
        sweep.generate().getFirst();
        return sweep;
    }

    /** The sweep's name. */
    String name() {
        return name;
    }

    /** How many cases it draws. */
    int count() {
        return count;
    }

    /** Whether {@code caseName} is the name of one of this sweep's cases. */
    boolean names(String caseName) {
        String prefix = name + "_";
        if (!caseName.startsWith(prefix) || caseName.length() != prefix.length() + digits()) {
            return false;
        }
        String index = caseName.substring(prefix.length());
        return index.chars().allMatch(ch -> ch >= '0' && ch <= '9') && Integer.parseInt(index) < count;
    }

    private int digits() {
        return Math.max(4, Integer.toString(count - 1).length());
    }

    private static int[] bounds(JsonFields f, String field) {
        JsonNode node = f.node(field);
        if (node == null) {
            return new int[] {1, Integer.MAX_VALUE};
        }
        JsonFields range = new JsonFields(node, f.context() + ", field '" + field + "'");
        int min = range.requiredInt("min", 1);
        int max = range.requiredInt("max", min);
        range.rejectUnknown(Set.of());
        return new int[] {min, max};
    }

    /**
     * The sweep's cases, named {@code name_0000}, {@code name_0001}, ...: a list that draws case {@code i} when it is
     * asked for, so that its memory does not grow with {@code count}.
     */
    List<CheckCase> generate() {
        String pattern = "%s_%0" + digits() + "d";
        return new AbstractList<>() {
            @Override
            public CheckCase get(int i) {
                java.util.Objects.checkIndex(i, count);
                return draw(String.format(pattern, name, i), SplitMix64.forItem(seed, i));
            }

            @Override
            public int size() {
                return count;
            }
        };
    }

    private CheckCase draw(String caseName, SplitMix64 random) {
        for (int attempt = 0; attempt < MAX_TRIES; attempt++) {
            DataType type = dtype.draw(random);
            boolean corners = alignCorners.draw(random);
            boolean given = scalesMode.draw(random).equals("given");
            ValueSpec spec = values.draw(random);
            int batch = n.draw(random);
            int channels = c.draw(random);
            int axes = inLengths.size();
            int[] in = new int[axes];
            int[] out = new int[axes];
            double[] scales = new double[axes];
            boolean valid = true;
            for (int a = 0; a < axes; a++) {
                in[a] = inLengths.get(a).draw(random);
                double ratio = ratios.get(a).draw(random);
                long length;
                if (given) {
                    scales[a] = new BigDecimal(ratio).round(new MathContext(4)).doubleValue();
                    length = (long) Math.floor(in[a] * scales[a]);
                } else {
                    length = Math.round(in[a] * ratio);
                }
                valid &= length >= Math.max(1, outBounds[a][0]) && length <= outBounds[a][1] && length <= MAX_RATIO * in[a]
                        && scales[a] <= MAX_RATIO;
                out[a] = (int) Math.min(length, Integer.MAX_VALUE);
            }
            long perRow = 0;
            if (valid) {
                perRow = (long) product(in) + product(out);
                valid = perRow <= maxElements;
            }
            if (!valid) {
                continue;
            }
            // Keep N · C · perRow within max_elements: lower N first, then C.
            if ((long) batch * channels * perRow > maxElements) {
                batch = (int) Math.max(1, maxElements / ((long) channels * perRow));
            }
            if ((long) batch * channels * perRow > maxElements) {
                channels = (int) Math.max(1, maxElements / ((long) batch * perRow));
            }
            long valuesSeed = random.nextLong();
            // Drawn last, so that adding a format to a sweep leaves its other draws as they were.
            Format layout = format.draw(random);
            return new CheckCase(caseName, adapter.op(), batch, channels, in, out, corners, scales, type, layout, platform,
                    new InputSource.Drawn(spec, valuesSeed), null, null, null, null, null, standard, name);
        }
        throw new CaseFileException(context + ": could not draw a valid case in " + MAX_TRIES + " tries for " + caseName
                + ": check that the input lengths, ratios and output bounds can meet (output = input * ratio)");
    }

    private static long product(int[] sizes) {
        long p = 1;
        for (int s : sizes) {
            p *= s;
        }
        return p;
    }
}
