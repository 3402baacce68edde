package io.opscv.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.npy.Npy;
import io.opscv.testing.GoldenFiles;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPath;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The HTML report is well-formed XHTML (the JDK's XML parser reads it), self-contained, and lists every case;
 * its charts have one point per judged case. (bin/render-report shows it in Chromium.)
 */
class HtmlReportTest {
    private static final String XHTML = "http://www.w3.org/1999/xhtml";
    private static final String SVG = "http://www.w3.org/2000/svg";

    @TempDir
    Path dir;

    @Test
    void theGoldenRunsReportListsEveryCaseAndParses() throws Exception {
        CheckRun run = Checker.check(GoldenFiles.casesJson().toString(), CaseFiles.read(GoldenFiles.casesJson()), null, l -> { });
        Document page = parse(HtmlReport.write(run, dir.resolve("golden-report")));
        assertEquals(names(run), caseNames(page));
        assertEquals(run.summaryLine(), text(page, "//*[local-name()='p'][contains(@class, 'headline')]"));
        // Two charts, each with a point per numerically judged case: all 21, of the three operators in the golden set.
        NodeList charts = page.getElementsByTagNameNS(SVG, "svg");
        assertEquals(2, charts.getLength());
        for (int k = 0; k < charts.getLength(); k++) {
            assertEquals(21, ((Element) charts.item(k)).getElementsByTagNameNS(SVG, "circle").getLength());
        }
        // The overview has a row per op and dtype: 1-D backward (float32, float16, bfloat16), forward (all three),
        // 2-D backward (float32, float16).
        NodeList overviewRows = (NodeList) XPathFactory.newInstance().newXPath().evaluate(
                "//*[local-name()='table'][contains(@class, 'overview')]/*[local-name()='tbody']/*[local-name()='tr']", page,
                XPathConstants.NODESET);
        assertEquals(8, overviewRows.getLength());
    }

    @Test
    void everyKindOfOutcomeAndAwkwardNamesAreShownAndEscaped() throws Exception {
        Path cases = dir.resolve("mixed.json");
        try (Arena arena = Arena.ofConfined()) {
            // A result with the wrong values: all zeros, where the reference of an all-ones gradOut is 2 everywhere.
            Npy.write(dir.resolve("zeros.npy"), "<f4", new long[] {1, 2, 6}, arena.allocate(4 * 12));
        }
        Files.writeString(cases, """
                {"cases": [
                  {"op": "upsample_linear1d_backward", "name": "a <b> & \\"c\\" 'd'", "n": 1, "c": 2, "l_in": 6, "l_out": 12,
                   "dtype": "float16", "values": "normal"},
                  {"op": "upsample_linear1d_backward", "name": "wrong", "n": 1, "c": 2, "l_in": 6, "l_out": 12,
                   "dtype": "float32", "values": "ones", "actual": "zeros.npy"},
                  {"op": "upsample_linear1d_backward", "name": "refused", "n": 1, "c": 1, "l_in": 6, "l_out": 3300,
                   "scales": 550, "dtype": "float32", "expect_status": 161002},
                  {"op": "upsample_linear1d_backward", "name": "missing", "n": 1, "c": 1, "l_in": 6, "l_out": 12,
                   "dtype": "float32", "grad_out": "missing<&>.npy"},
                  {"op": "upsample_bilinear2d", "name": "nhwc", "n": 1, "c": 3, "h_in": 2, "w_in": 3, "h_out": 4, "w_out": 6,
                   "dtype": "bfloat16", "format": "nhwc", "values": "ones"},
                  {"op": "upsample_bilinear2d", "name": "bf16_on_training_series", "n": 1, "c": 1, "h_in": 2, "w_in": 3, "h_out": 4, "w_out": 6,
                   "dtype": "bfloat16", "values": "ones", "platform": "ascend910"}
                ]}""");
        CheckRun run = Checker.check(cases + " <&>", CaseFiles.read(cases), null, l -> { });
        List<String> verdicts = run.results().stream().map(r -> r.verdict().name()).toList();
        assertEquals(List.of("PASS", "FAIL", "REFUSED", "ERROR", "PASS", "REFUSED"), verdicts);
        Path file = HtmlReport.write(run, dir.resolve("mixed-report"));
        String html = Files.readString(file);
        assertTrue(!html.contains("<script") && !html.contains("src=\"") && !html.contains("href=\""), "self-contained");
        Document page = parse(file);
        assertEquals(names(run), caseNames(page));
        assertEquals("a <b> & \"c\" 'd'", caseNames(page).getFirst());
        // Rows carry their verdict as a class (the page colours them), each followed by its detail row; the failure says
        // which element.
        NodeList rows = rows(page);
        NodeList details = details(page);
        assertEquals(rows.getLength(), details.getLength());
        for (int k = 0; k < rows.getLength(); k++) {
            assertEquals(verdicts.get(k).toLowerCase(java.util.Locale.ROOT), ((Element) rows.item(k)).getAttribute("class"));
            assertEquals("detail " + verdicts.get(k).toLowerCase(java.util.Locale.ROOT), ((Element) details.item(k)).getAttribute("class"));
        }
        // The out of an all-ones gradOut upsampled 2x is 2 everywhere.
        assertTrue(details.item(1).getTextContent().contains("0: got 0.0, expected 2.0"), details.item(1).getTextContent());
        assertTrue(details.item(3).getTextContent().contains("missing<&>.npy: no such file"), details.item(3).getTextContent());
        assertTrue(rows.item(4).getTextContent().contains("1x2x3x3 -> 1x4x6x3 nhwc"), rows.item(4).getTextContent());
        assertTrue(rows.item(5).getTextContent().contains("ascend910"), rows.item(5).getTextContent());
        assertTrue(details.item(5).getTextContent().contains("SPEC §6: the training series (Ascend910) has no BF16"),
                details.item(5).getTextContent());
        // Three cases have numbers (the two passing drawn ones and the wrong actual): three points per chart, one failed.
        NodeList charts = page.getElementsByTagNameNS(SVG, "svg");
        for (int k = 0; k < charts.getLength(); k++) {
            NodeList points = ((Element) charts.item(k)).getElementsByTagNameNS(SVG, "circle");
            assertEquals(3, points.getLength());
            assertEquals("point failed", ((Element) points.item(1)).getAttribute("class"));
        }
    }

    private static List<String> names(CheckRun run) {
        return run.results().stream().map(r -> r.checkCase().name()).toList();
    }

    /** The cases table's first row of each case. */
    static NodeList rows(Document page) throws Exception {
        XPath xpath = XPathFactory.newInstance().newXPath();
        return (NodeList) xpath.evaluate("//*[local-name()='table'][@id='cases']/*[local-name()='tbody']/*[local-name()='tr']"
                + "[not(starts-with(@class, 'detail'))]", page, XPathConstants.NODESET);
    }

    /** The detail row below each case's first row. */
    static NodeList details(Document page) throws Exception {
        XPath xpath = XPathFactory.newInstance().newXPath();
        return (NodeList) xpath.evaluate("//*[local-name()='table'][@id='cases']/*[local-name()='tbody']/*[local-name()='tr']"
                + "[starts-with(@class, 'detail')]", page, XPathConstants.NODESET);
    }

    private static List<String> caseNames(Document page) throws Exception {
        NodeList rows = rows(page);
        List<String> names = new ArrayList<>();
        for (int k = 0; k < rows.getLength(); k++) {
            NodeList cells = ((Element) rows.item(k)).getElementsByTagNameNS(XHTML, "td");
            names.add(cells.item(1).getTextContent());
        }
        return names;
    }

    private static String text(Document page, String path) throws Exception {
        return XPathFactory.newInstance().newXPath().evaluate(path, page);
    }

    /** Parses the page as XML: any markup error (unclosed tag, bare '&' or '<') fails here. */
    static Document parse(Path file) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        DocumentBuilder builder = factory.newDocumentBuilder();
        builder.setErrorHandler(null);
        Document page = builder.parse(file.toFile());
        assertEquals(XHTML, page.getDocumentElement().getNamespaceURI());
        assertEquals("html", page.getDocumentElement().getLocalName());
        return page;
    }
}
