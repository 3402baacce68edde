package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The committed generated sources are their generators' output: no hand edits, none stale. */
class GeneratedSourcesTest {
    @Test
    void sparseForwardRowsIsItsGeneratorsOutput() throws IOException {
        assertGenerated(SparseForwardRowsGenerator.source(), SparseForwardRowsGenerator.TARGET,
                "SparseForwardRowsGenerator");
    }

    @Test
    void vectorInterleaveIsItsGeneratorsOutput() throws IOException {
        assertGenerated(VectorInterleaveGenerator.source(), VectorInterleaveGenerator.TARGET,
                "VectorInterleaveGenerator");
    }

    @Test
    void heldRowSumsIsItsGeneratorsOutput() throws IOException {
        assertGenerated(HeldRowSumsGenerator.source(), HeldRowSumsGenerator.TARGET, "HeldRowSumsGenerator");
    }

    @Test
    void combineRowsIsItsGeneratorsOutput() throws IOException {
        assertGenerated(CombineRowsGenerator.source(), CombineRowsGenerator.TARGET, "CombineRowsGenerator");
    }

    @Test
    void rowTransposesIsItsGeneratorsOutput() throws IOException {
        assertGenerated(RowTransposesGenerator.source(), RowTransposesGenerator.TARGET, "RowTransposesGenerator");
    }

    @Test
    void templatedClassesAreTheirTemplatesWithTwins() throws IOException {
        for (String name : SegmentTwinsGenerator.CLASSES) {
            assertGenerated(SegmentTwinsGenerator.source(Path.of(""), name), SegmentTwinsGenerator.target(name),
                    "SegmentTwinsGenerator");
        }
    }

    private static void assertGenerated(String source, Path target, String generator) throws IOException {
        assertEquals(source, Files.readString(target, StandardCharsets.UTF_8),
                target.getFileName() + " is not " + generator + "'s output: rerun the generator");
    }
}
