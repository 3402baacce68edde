package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** The committed generated sources are their generators' output: no hand edits, none stale. */
class GeneratedSourcesTest {
    @Test
    void sparseForwardRowsIsItsGeneratorsOutput() throws IOException {
        assertEquals(SparseForwardRowsGenerator.source(),
                Files.readString(SparseForwardRowsGenerator.TARGET, StandardCharsets.UTF_8),
                "SparseForwardRows.java is not SparseForwardRowsGenerator's output: rerun the generator");
    }

    @Test
    void vectorInterleaveIsItsGeneratorsOutput() throws IOException {
        assertEquals(VectorInterleaveGenerator.source(),
                Files.readString(VectorInterleaveGenerator.TARGET, StandardCharsets.UTF_8),
                "VectorInterleave.java is not VectorInterleaveGenerator's output: rerun the generator");
    }

    @Test
    void heldRowSumsIsItsGeneratorsOutput() throws IOException {
        assertEquals(HeldRowSumsGenerator.source(),
                Files.readString(HeldRowSumsGenerator.TARGET, StandardCharsets.UTF_8),
                "HeldRowSums.java is not HeldRowSumsGenerator's output: rerun the generator");
    }

    @Test
    void combineRowsIsItsGeneratorsOutput() throws IOException {
        assertEquals(CombineRowsGenerator.source(),
                Files.readString(CombineRowsGenerator.TARGET, StandardCharsets.UTF_8),
                "CombineRows.java is not CombineRowsGenerator's output: rerun the generator");
    }
}
