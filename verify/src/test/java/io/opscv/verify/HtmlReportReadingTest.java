package io.opscv.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The report as a person reads it (bin/render-report shows it in Chromium at 1400 px): the cases table keeps its
 * first row to ten columns and puts the rest in a detail row, numbers do not wrap, the charts never draw a pass
 * above the limit nor a failure below it, and "refused" counts the same cases in the table, overview and summary.
 */
class HtmlReportReadingTest {
    private static final String SVG = "http://www.w3.org/2000/svg";

    @TempDir
    Path dir;

    /** A result judged by the upstream standard alone (PASS, error ratio 17), the same judged by the criterion (FAIL), refusals. */
    private Document report() throws Exception {
        Path data = ShippedSweepsTest.examples("data").toAbsolutePath();
        String fwd = "\"op\": \"upsample_linear1d\", \"n\": 1, \"c\": 3, \"l_in\": 10, \"l_out\": 25, \"dtype\": \"float32\", "
                + "\"self\": \"" + data.resolve("device_fwd_f32.self.npy") + "\", \"actual\": \"" + data.resolve("device_fwd_f32.actual.npy")
                + "\"";
        Path file = Files.writeString(dir.resolve("reading.json"), "{\"cases\": ["
                + "{\"name\": \"npu_by_upstream\", " + fwd + ", \"standard\": \"upstream\"},"
                + "{\"name\": \"npu_by_criterion\", " + fwd + ", \"standard\": \"element\"},"
                + "{\"op\": \"upsample_linear1d_backward\", \"name\": \"scale501_refused\", \"n\": 1, \"c\": 1, \"l_in\": 6, "
                + "\"l_out\": 3300, \"scales\": 550, \"dtype\": \"float32\", \"expect_status\": 161002},"
                + "{\"op\": \"upsample_linear1d_backward\", \"name\": \"bf16_on_a2\", \"n\": 1, \"c\": 1, \"l_in\": 6, \"l_out\": 12, "
                + "\"dtype\": \"bfloat16\", \"values\": \"ones\", \"platform\": \"ascend910b\"},"
                + "{\"op\": \"upsample_linear1d_backward\", \"name\": \"ones\", \"n\": 2, \"c\": 3, \"l_in\": 7, \"l_out\": 20, "
                + "\"dtype\": \"float16\", \"values\": \"ones\"}"
                + "]}");
        CheckRun run = Checker.check(file.toString(), CaseFiles.read(file), null, l -> { });
        assertEquals(java.util.List.of(Verdict.PASS, Verdict.FAIL, Verdict.REFUSED, Verdict.REFUSED, Verdict.PASS),
                run.results().stream().map(CaseResult::verdict).toList());
        assertTrue(run.results().getFirst().maxErrorRatio() > 10, "the NPU's float32 coordinates: error ratio 17");
        return HtmlReportTest.parse(HtmlReport.write(run, dir.resolve("report")));
    }

    @Test
    void eachCaseHasTenColumnsAndADetailRowAndNumbersDoNotWrap() throws Exception {
        Document page = report();
        NodeList rows = HtmlReportTest.rows(page);
        NodeList details = HtmlReportTest.details(page);
        assertEquals(5, rows.getLength());
        for (int k = 0; k < rows.getLength(); k++) {
            NodeList cells = ((Element) rows.item(k)).getElementsByTagNameNS("http://www.w3.org/1999/xhtml", "td");
            assertEquals(10, cells.getLength(), "the first row keeps to the columns that fit 1400 px");
            for (int column : new int[] {0, 6, 7, 8}) {
                assertEquals("num", ((Element) cells.item(column)).getAttribute("class"), "column " + column + " is a number");
            }
            NodeList detail = ((Element) details.item(k)).getElementsByTagNameNS("http://www.w3.org/1999/xhtml", "td");
            assertEquals("9", ((Element) detail.item(1)).getAttribute("colspan"));
        }
        assertTrue(details.item(1).getTextContent().contains("terms 2"), details.item(1).getTextContent());
        String style = XPathFactory.newInstance().newXPath().evaluate("//*[local-name()='style']", page);
        assertTrue(style.contains("td.num, span.num, td.verdict { white-space: nowrap; }"), style);
    }

    @Test
    void theChartsDrawAPassAtOrBelowTheLimitAndAFailureAboveIt() throws Exception {
        Document page = report();
        NodeList charts = page.getElementsByTagNameNS(SVG, "svg");
        assertEquals(2, charts.getLength());
        for (int k = 0; k < charts.getLength(); k++) {
            Element chart = (Element) charts.item(k);
            double limit = Double.NaN;
            NodeList lines = chart.getElementsByTagNameNS(SVG, "line");
            for (int i = 0; i < lines.getLength(); i++) {
                Element line = (Element) lines.item(i);
                if (line.getAttribute("class").equals("limit")) {
                    limit = Double.parseDouble(line.getAttribute("y1"));
                }
            }
            NodeList points = chart.getElementsByTagNameNS(SVG, "circle");
            assertEquals(3, points.getLength(), "the judged cases: both NPU results and the ones case");
            for (int i = 0; i < points.getLength(); i++) {
                Element point = (Element) points.item(i);
                String title = point.getTextContent();
                double y = Double.parseDouble(point.getAttribute("cy"));
                if (title.contains(": PASS ")) {
                    assertTrue(y >= limit, title + " is drawn above the limit line (SVG y grows downwards)");
                } else {
                    assertTrue(title.contains(": FAIL "), title);
                    assertTrue(y < limit, title + " is drawn at or below the limit line");
                }
            }
        }
    }

    @Test
    void refusedCountsTheSameCasesInTheTableTheOverviewAndTheSummary() throws Exception {
        Document page = report();
        NodeList rows = HtmlReportTest.rows(page);
        int refusedRows = 0;
        for (int k = 0; k < rows.getLength(); k++) {
            String verdict = XPathFactory.newInstance().newXPath().evaluate("*[@class='verdict']", rows.item(k));
            refusedRows += verdict.equals("REFUSED") ? 1 : 0;
            if (rows.item(k).getTextContent().contains("scale501_refused")) {
                assertEquals("REFUSED", verdict, "phase 1 refused it as the case expects");
            }
        }
        assertEquals(2, refusedRows);
        String headline = XPathFactory.newInstance().newXPath().evaluate("//*[local-name()='p'][contains(@class, 'headline')]", page);
        assertTrue(headline.startsWith("5 cases: 2 passed, 1 failed, 0 errors, 2 refused, 0 skipped (1 with the status the case "
                + "expects; refused by ascend910b as SPEC §6 says)"), headline);
        // The overview's refused column (the seventh) sums to the same.
        NodeList overview = (NodeList) XPathFactory.newInstance().newXPath().evaluate(
                "//*[local-name()='table'][contains(@class, 'overview')]/*[local-name()='tbody']/*[local-name()='tr']"
                        + "/*[local-name()='td'][7]", page, XPathConstants.NODESET);
        int sum = 0;
        for (int k = 0; k < overview.getLength(); k++) {
            sum += Integer.parseInt(overview.item(k).getTextContent());
        }
        assertEquals(2, sum);
        assertTrue(Set.of("refused").contains(XPathFactory.newInstance().newXPath().evaluate(
                "//*[local-name()='table'][contains(@class, 'overview')]/*[local-name()='thead']//*[local-name()='th'][7]", page)));
    }
}
