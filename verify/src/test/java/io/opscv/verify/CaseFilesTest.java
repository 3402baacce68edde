package io.opscv.verify;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.runtime.DataType;
import io.opscv.runtime.Format;
import io.opscv.runtime.Platform;
import io.opscv.testing.GoldenFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading explicit cases: the golden set's format, drawn inputs, status cases, and every kind of mistake. */
class CaseFilesTest {
    @TempDir
    Path dir;

    @Test
    void theGoldenCaseFileReadsWithItsFilesBesideIt() throws IOException {
        Path golden = GoldenFiles.casesJson();
        List<CheckCase> cases = CaseFiles.read(golden);
        assertEquals(21, cases.size());
        CheckCase first = cases.getFirst();
        assertEquals("bwd_up2x_f32", first.name());
        assertEquals("upsample_linear1d_backward", first.op());
        assertEquals(2, first.n());
        assertEquals(3, first.c());
        assertArrayEquals(new int[] {16}, first.inSizes());
        assertArrayEquals(new int[] {32}, first.outSizes());
        assertArrayEquals(new double[] {2.0}, first.scales());
        assertEquals(DataType.FLOAT, first.dataType());
        assertEquals(golden.getParent().resolve("bwd_up2x_f32.grad_out.npy"), ((InputSource.File) first.input()).path());
        assertEquals(golden.getParent().resolve("bwd_up2x_f32.expected.npy"), first.expected());
        assertEquals(golden.getParent().resolve("bwd_up2x_f32.bound.npy"), first.bound());
        assertEquals(4, first.terms());
        assertNull(first.platform());
        assertEquals(Standard.AUTO, first.standard());
        CheckCase forward = cases.stream().filter(c -> c.name().equals("fwd_up2.5x_bf16")).findFirst().orElseThrow();
        assertEquals(DataType.BF16, forward.dataType());
        assertEquals(golden.getParent().resolve("fwd_up2.5x_bf16.self.npy"), ((InputSource.File) forward.input()).path());
        CheckCase twoD = cases.stream().filter(c -> c.name().equals("bi_bwd_up_f16")).findFirst().orElseThrow();
        assertArrayEquals(new int[] {16, 16}, twoD.inSizes());
        assertArrayEquals(new int[] {40, 24}, twoD.outSizes());
        assertArrayEquals(new double[] {2.5, 1.5}, twoD.scales());
        for (CheckCase c : cases) {
            assertTrue(Files.isRegularFile(((InputSource.File) c.input()).path()), c.name());
        }
    }

    @Test
    void drawnValuesStatusCasesAndDefaults() throws IOException {
        Path file = write("""
                {"platform": "ascend910b", "cases": [
                  {"op": "upsample_linear1d_backward", "name": "drawn", "n": 1, "c": 2, "l_in": 6, "l_out": 12, "scales": 2.0,
                   "dtype": "float16", "values": {"kind": "normal", "mean": 1, "std": 0.5, "nan_fraction": 0.1}, "seed": 42},
                  {"op": "upsample_linear1d_backward", "name": "ones", "n": 1, "c": 1, "l_in": 3, "l_out": 5, "dtype": "float32",
                   "values": "ones", "platform": "cpu", "standard": "upstream", "align_corners": true},
                  {"op": "upsample_linear1d_backward", "name": "refused", "n": 1, "c": 1, "l_in": 6, "l_out": 0, "dtype": "float32",
                   "expect_status": 161002}
                ]}""");
        List<CheckCase> cases = CaseFiles.read(file);
        CheckCase drawn = cases.get(0);
        assertEquals(new InputSource.Drawn(new ValueSpec(ValueSpec.Kind.NORMAL, 1, 0.5, 0.1, 0), 42), drawn.input());
        assertEquals(Platform.ASCEND910B, drawn.platform(), "the file's platform is the default");
        assertEquals(false, drawn.alignCorners());
        CheckCase ones = cases.get(1);
        assertEquals(new InputSource.Drawn(ValueSpec.ONES, 0), ones.input());
        assertEquals(Platform.CPU, ones.platform());
        assertEquals(Standard.UPSTREAM, ones.standard());
        assertEquals(0.0, ones.scales()[0], "scales default to 0, not given");
        CheckCase refused = cases.get(2);
        assertEquals(161002, refused.expectStatus());
        assertInstanceOf(InputSource.Unused.class, refused.input());
        assertArrayEquals(new int[] {0}, refused.outSizes());
    }

