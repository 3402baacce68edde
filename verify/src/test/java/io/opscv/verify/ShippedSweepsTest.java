package io.opscv.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.runtime.DataType;
import io.opscv.runtime.Platform;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The case files shipped in {@code examples/cases}: the upstream-like sweep of the 1-D backward (SPEC §9) and the
 * sweeps of the three sister operators pass in full through the operators on the cpu, and as every supported
 * product they differ only where SPEC §6 says.
 */
class ShippedSweepsTest {
    static Path examples(String file) {
        String root = System.getProperty("opscv.examples");
        assertTrue(root != null, "the build sets -Dopscv.examples (verify/pom.xml)");
        return Path.of(root, "cases", file);
    }

    @Test
    void theUpstreamLikeSweepCoversTheUpstreamRangesAndPassesEveryCase() throws IOException {
        List<CheckCase> cases = CaseFiles.read(examples("upstream-like-linear1d-backward.json"));
        assertTrue(cases.size() >= 200, "cases: " + cases.size());
        assertEquals(Set.of(DataType.FLOAT, DataType.FLOAT16, DataType.BF16),
                cases.stream().map(CheckCase::dataType).collect(Collectors.toSet()));
        for (DataType type : List.of(DataType.FLOAT, DataType.FLOAT16, DataType.BF16)) {
            assertTrue(cases.stream().filter(c -> c.dataType() == type).count() >= 30, type.toString());
        }
        assertTrue(cases.stream().filter(CheckCase::alignCorners).count() >= 60);
        assertTrue(cases.stream().filter(c -> !c.alignCorners()).count() >= 60);
        assertTrue(cases.stream().filter(c -> c.outSizes()[0] < c.inSizes()[0]).count() >= 40, "downsampling (backward shrinks)");
        assertTrue(cases.stream().filter(c -> c.scales()[0] != 0).count() >= 60, "scales given");
        assertTrue(cases.stream().filter(c -> c.scales()[0] == 0).count() >= 60, "scales derived");
        assertTrue(count(cases, "ones") >= 100, "all-ones gradOut, as upstream");
        assertTrue(count(cases, "normal(0, 1) nan") >= 5, "NaN/Inf cases");
        assertTrue(cases.stream().mapToInt(c -> c.outSizes()[0]).max().orElseThrow() >= 1500, "long gradOut rows");
        assertTrue(cases.stream().mapToInt(c -> c.inSizes()[0]).max().orElseThrow() >= 200, "long out rows");
        assertTrue(cases.stream().mapToInt(CheckCase::n).max().orElseThrow() >= 200, "large N");
        assertTrue(cases.stream().mapToInt(CheckCase::c).max().orElseThrow() >= 150, "large C");
        assertTrue(cases.stream().mapToDouble(CheckCase::sizeRatio).max().orElseThrow() >= 30, "strong upsampling");
        assertTrue(cases.stream().mapToDouble(CheckCase::sizeRatio).min().orElseThrow() <= 0.1, "strong downsampling");

        CheckRun run = Checker.check("upstream-like", cases, null, line -> { });
        for (CaseResult r : run.results()) {
            assertEquals(Verdict.PASS, r.verdict(), () -> r.checkCase().describe() + ": " + r.message());
        }
        long allOnesJudgedByMereMare = run.results().stream().filter(CaseResult::allOnes).filter(CaseResult::upstreamPass).count();
        assertTrue(allOnesJudgedByMereMare >= 100, "all-ones cases meet MERE/MARE: " + allOnesJudgedByMereMare);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"upstream-like-linear1d.json", "bilinear2d-backward.json", "bilinear2d.json"})
    void theSisterOperatorsSweepsPassEveryCaseThroughTheOperator(String file) throws IOException {
        List<CheckCase> cases = CaseFiles.read(examples(file));
        assertTrue(cases.size() >= 200, file + ": " + cases.size());
        assertEquals(3, cases.stream().map(CheckCase::dataType).distinct().count());
        for (CheckCase c : cases) {
            for (int a = 0; a < c.inSizes().length; a++) {
                if (c.scales()[a] != 0) {
                    assertEquals(Math.floor((long) c.inSizes()[a] * c.scales()[a]), c.outSizes()[a], c.describe());
                }
                assertTrue(c.outSizes()[a] <= 500L * c.inSizes()[a], c.describe());
            }
        }
        if (cases.getFirst().inSizes().length == 2) {
            long nhwc = cases.stream().filter(CheckCase::channelsLast).count();
            assertTrue(nhwc >= 60 && cases.size() - nhwc >= 60, file + ": NHWC " + nhwc + " of " + cases.size());
        }
        CheckRun run = Checker.check(file, cases, null, line -> { });
        for (CaseResult r : run.results()) {
            assertEquals(Verdict.PASS, r.verdict(), () -> r.checkCase().describe() + ": " + r.message());
            assertEquals("operator", r.judged());
        }
        long allOnesJudgedByMereMare = run.results().stream().filter(CaseResult::allOnes).filter(CaseResult::upstreamPass).count();
        assertTrue(allOnesJudgedByMereMare >= 70, file + ": all-ones cases meeting MERE/MARE: " + allOnesJudgedByMereMare);
    }

    /**
     * Every shipped sweep as each supported product (a sample: every {@value #PRODUCT_SAMPLE}th case, to keep the
     * default build fast; {@code bin/opscv check FILE --platform NAME} runs them all): nothing fails; a case is refused
     * exactly where SPEC §6's table refuses it; and a result differs from SPEC §1's with the given scales only on the
     * fallback plans (sizes only), and there only where a given scales is not out / in or the input has NaN/Inf.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"upstream-like-linear1d-backward.json", "upstream-like-linear1d.json", "bilinear2d-backward.json",
        "bilinear2d.json"})
    void everySweepAsEveryProductDiffersOnlyWhereSpecSection6Says(String file) throws IOException {
        List<CheckCase> all = CaseFiles.read(examples(file));
        List<CheckCase> sample = new java.util.ArrayList<>();
        for (int i = 0; i < all.size(); i += PRODUCT_SAMPLE) {
            sample.add(all.get(i));
        }
        for (Platform p : List.of(Platform.ASCEND950, Platform.ASCEND910B, Platform.ASCEND910_93, Platform.ASCEND910)) {
            CheckRun run = Checker.check(file, sample, p, line -> { });
            assertTrue(run.passed(), file + " on " + p + ": " + run.summaryLine());
            for (CaseResult r : run.results()) {
                CheckCase c = r.checkCase();
                boolean bf16 = c.dataType() == DataType.BF16;
                boolean refusedBySpec = bf16 && (p == Platform.ASCEND910 || p.arch() == Platform.Arch.DAV_2201
                        && c.op().equals("upsample_linear1d_backward") && c.inSizes()[0] != c.outSizes()[0]);
                assertEquals(refusedBySpec ? Verdict.REFUSED : Verdict.PASS, r.verdict(), () -> c.describe() + ": " + r.message());
                if (r.sizesOnlyGolden()) {
                    assertTrue(p.arch() == Platform.Arch.DAV_1001 || p.arch() == Platform.Arch.DAV_2201, c.describe());
                    assertTrue(!c.op().equals("upsample_linear1d"), "the 1-D forward's plans all take the scales");
                    if (r.withScales() != Verdict.PASS) {
                        assertTrue(scalesIgnored(c) || c.input().describe().contains("nan"), () -> c.describe()
                                + " differs from SPEC §1 on the fallback without a reason SPEC §6 gives: " + r.message());
                    }
                } else if (r.verdict() == Verdict.PASS) {
                    assertEquals(null, r.withScales());
                }
            }
        }
    }

    /** Every PRODUCT_SAMPLE-th case runs on every product in the default build. */
    static final int PRODUCT_SAMPLE = 5;

    /** Whether the fallback's sizes-only coordinates differ from SPEC §1's on some axis: scales given, not out / in. */
    private static boolean scalesIgnored(CheckCase c) {
        for (int a = 0; a < c.inSizes().length; a++) {
            if (!c.alignCorners() && c.scales()[a] > 0 && c.inSizes()[a] != c.outSizes()[a]
                    && 1.0 / c.scales()[a] != (double) c.inSizes()[a] / c.outSizes()[a]) {
                return true;
            }
        }
        return false;
    }

    private static long count(List<CheckCase> cases, String valuesPrefix) {
        return cases.stream().filter(c -> c.input().describe().startsWith(valuesPrefix)).count();
    }
}
