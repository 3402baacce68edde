package io.opscv.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.opscv.perf.BenchmarkCases;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Param;

/** The JMH parameters name exactly the cases {@code opscv bench} runs, in the same order. */
class BenchmarkCasesInSyncTest {

    @Test
    void jmhCaseParameterListsEveryBenchmarkCase() throws NoSuchFieldException {
        Param param = Linear1dBackwardBenchmark.class.getField("caseId").getAnnotation(Param.class);
        List<String> expected = BenchmarkCases.all().stream().map(BenchmarkCases::id).toList();
        assertEquals(expected, List.of(param.value()));
    }

    @Test
    void jmhGeneratedTheBenchmarkList() {
        // The annotation processor ran (JDK 23+ needs it listed in annotationProcessorPaths).
        assertEquals(true, Linear1dBackwardBenchmark.class.getClassLoader()
                .getResource("META-INF/BenchmarkList") != null);
    }
}