    @Test
    void aMisspeltFieldIsAnErrorNotIgnored() {
        assertError("unknown field [align_corner]", """
                {"cases": [{"op": "upsample_linear1d_backward", "name": "x", "n": 1, "c": 1, "l_in": 2, "l_out": 4,
                  "dtype": "float32", "values": "ones", "align_corner": true}]}""");
    }

    @Test
    void mistakesNameTheCaseTheFieldAndWhatWasExpected() {
        String head = "{\"cases\": [{\"op\": \"upsample_linear1d_backward\", \"name\": \"x\", \"n\": 1, \"c\": 1, \"l_in\": 2, ";
        assertError("case 0 ('x'): missing field 'dtype'", head + "\"l_out\": 4, \"values\": \"ones\"}]}");
        assertError("case 0 ('x'): field 'dtype' should be float32, float16 or bfloat16, but got \"float64\"",
                head + "\"l_out\": 4, \"values\": \"ones\", \"dtype\": \"float64\"}]}");
        assertError("case 0 ('x'): field 'l_out' should be an integer >= 1, but got 0",
                head + "\"l_out\": 0, \"values\": \"ones\", \"dtype\": \"float32\"}]}");
        assertError("field 'n' should be an integer >= 0, but got \"2\"",
                "{\"cases\": [{\"op\": \"upsample_linear1d_backward\", \"name\": \"x\", \"n\": \"2\"}]}");
        assertError("exactly one of them",
                head + "\"l_out\": 4, \"dtype\": \"float32\", \"values\": \"ones\", \"grad_out\": \"g.npy\"}]}");
        assertError("exactly one of them", head + "\"l_out\": 4, \"dtype\": \"float32\"}]}");
        assertError("upsample_linear1d_backward reads its input from 'grad_out', not 'self'",
                head + "\"l_out\": 4, \"dtype\": \"float32\", \"self\": \"x.npy\"}]}");
        assertError("unknown op 'upsample_nearest' (known: upsample_linear1d_backward, upsample_linear1d, "
                + "upsample_bilinear2d_backward, upsample_bilinear2d)", "{\"cases\": [{\"op\": \"upsample_nearest\", \"name\": \"x\"}]}");
        assertError("'actual' and a non-zero 'expect_status' exclude each other",
                head + "\"l_out\": 4, \"dtype\": \"float32\", \"values\": \"ones\", \"actual\": \"a.npy\", \"expect_status\": 161002}]}");
        assertError("field 'platform': unknown platform 'ascend999'",
                head + "\"l_out\": 4, \"dtype\": \"float32\", \"values\": \"ones\", \"platform\": \"ascend999\"}]}");
        assertError("field 'kind' should be ones, constant, normal or uniform, but got \"cauchy\"",
                head + "\"l_out\": 4, \"dtype\": \"float32\", \"values\": {\"kind\": \"cauchy\"}}]}");
        assertError("nan_fraction (0.7) and inf_fraction (0.6) must be >= 0 with a sum <= 1",
                head + "\"l_out\": 4, \"dtype\": \"float32\", \"values\": {\"kind\": \"normal\", \"nan_fraction\": 0.7, "
                        + "\"inf_fraction\": 0.6}}]}");
        assertError("field 'standard' should be auto, element, upstream or both, but got \"strict\"",
                head + "\"l_out\": 4, \"dtype\": \"float32\", \"values\": \"ones\", \"standard\": \"strict\"}]}");
    }

