package io.opscv.verify;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The plain-text summary of a run: one row per case (case, op, dtype, shape, max error ratio, MERE,
 * MARE, verdict), then the counts.
 */
public final class SummaryTable {
    private static final String[] HEADER = {"case", "op", "dtype", "shape (input -> output)", "max err ratio", "MERE", "MARE",
        "verdict"};
    /** Columns aligned to the right (numbers). */
    private static final boolean[] RIGHT = {false, false, false, false, true, true, true, false};

    private SummaryTable() {}

    /** The table and the summary line, each line ending with a newline. */
    public static String format(CheckRun run) {
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        for (CaseResult r : run.results()) {
            rows.add(row(r));
        }
        int[] width = new int[HEADER.length];
        for (String[] row : rows) {
            for (int k = 0; k < row.length; k++) {
                width[k] = Math.max(width[k], row[k].length());
            }
        }
        StringBuilder text = new StringBuilder();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int k = 0; k < row.length; k++) {
                String cell = RIGHT[k] ? " ".repeat(width[k] - row[k].length()) + row[k]
                        : row[k] + " ".repeat(width[k] - row[k].length());
                line.append(k == 0 ? "" : "  ").append(cell);
            }
            text.append(line.toString().stripTrailing()).append('\n');
        }
        text.append(run.summaryLine()).append('\n');
        return text.toString();
    }

    static String[] row(CaseResult r) {
        return new String[] {r.checkCase().name(), r.checkCase().op(), CaseFiles.dtypeName(r.checkCase().dataType()), shape(r),
            r.judgedNumerically() ? ratio(r.maxErrorRatio()) : "-", r.judgedNumerically() ? scientific(r.mere()) : "-",
            r.judgedNumerically() ? scientific(r.mare()) : "-", r.verdict().name()};
    }

    /** The operator's input and output shapes, e.g. {@code 2x3x32 -> 2x3x16}, or {@code 1x8x8x3 -> 1x4x4x3 nhwc}. */
    static String shape(CaseResult r) {
        OperatorAdapter adapter = OperatorAdapters.find(r.checkCase().op());
        if (adapter == null) {
            return "-";
        }
        return dims(adapter.inputShape(r.checkCase())) + " -> " + dims(adapter.outputShape(r.checkCase()))
                + (r.checkCase().channelsLast() ? " nhwc" : "");
    }

    static String dims(long[] shape) {
        StringBuilder s = new StringBuilder();
        for (long d : shape) {
            s.append(s.isEmpty() ? "" : "x").append(d);
        }
        return s.toString();
    }

    /** An error ratio: 4 significant digits; "inf" for a broken NaN/overflow rule. */
    static String ratio(double value) {
        if (Double.isInfinite(value)) {
            return "inf";
        }
        return String.format(Locale.ROOT, "%.4g", value);
    }

    static String scientific(double value) {
        if (Double.isInfinite(value)) {
            return "inf";
        }
        return String.format(Locale.ROOT, "%.2e", value);
    }
}
