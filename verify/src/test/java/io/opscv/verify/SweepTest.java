package io.opscv.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.runtime.DataType;
import io.opscv.runtime.Platform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Generated cases: reproducible from the seed, within every range, valid under SPEC §5. */
class SweepTest {
    @TempDir
    Path dir;

    private static final String SWEEP = """
            {"sweeps": [{"name": "s", "op": "upsample_linear1d_backward", "count": %d, "seed": %d,
              "n": {"min": 1, "max": 539, "log": true}, "c": {"min": 1, "max": 257, "log": true},
              "l_in": {"min": 1, "max": 257, "log": true}, "ratio": {"min": 0.0625, "max": 49.2, "log": true},
              "l_out": {"min": 1, "max": 3087}, "dtype": {"choices": ["float16", "bfloat16", "float32"], "weights": [2, 1, 0]},
              "values": ["ones", "normal"], "platform": "ascend950", "max_elements": 100000}]}""";

    @Test
    void theSameSeedGivesTheSameCasesAndCaseIDoesNotDependOnCount() throws IOException {
        List<CheckCase> a = CaseFiles.read(write(SWEEP.formatted(300, 7)));
        List<CheckCase> b = CaseFiles.read(write(SWEEP.formatted(300, 7)));
        List<CheckCase> prefix = CaseFiles.read(write(SWEEP.formatted(50, 7)));
        List<CheckCase> other = CaseFiles.read(write(SWEEP.formatted(300, 8)));
        assertEquals(300, a.size());
        assertEquals(describe(a), describe(b));
        assertEquals(describe(a).subList(0, 50), describe(prefix));
        assertTrue(!describe(a).equals(describe(other)), "another seed, other cases");
        assertEquals("s_0000", a.getFirst().name());
        assertEquals("s_0299", a.getLast().name());
    }

    @Test
    void everyCaseIsWithinItsRangesAndValidUnderSpecSection5() throws IOException {
        List<CheckCase> cases = CaseFiles.read(write(SWEEP.formatted(400, 11)));
        int given = 0;
        int downsampling = 0;
        for (CheckCase c : cases) {
            int lin = c.inSizes()[0];
            int lout = c.outSizes()[0];
            double scales = c.scales()[0];
            assertTrue(lin >= 1 && lin <= 257, c.describe());
            assertTrue(lout >= 1 && lout <= 3087, c.describe());
            assertTrue(c.n() >= 1 && c.n() <= 539 && c.c() >= 1 && c.c() <= 257, c.describe());
            assertTrue((long) c.n() * c.c() * (lin + lout) <= 100000, "max_elements: " + c.describe());
            assertTrue(lout <= 500L * lin && scales <= 500, c.describe());
            if (scales != 0) {
                given++;
                // SPEC §5: with scales given, outputSize[0] == floor(inputSize[2] * scales) (as Checks computes it).
                assertEquals((double) lout, Math.floor((long) lin * scales), c.describe());
                assertTrue(scales >= 0.0625 && scales <= 49.2, c.describe());
            } else {
                double ratio = (double) lout / lin;
                assertTrue(ratio >= 0.0625 / 2 && ratio <= 49.2 * 1.5, c.describe());
            }
            downsampling += lout < lin ? 1 : 0;
            assertEquals(Platform.ASCEND950, c.platform());
            assertEquals("s", c.origin());
        }
        assertTrue(given > 120 && given < 280, "given scales in about half the cases: " + given);
        assertTrue(downsampling > 60, "downsampling cases: " + downsampling);
    }

    @Test
    void choicesFollowTheirWeights() throws IOException {
        List<CheckCase> cases = CaseFiles.read(write(SWEEP.formatted(600, 3)));
        Map<DataType, Long> types = cases.stream().collect(Collectors.groupingBy(CheckCase::dataType, Collectors.counting()));
        assertEquals(null, types.get(DataType.FLOAT), "weight 0 is never drawn");
        long f16 = types.get(DataType.FLOAT16);
        assertTrue(f16 > 340 && f16 < 460, "float16 about 2/3 of 600: " + f16);
        Map<Boolean, Long> corners = cases.stream().collect(Collectors.groupingBy(CheckCase::alignCorners, Collectors.counting()));
        assertTrue(corners.get(true) > 240 && corners.get(false) > 240, corners.toString());
        Map<String, Long> values = cases.stream().collect(Collectors.groupingBy(c -> c.input().describe().split(" ")[0],
                Collectors.counting()));
        assertEquals(2, values.size(), values.toString());
    }

    @Test
    void logRangesReachBothEnds() throws IOException {
        List<CheckCase> cases = CaseFiles.read(write(SWEEP.formatted(600, 5)));
        Map<String, Function<CheckCase, Integer>> fields = Map.of("l_in", c -> c.inSizes()[0], "l_out", c -> c.outSizes()[0]);
        for (var field : fields.entrySet()) {
            int min = cases.stream().map(field.getValue()).min(Integer::compare).orElseThrow();
            int max = cases.stream().map(field.getValue()).max(Integer::compare).orElseThrow();
            assertTrue(min <= 2, field.getKey() + " min " + min);
            assertTrue(max >= (field.getKey().equals("l_in") ? 200 : 2000), field.getKey() + " max " + max);
        }
    }