    @Test
    void aFormatPutsChannelsLastInTwoDimensionalCasesAndIsCheckedPerOp() throws IOException {
        List<CheckCase> cases = CaseFiles.read(write("""
                {"cases": [
                  {"op": "upsample_bilinear2d", "name": "nhwc", "n": 2, "c": 3, "h_in": 4, "w_in": 5, "h_out": 8, "w_out": 10,
                   "dtype": "float32", "values": "ones", "format": "NHWC"},
                  {"op": "upsample_bilinear2d_backward", "name": "nchw", "n": 2, "c": 3, "h_in": 4, "w_in": 5, "h_out": 8,
                   "w_out": 10, "dtype": "float32", "values": "ones", "format": "nchw"},
                  {"op": "upsample_bilinear2d_backward", "name": "default", "n": 2, "c": 3, "h_in": 4, "w_in": 5, "h_out": 8,
                   "w_out": 10, "dtype": "float32", "values": "ones"},
                  {"op": "upsample_linear1d", "name": "ncl", "n": 2, "c": 3, "l_in": 4, "l_out": 8, "dtype": "float32",
                   "values": "ones", "format": "ncl"}
                ]}"""));
        assertEquals(Format.NHWC, cases.get(0).layout());
        assertArrayEquals(new long[] {2, 4, 5, 3}, OperatorAdapters.forOp("upsample_bilinear2d").inputShape(cases.get(0)));
        assertArrayEquals(new long[] {2, 8, 10, 3}, OperatorAdapters.forOp("upsample_bilinear2d").outputShape(cases.get(0)));
        assertTrue(cases.get(0).describe().contains(" format=nhwc"), cases.get(0).describe());
        assertEquals(Format.NCHW, cases.get(1).layout());
        assertArrayEquals(new long[] {2, 3, 8, 10}, OperatorAdapters.forOp("upsample_bilinear2d_backward").inputShape(cases.get(1)));
        assertEquals(null, cases.get(2).format());
        assertEquals(Format.NCHW, cases.get(2).layout(), "the 2-D default");
        assertEquals(Format.NCL, cases.get(3).layout());
        String head = "{\"cases\": [{\"name\": \"x\", \"n\": 1, \"c\": 1, \"dtype\": \"float32\", \"values\": \"ones\", ";
        assertError("case 0 ('x'): field 'format' should be ncl, nd for upsample_linear1d_backward, but got \"nhwc\"",
                head + "\"op\": \"upsample_linear1d_backward\", \"l_in\": 2, \"l_out\": 4, \"format\": \"nhwc\"}]}");
        assertError("field 'format' should be nchw, nhwc, nd for upsample_bilinear2d, but got \"nc1hwc0\"",
                head + "\"op\": \"upsample_bilinear2d\", \"h_in\": 2, \"w_in\": 2, \"h_out\": 4, \"w_out\": 4, "
                        + "\"format\": \"nc1hwc0\"}]}");
    }

    @Test
    void fileLevelMistakes() {
        assertError("two cases are named 'x'", """
                {"cases": [
                  {"op": "upsample_linear1d_backward", "name": "x", "n": 1, "c": 1, "l_in": 2, "l_out": 4, "dtype": "float32", "values": "ones"},
                  {"op": "upsample_linear1d_backward", "name": "x", "n": 1, "c": 1, "l_in": 2, "l_out": 4, "dtype": "float32", "values": "ones"}
                ]}""");
        assertError("expected \"cases\" and/or \"sweeps\", found neither", "{\"generator\": \"nothing\"}");
        assertError("not valid JSON", "{\"cases\": [\n{\"op\": }\n]}");
        assertError("(line 2, column 8)", "{\"cases\": [\n{\"op\": }\n]}");
        assertError("field 'cases' should be an array, but got object", "{\"cases\": {}}");
        assertError("unknown field [case]", "{\"case\": []}");
    }

    @Test
    void aCaseTooLargeForTheHarnessIsRefusedUpFront() {
        // 32769 * 1024 = 2^25 + 1024 elements: over the limit of 2^25.
        assertError("a tensor of 33555456 elements is larger than the harness takes (33554432 elements",
                "{\"cases\": [{\"op\": \"upsample_linear1d_backward\", \"name\": \"big\", \"n\": 32769, \"c\": 1, "
                        + "\"l_in\": 1024, \"l_out\": 1024, \"dtype\": \"float32\", \"values\": \"ones\"}]}");
    }

    @Test
    void aMissingFileIsNamed() {
        CaseFileException e = assertThrows(CaseFileException.class, () -> CaseFiles.read(dir.resolve("absent.json")));
        assertEquals(dir.resolve("absent.json") + ": no such file", e.getMessage());
    }

    private void assertError(String expected, String json) {
        CaseFileException e = assertThrows(CaseFileException.class, () -> CaseFiles.read(write(json)));
        assertTrue(e.getMessage().contains(expected), () -> "expected <" + expected + "> in <" + e.getMessage() + ">");
    }

    private Path write(String json) throws IOException {
        Path file = Files.createTempFile(dir, "cases-", ".json");
        Files.writeString(file, json);
        return file;
    }
}
