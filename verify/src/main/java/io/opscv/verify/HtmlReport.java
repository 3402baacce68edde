package io.opscv.verify;

import io.opscv.runtime.Platform;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The report of a run: one self-contained page, {@code DIR/index.html} (no scripts, no external files),
 * written as XHTML so that an XML parser can check it. It holds a summary per op and dtype, two inline
 * SVG charts (the max error ratio of each case, and the max error ratio against the size ratio) and a
 * table of every case with its numbers and verdict.
 */
public final class HtmlReport {
    /** The file written into the report folder. */
    public static final String FILE_NAME = "index.html";

    /** The charts' vertical range, as powers of ten of the error ratio; ratios outside are drawn at the edge. */
    static final int LOG_MIN = -6;
    static final int LOG_MAX = 3;

    private static final int CHART_WIDTH = 960;
    private static final int CHART_HEIGHT = 300;
    private static final int LEFT = 60;
    private static final int RIGHT = 20;
    private static final int TOP = 15;
    private static final int BOTTOM = 40;

    private HtmlReport() {}

    /** Writes {@code DIR/index.html} (creating DIR) and returns its path. */
    public static Path write(CheckRun run, Path dir) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(FILE_NAME);
        Files.writeString(file, render(run), StandardCharsets.UTF_8);
        return file;
    }

    /** The page. */
    public static String render(CheckRun run) {
        StringBuilder h = new StringBuilder(64 * 1024);
        h.append("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"UTF-8\"/>\n")
                .append("<title>opscv check: ").append(esc(run.source())).append("</title>\n<style>\n").append(STYLE)
                .append("</style>\n</head>\n<body>\n");
        h.append("<h1>opscv check</h1>\n<p class=\"meta\">Case file <code>").append(esc(run.source())).append("</code>; platform ")
                .append(run.platformOverride() != null ? "<code>" + esc(run.platformOverride().cliName()) + "</code> (--platform)"
                        : "as each case says (default <code>cpu</code>)")
                .append(".</p>\n<p class=\"").append(run.passed() ? "ok" : "bad").append(" headline\">")
                .append(esc(run.summaryLine())).append("</p>\n");
        h.append("<p class=\"meta\">Verdicts: the per-element criterion of golden/README.md, |got &#8722; e| &#8804; (terms + 2)&#183;2<sup>-24</sup>&#183;B + "
                + "2<sup>-p</sup>&#183;|e| + a (error ratio = |got &#8722; e| / allowed, &#8804; 1 passes); the upstream standard "
                + "MERE &lt; T, MARE &lt; 10&#183;T (T = 2<sup>-13</sup> float32, 2<sup>-10</sup> float16, 2<sup>-7</sup> bfloat16) "
                + "decides as well when the input is all ones (standard <code>auto</code>), always with <code>both</code> (an "
                + "upstream ATK case run here), and alone with <code>upstream</code> (an ATK case's hardware result). The golden "
                + "is a case's expected file, else this project's float64 reference (at least as exact as the float32 PyTorch "
                + "golden of the upstream tests). REFUSED: phase 1 refused the case as it must, with the status the case "
                + "expects or by a product rule of SPEC &#167;6; not a failure.</p>\n");
        overview(h, run);
        h.append("<h2>Each case against the limit of its verdict</h2>\n");
        perCaseChart(h, run);
        h.append("<h2>Against the size ratio</h2>\n");
        ratioChart(h, run);
        casesTable(h, run);
        h.append("</body>\n</html>\n");
        return h.toString();
    }

    private static void overview(StringBuilder h, CheckRun run) {
        Map<String, long[]> groups = new TreeMap<>();
        Map<String, Double> worst = new TreeMap<>();
        for (CaseResult r : run.results()) {
            String key = r.checkCase().op() + "\u0000" + CaseFiles.dtypeName(r.checkCase().dataType());
            long[] counts = groups.computeIfAbsent(key, k -> new long[Verdict.values().length + 1]);
            counts[r.verdict().ordinal()]++;
            counts[Verdict.values().length]++;
            if (r.judgedNumerically()) {
                worst.merge(key, r.decidingRatio(), Math::max);
            }
        }
        h.append("<h2>Overview</h2>\n<table class=\"overview\">\n<thead><tr><th>op</th><th>dtype</th><th>cases</th><th>pass</th>"
                + "<th>fail</th><th>error</th><th>refused</th><th>skip</th><th>worst ratio to the limit</th></tr></thead>\n<tbody>\n");
        for (Map.Entry<String, long[]> g : groups.entrySet()) {
            String[] key = g.getKey().split("\u0000");
            long[] n = g.getValue();
            Double w = worst.get(g.getKey());
            h.append("<tr><td>").append(esc(key[0])).append("</td><td>").append(esc(key[1])).append("</td><td class=\"num\">")
                    .append(n[Verdict.values().length]).append("</td>");
            for (Verdict v : Verdict.values()) {
                h.append("<td class=\"num\">").append(n[v.ordinal()]).append("</td>");
            }
            h.append("<td class=\"num\">").append(w == null ? "-" : SummaryTable.ratio(w)).append("</td></tr>\n");
        }
        h.append("</tbody>\n</table>\n");
    }

    /**
     * Dots: x = case number, y = log10 of the ratio to the limit that decides the case's verdict
     * ({@link CaseResult#decidingRatio}); the line at 1 is that limit, so a pass is never drawn above it.
     */
    private static void perCaseChart(StringBuilder h, CheckRun run) {
        openChart(h, "per-case", "Ratio of each judged case to the limit of its verdict, in file order");
        yAxis(h);
        int count = Math.max(1, run.results().size());
        xLabel(h, "case number (1.." + run.results().size() + ")");
        for (int i = 0; i < run.results().size(); i++) {
            CaseResult r = run.results().get(i);
            if (!r.judgedNumerically()) {
                continue;
            }
            double x = LEFT + (i + 0.5) * plotWidth() / count;
            point(h, r, x, y(r.decidingRatio()), colourOf(r));
        }
        h.append("</svg>\n");
        legend(h, false);
    }

    /** Dots: x = log10(output/input size ratio), y = log10(ratio to the deciding limit), coloured by dtype. */
    private static void ratioChart(StringBuilder h, CheckRun run) {
        List<CaseResult> judged = judged(run);
        double lo = Math.floor(Math.log10(judged.stream().mapToDouble(r -> r.checkCase().sizeRatio()).min().orElse(0.1)));
        double hi = Math.ceil(Math.log10(judged.stream().mapToDouble(r -> r.checkCase().sizeRatio()).max().orElse(10)));
        if (hi - lo < 1) {
            lo -= 1;
            hi += 1;
        }
        openChart(h, "size-ratio", "Ratio to the limit of the verdict against the size ratio, forward output / forward input "
                + "per row or plane (log scales)");
        yAxis(h);
        for (int p = (int) lo; p <= (int) hi; p++) {
            double x = LEFT + (p - lo) / (hi - lo) * plotWidth();
            h.append("<line class=\"grid\" x1=\"").append(fmt(x)).append("\" y1=\"").append(TOP).append("\" x2=\"").append(fmt(x))
                    .append("\" y2=\"").append(TOP + plotHeight()).append("\"/>\n<text class=\"tick\" x=\"").append(fmt(x))
                    .append("\" y=\"").append(TOP + plotHeight() + 15).append("\" text-anchor=\"middle\">")
                    .append(esc(power(p))).append("</text>\n");
        }
        xLabel(h, "size ratio: forward output / forward input elements per row or plane (Lout / Lin)");
        for (CaseResult r : judged) {
            double x = LEFT + (Math.log10(r.checkCase().sizeRatio()) - lo) / (hi - lo) * plotWidth();
            point(h, r, x, y(r.decidingRatio()), dtypeColour(r));
        }
        h.append("</svg>\n");
        legend(h, true);
    }

    /** The columns of a case's first row; the rest of its numbers and its note are in a detail row below it. */
    private static final List<String> COLUMNS = List.of("#", "case", "op", "dtype", "platform", "shape (input &#8594; output)",
            "max error ratio", "MERE", "MARE", "verdict");

    private static void casesTable(StringBuilder h, CheckRun run) {
        h.append("<h2>Cases</h2>\n<table class=\"cases\" id=\"cases\">\n<thead><tr>");
        for (String column : COLUMNS) {
            h.append("<th>").append(column).append("</th>");
        }
        h.append("</tr></thead>\n<tbody>\n");
        for (int i = 0; i < run.results().size(); i++) {
            CaseResult r = run.results().get(i);
            CheckCase c = r.checkCase();
            boolean numbers = r.judgedNumerically();
            String verdict = r.verdict().name().toLowerCase(Locale.ROOT);
            h.append("<tr class=\"").append(verdict).append("\">")
                    .append(cell(Integer.toString(i + 1), true))
                    .append("<td class=\"name\">").append(esc(c.name())).append("</td>")
                    .append(cell(c.op(), false)).append(cell(CaseFiles.dtypeName(c.dataType()), false))
                    .append(cell((c.platform() != null ? c.platform() : Platform.defaultPlatform()).cliName(), false))
                    .append("<td class=\"shape\">").append(esc(SummaryTable.shape(r))).append("</td>")
                    .append(cell(numbers ? SummaryTable.ratio(r.maxErrorRatio()) : "-", true))
                    .append(cell(numbers ? SummaryTable.scientific(r.mere()) : "-", true))
                    .append(cell(numbers ? SummaryTable.scientific(r.mare()) : "-", true))
                    .append("<td class=\"verdict\">").append(r.verdict().name()).append("</td></tr>\n");
            h.append("<tr class=\"detail ").append(verdict).append("\"><td></td><td colspan=\"").append(COLUMNS.size() - 1)
                    .append("\">");
            detail(h, "align corners", Boolean.toString(c.alignCorners()), false);
            detail(h, "scales", scales(c.scales()), true);
            detail(h, "input", c.input().describe(), false);
            detail(h, "judged", r.judged().isEmpty() ? "-" : r.judged() + (r.golden().isEmpty() ? "" : " against the " + r.golden()),
                    false);
            if (numbers) {
                detail(h, "terms", Integer.toString(r.terms()), true);
                if (r.worstElement() >= 0) {
                    h.append("<span class=\"field\">worst element <span class=\"num\">").append(r.worstElement())
                            .append("</span>: got <span class=\"num\">").append(esc(significant(r.worstGot())))
                            .append("</span>, expected <span class=\"num\">").append(esc(significant(r.worstExpected())))
                            .append("</span></span> ");
                }
            }
            detail(h, "T", SummaryTable.scientific(r.threshold()), true);
            detail(h, "standard", c.standard().fileName() + (numbers && r.allOnes() ? " (all ones)" : ""), false);
            if (!r.message().isEmpty()) {
                h.append("<div class=\"note\">").append(esc(r.message())).append("</div>");
            }
            h.append("</td></tr>\n");
        }
        h.append("</tbody>\n</table>\n");
    }

    /** One labelled value of a detail row; a number does not wrap. */
    private static void detail(StringBuilder h, String label, String value, boolean number) {
        h.append("<span class=\"field\">").append(esc(label)).append(' ').append(number ? "<span class=\"num\">" : "<b>")
                .append(esc(value)).append(number ? "</span>" : "</b>").append("</span> ");
    }

    private static List<CaseResult> judged(CheckRun run) {
        List<CaseResult> judged = new ArrayList<>();
        for (CaseResult r : run.results()) {
            if (r.judgedNumerically()) {
                judged.add(r);
            }
        }
        return judged;
    }

    private static void openChart(StringBuilder h, String id, String caption) {
        h.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" id=\"").append(id).append("\" width=\"")
                .append(CHART_WIDTH).append("\" height=\"").append(CHART_HEIGHT).append("\" viewBox=\"0 0 ").append(CHART_WIDTH)
                .append(' ').append(CHART_HEIGHT).append("\" role=\"img\">\n<title>").append(esc(caption)).append("</title>\n")
                .append("<rect class=\"frame\" x=\"").append(LEFT).append("\" y=\"").append(TOP).append("\" width=\"")
                .append(plotWidth()).append("\" height=\"").append(plotHeight()).append("\"/>\n");
    }

    private static void yAxis(StringBuilder h) {
        for (int p = LOG_MIN; p <= LOG_MAX; p++) {
            double y = TOP + (LOG_MAX - p) * plotHeight() / (double) (LOG_MAX - LOG_MIN);
            h.append("<line class=\"").append(p == 0 ? "limit" : "grid").append("\" x1=\"").append(LEFT).append("\" y1=\"")
                    .append(fmt(y)).append("\" x2=\"").append(LEFT + plotWidth()).append("\" y2=\"").append(fmt(y)).append("\"/>\n")
                    .append("<text class=\"tick\" x=\"").append(LEFT - 6).append("\" y=\"").append(fmt(y + 4))
                    .append("\" text-anchor=\"end\">").append(esc(power(p))).append("</text>\n");
        }
        h.append("<text class=\"axis\" transform=\"translate(14 ").append(TOP + plotHeight() / 2)
                .append(") rotate(-90)\" text-anchor=\"middle\">ratio to the limit</text>\n");
    }

    private static void xLabel(StringBuilder h, String label) {
        h.append("<text class=\"axis\" x=\"").append(LEFT + plotWidth() / 2).append("\" y=\"").append(CHART_HEIGHT - 6)
                .append("\" text-anchor=\"middle\">").append(esc(label)).append("</text>\n");
    }

    private static void point(StringBuilder h, CaseResult r, double x, double y, String colour) {
        boolean failed = r.verdict() != Verdict.PASS;
        h.append("<circle class=\"point").append(failed ? " failed" : "").append("\" cx=\"").append(fmt(x)).append("\" cy=\"")
                .append(fmt(y)).append("\" r=\"").append(failed ? 5 : 3).append("\" fill=\"").append(colour).append("\">")
                .append("<title>").append(esc(r.checkCase().name() + ": " + r.verdict() + " by standard " + r.checkCase().standard()
                        .fileName() + ", ratio to its limit " + SummaryTable.ratio(r.decidingRatio()) + " (max error ratio "
                        + SummaryTable.ratio(r.maxErrorRatio()) + ", MERE " + SummaryTable.scientific(r.mere()) + ", MARE "
                        + SummaryTable.scientific(r.mare()) + "), size ratio " + String.format(Locale.ROOT, "%.4g",
                        r.checkCase().sizeRatio())))
                .append("</title></circle>\n");
    }

    private static void legend(StringBuilder h, boolean byDtype) {
        h.append("<p class=\"legend\">");
        if (byDtype) {
            h.append("<span style=\"color:").append(DTYPE_COLOURS[0]).append("\">&#9679; float32</span> <span style=\"color:")
                    .append(DTYPE_COLOURS[1]).append("\">&#9679; float16</span> <span style=\"color:").append(DTYPE_COLOURS[2])
                    .append("\">&#9679; bfloat16</span>; large dots did not pass");
        } else {
            h.append("<span style=\"color:").append(PASS_COLOUR).append("\">&#9679; pass</span> <span style=\"color:")
                    .append(FAIL_COLOUR).append("\">&#9679; fail</span>");
        }
        h.append(". A case is drawn at its ratio to the limit that decides its verdict: the max error ratio where the "
                + "per-element criterion decides, the larger of MERE/T and MARE/10&#183;T where the upstream standard does, the "
                + "larger of the two where both do; at or below the red line (1) it passes. Ratios of 0 sit on the bottom edge, "
                + "infinite ones (a broken NaN/overflow rule) on the top edge. Cases without numbers (REFUSED, ERROR, SKIP) are "
                + "not drawn.</p>\n");
    }

    private static final String PASS_COLOUR = "#2e7d32";
    private static final String FAIL_COLOUR = "#c62828";
    private static final String[] DTYPE_COLOURS = {"#1565c0", "#ef6c00", "#6a1b9a"};

    private static String colourOf(CaseResult r) {
        return r.verdict() == Verdict.PASS ? PASS_COLOUR : FAIL_COLOUR;
    }

    private static String dtypeColour(CaseResult r) {
        return switch (r.checkCase().dataType()) {
            case FLOAT16 -> DTYPE_COLOURS[1];
            case BF16 -> DTYPE_COLOURS[2];
            default -> DTYPE_COLOURS[0];
        };
    }

    private static double y(double ratio) {
        double log = ratio > 0 ? Math.log10(ratio) : LOG_MIN;
        log = Math.clamp(log, LOG_MIN, LOG_MAX);
        return TOP + (LOG_MAX - log) * plotHeight() / (LOG_MAX - LOG_MIN);
    }

    private static int plotWidth() {
        return CHART_WIDTH - LEFT - RIGHT;
    }

    private static int plotHeight() {
        return CHART_HEIGHT - TOP - BOTTOM;
    }

    private static String power(int p) {
        return p == 0 ? "1" : p == 1 ? "10" : "1e" + p;
    }

    private static String scales(double[] scales) {
        StringBuilder s = new StringBuilder();
        for (double v : scales) {
            s.append(s.isEmpty() ? "" : ", ").append(v == 0 ? "0" : String.format(Locale.ROOT, "%.6g", v));
        }
        return s.toString();
    }

    /** The shortest text of a float32 value; else 9 significant digits (enough to tell float32 neighbours apart). */
    private static String significant(double v) {
        if (!Double.isFinite(v) || (double) (float) v == v) {
            return Float.toString((float) v);
        }
        return String.format(Locale.ROOT, "%.9g", v);
    }

    private static String cell(String text, boolean number) {
        return (number ? "<td class=\"num\">" : "<td>") + esc(text) + "</td>";
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /** XML text: escapes markup characters and drops characters XML 1.0 cannot hold. */
    static String esc(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        text.codePoints().forEach(cp -> {
            switch (cp) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                default -> {
                    boolean allowed = cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF)
                            || (cp >= 0xE000 && cp <= 0xFFFD) || cp >= 0x10000;
                    out.appendCodePoint(allowed ? cp : 0xFFFD);
                }
            }
        });
        return out.toString();
    }

    private static final String STYLE = String.join("\n", Arrays.asList(
            "body { font-family: system-ui, sans-serif; margin: 24px; color: #222; }",
            "h1 { margin-bottom: 4px; } h2 { margin-top: 28px; }",
            "code { background: #f3f3f3; padding: 0 3px; }",
            ".meta { color: #555; max-width: 1100px; }",
            ".headline { font-size: 1.2em; font-weight: bold; }",
            ".ok { color: #2e7d32; } .bad { color: #c62828; }",
            "table { border-collapse: collapse; font-size: 13px; }",
            "th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: left; vertical-align: top; }",
            "th { background: #eee; position: sticky; top: 0; }",
            "td.num { text-align: right; font-variant-numeric: tabular-nums; }",
            "td.num, span.num, td.verdict { white-space: nowrap; } span.num { font-variant-numeric: tabular-nums; }",
            "table.cases { max-width: 100%; } tr.detail td { border-top: none; font-size: 12px; color: #444; }",
            "tr.detail .field { margin-right: 14px; display: inline-block; } .note { overflow-wrap: anywhere; }",
            "tbody tr:not(.detail) td { border-bottom: none; }",
            "tr.fail td, tr.error td { background: #fdecea; } tr.skip td, tr.refused td { color: #888; }",
            "td.verdict { font-weight: bold; } td.shape, td.name { white-space: nowrap; }",
            "tr.pass td.verdict { color: #2e7d32; } tr.fail td.verdict, tr.error td.verdict { color: #c62828; }",
            "svg.chart { display: block; background: #fff; }",
            "svg .frame { fill: none; stroke: #999; } svg .grid { stroke: #e4e4e4; }",
            "svg .limit { stroke: #c62828; stroke-dasharray: 6 4; stroke-width: 1.5; }",
            "svg .tick { font-size: 11px; fill: #555; } svg .axis { font-size: 12px; fill: #333; }",
            "svg .point { fill-opacity: 0.75; } svg .point.failed { stroke: #000; stroke-width: 1; }",
            ".legend { font-size: 13px; color: #555; }",
            ""));
}