    @Test
    void twoDimensionalSweepsDrawBothAxes() throws IOException {
        List<CheckCase> cases = CaseFiles.read(write("""
                {"sweeps": [{"name": "b", "op": "upsample_bilinear2d_backward", "count": 100, "seed": 1,
                  "h_in": {"min": 1, "max": 64}, "w_in": 9, "ratio_h": [0.5, 2], "ratio_w": 3, "scales": "given",
                  "dtype": "float32", "align_corners": false}]}"""));
        for (CheckCase c : cases) {
            assertEquals(2, c.inSizes().length);
            assertEquals(9, c.inSizes()[1]);
            assertEquals(27, c.outSizes()[1]);
            assertEquals(3.0, c.scales()[1]);
            assertTrue(c.scales()[0] == 0.5 || c.scales()[0] == 2.0, c.describe());
            assertEquals(Math.floor(c.inSizes()[0] * c.scales()[0]), c.outSizes()[0], c.describe());
            assertEquals(1, c.n());
            assertEquals(1, c.c());
        }
    }

    @Test
    void aFormatChoiceIsDrawnLastSoTheOtherDrawsStayAsTheyWere() throws IOException {
        String sweep = """
                {"sweeps": [{"name": "b", "op": "upsample_bilinear2d", "count": 200, "seed": 5,
                  "n": {"min": 1, "max": 8}, "c": {"min": 1, "max": 16}, "h_in": {"min": 1, "max": 64}, "w_in": {"min": 1, "max": 64},
                  "ratio_h": {"min": 0.25, "max": 4}, "ratio_w": {"min": 0.25, "max": 4}, "dtype": ["float32", "bfloat16"]%s}]}""";
        List<CheckCase> plain = CaseFiles.read(write(sweep.formatted("")));
        List<CheckCase> mixed = CaseFiles.read(write(sweep.formatted(", \"format\": [\"nchw\", \"nhwc\"]")));
        long nhwc = 0;
        for (int i = 0; i < plain.size(); i++) {
            CheckCase a = plain.get(i);
            CheckCase b = mixed.get(i);
            assertEquals(a.describe(), b.describe().replace(" format=nhwc", "").replace(" format=nchw", ""));
            assertEquals(null, a.format());
            nhwc += b.channelsLast() ? 1 : 0;
        }
        assertTrue(nhwc > 70 && nhwc < 130, "about half NHWC: " + nhwc);
    }

    @Test
    void impossibleRangesAreReportedNotLoopedOn() {
        CaseFileException e = assertThrows(CaseFileException.class, () -> CaseFiles.read(write("""
                {"sweeps": [{"name": "z", "op": "upsample_linear1d", "count": 3, "seed": 1, "l_in": 4, "ratio": 0.1,
                  "dtype": "float32"}]}""")));
        assertTrue(e.getMessage().contains("sweep 0 ('z'): could not draw a valid case in 1000 tries for z_0000"), e.getMessage());
    }

    @Test
    void sweepMistakesAreNamed() {
        assertError("field 'ratio' should be a number in (0, 500.0], but got 600", """
                {"sweeps": [{"name": "z", "op": "upsample_linear1d", "count": 3, "seed": 1, "l_in": 4, "ratio": 600,
                  "dtype": "float32"}]}""");
        assertError("missing field 'seed'", """
                {"sweeps": [{"name": "z", "op": "upsample_linear1d", "count": 3, "l_in": 4, "ratio": 2, "dtype": "float32"}]}""");
        assertError("sweep 0 ('z'), field 'l_in': field 'max' should be an integer >= 8, but got 4", """
                {"sweeps": [{"name": "z", "op": "upsample_linear1d", "count": 3, "seed": 1, "l_in": {"min": 8, "max": 4},
                  "ratio": 2, "dtype": "float32"}]}""");
        assertError("field 'dtype' should be weights: an array of 2 numbers (one per choice)", """
                {"sweeps": [{"name": "z", "op": "upsample_linear1d", "count": 3, "seed": 1, "l_in": 4, "ratio": 2,
                  "dtype": {"choices": ["float32", "float16"], "weights": [1]}}]}""");
        assertError("field 'scales' should be \"given\", \"derived\" or a choice of them, but got \"both\"", """
                {"sweeps": [{"name": "z", "op": "upsample_linear1d", "count": 3, "seed": 1, "l_in": 4, "ratio": 2,
                  "dtype": "float32", "scales": "both"}]}""");
        assertError("unknown field [h_in]", """
                {"sweeps": [{"name": "z", "op": "upsample_linear1d", "count": 3, "seed": 1, "l_in": 4, "ratio": 2,
                  "dtype": "float32", "h_in": 3}]}""");
    }

    private void assertError(String expected, String json) {
        CaseFileException e = assertThrows(CaseFileException.class, () -> CaseFiles.read(write(json)));
        assertTrue(e.getMessage().contains(expected), () -> "expected <" + expected + "> in <" + e.getMessage() + ">");
    }

    private static List<String> describe(List<CheckCase> cases) {
        return cases.stream().map(CheckCase::describe).toList();
    }

    private Path write(String json) throws IOException {
        Path file = Files.createTempFile(dir, "sweep-", ".json");
        Files.writeString(file, json);
        return file;
    }
}
