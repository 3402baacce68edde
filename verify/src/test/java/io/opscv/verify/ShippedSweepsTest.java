package io.opscv.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.runtime.DataType;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The case files shipped in {@code examples/cases}: the upstream-like sweep of the 1-D backward (SPEC §9) passes
 * in full through the operator, and the sweeps of the three other operators generate valid cases whose
 * references compute (their operators are not in this build).
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
    void theOtherOperatorsSweepsGenerateValidCasesWithComputableReferences(String file) throws IOException {
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
        OperatorAdapter adapter = OperatorAdapters.forOp(cases.getFirst().op());
        // Their operators are not in this build: every case is skipped (wiring the adapter turns this into PASS checks).
        CheckRun run = Checker.check(file, cases, null, line -> { });
        assertEquals(cases.size(), run.count(Verdict.SKIP), file);
        // The reference runs on every tenth case, and the rounded reference judged as an "actual" result passes.
        for (int i = 0; i < cases.size(); i += 10) {
            CheckCase c = cases.get(i);
            double[] reference;
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment input = CaseData.input(c, adapter.inputShape(c), arena);
                reference = adapter.reference(c, CaseData.decode(input, c.dataType(),
                        Math.toIntExact(CaseData.numel(adapter.inputShape(c)))));
            }
            assertEquals(CaseData.numel(adapter.outputShape(c)), reference.length);
            Path actual = Files.createTempFile("actual-", ".npy");
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment bytes = arena.allocate(Math.max(1, (long) reference.length * c.dataType().byteSize()));
                CaseData.encode(reference, c.dataType(), bytes);
                io.opscv.npy.Npy.write(actual, io.opscv.npy.NpyDtype.toDescr(c.dataType()), adapter.outputShape(c),
                        bytes.asSlice(0, (long) reference.length * c.dataType().byteSize()));
                CaseResult r = Checker.checkOne(TestCases.withActual(c, actual));
                assertEquals(Verdict.PASS, r.verdict(), () -> c.describe() + ": " + r.message());
            } finally {
                Files.deleteIfExists(actual);
            }
        }
    }

    private static long count(List<CheckCase> cases, String valuesPrefix) {
        return cases.stream().filter(c -> c.input().describe().startsWith(valuesPrefix)).count();
    }
}
