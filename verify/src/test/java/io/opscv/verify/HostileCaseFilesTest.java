package io.opscv.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Case files built to break the reader: deep nesting, huge strings and files, absurd sweep counts. Each is a one-line
 * {@link CaseFileException} (the CLI's exit 2); a sweep's cases are drawn as they are asked for, so reading one costs
 * memory independent of its count.
 */
class HostileCaseFilesTest {
    private static final String SWEEP = """
            {"sweeps": [{"name": "s", "op": "upsample_linear1d_backward", "count": %d, "seed": 1, "l_in": {"min": 1, "max": 64},
              "ratio": {"min": 0.5, "max": 4}, "dtype": "float32"}]}""";

    @TempDir
    Path dir;

    @Test
    void deepNestingIsAOneLineErrorNamingTheLimit() throws IOException {
        for (String open : List.of("[", "{\"a\": ")) {
            Path file = Files.writeString(dir.resolve("deep.json"), open.repeat(5000));
            CaseFileException e = assertThrows(CaseFileException.class, () -> CaseFiles.read(file));
            assertTrue(e.getMessage().startsWith(file + ": not valid JSON: Document nesting depth (65) exceeds the maximum allowed "
                    + "(64"), e.getMessage());
            assertTrue(!e.getMessage().contains("\n"), e.getMessage());
        }
    }

    @Test
    void aHugeStringOrFileIsRefusedBeforeItIsRead() throws IOException {
        Path longString = Files.writeString(dir.resolve("string.json"), "{\"comment\": \"" + "x".repeat((1 << 20) + 1) + "\"}");
        CaseFileException e = assertThrows(CaseFileException.class, () -> CaseFiles.read(longString));
        assertTrue(e.getMessage().startsWith(longString + ": not valid JSON: String value length"), e.getMessage());
        // A sparse file: its size is what counts, no disk is spent.
        Path big = dir.resolve("big.json");
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(CaseFiles.MAX_FILE_BYTES + 1);
        }
        e = assertThrows(CaseFileException.class, () -> CaseFiles.read(big));
        assertEquals(big + ": " + (CaseFiles.MAX_FILE_BYTES + 1) + " bytes is larger than a case file may be ("
                + CaseFiles.MAX_FILE_BYTES + " bytes)", e.getMessage());
        Path latin1 = Files.write(dir.resolve("latin1.json"), new byte[] {'{', '"', (byte) 0xe9, '"', '}'});
        e = assertThrows(CaseFileException.class, () -> CaseFiles.read(latin1));
        assertEquals(latin1 + ": not UTF-8 text, so not a JSON case file", e.getMessage());
    }

    @Test
    void anAbsurdSweepCountIsRefusedWithOneLine() throws IOException {
        for (long count : List.of(2147483647L, (long) Sweep.MAX_COUNT + 1)) {
            Path file = Files.writeString(dir.resolve("count.json"), SWEEP.formatted(count));
            CaseFileException e = assertThrows(CaseFileException.class, () -> CaseFiles.read(file));
            assertEquals(file + ": sweep 0 ('s'): field 'count' should be at most " + Sweep.MAX_COUNT + " (each case's result is "
                    + "kept for the table and the report), but got " + count, e.getMessage());
        }
        // Two sweeps within the limit each, above it together.
        String two = SWEEP.formatted(Sweep.MAX_COUNT).replace("}]}", "}, " + SWEEP.formatted(1).substring(12, SWEEP.formatted(1)
                .length() - 2).replace("\"s\"", "\"t\"") + "]}");
        Path file = Files.writeString(dir.resolve("two.json"), two);
        CaseFileException e = assertThrows(CaseFileException.class, () -> CaseFiles.read(file));
        assertTrue(e.getMessage().startsWith(file + ": " + (Sweep.MAX_COUNT + 1) + " cases are more than a case file may hold"),
                e.getMessage());
    }

    @Test
    void aSweepsCasesAreDrawnAsTheyAreAskedForSoReadingOneCostsMemoryIndependentOfItsCount() throws IOException {
        Path file = Files.writeString(dir.resolve("many.json"), SWEEP.formatted(Sweep.MAX_COUNT));
        Path one = Files.writeString(dir.resolve("one.json"), SWEEP.formatted(1));
        CaseFiles.read(one);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        List<CheckCase> cases = CaseFiles.read(file);
        long readMany = threads.getCurrentThreadAllocatedBytes() - before;
        before = threads.getCurrentThreadAllocatedBytes();
        CaseFiles.read(one);
        long readOne = threads.getCurrentThreadAllocatedBytes() - before;
        assertEquals(Sweep.MAX_COUNT, cases.size());
        // Drawing all 100,000 cases up front allocates tens of MB; drawn on demand, reading costs what reading one does.
        assertTrue(readMany < readOne + (1 << 20), "reading " + Sweep.MAX_COUNT + " cases allocated " + readMany + " bytes, one case "
                + readOne);
        // Each case is what drawing it alone gives, whenever it is asked for.
        CheckCase last = cases.get(Sweep.MAX_COUNT - 1);
        assertEquals("s_99999", last.name());
        assertEquals(last.describe(), CaseFiles.read(file).get(Sweep.MAX_COUNT - 1).describe());
        assertEquals(CaseFiles.read(one).getFirst().describe().replace("s_0000", "s_00000"), cases.getFirst().describe());
    }

    @Test
    void anExplicitCaseMayNotTakeASweepCasesNameNorTwoSweepsOneName() throws IOException {
        String sweep = SWEEP.formatted(20).replace("{\"sweeps\"", "{\"cases\": [{\"op\": \"upsample_linear1d_backward\", \"name\": "
                + "\"s_0019\", \"n\": 1, \"c\": 1, \"l_in\": 2, \"l_out\": 4, \"dtype\": \"float32\", \"values\": \"ones\"}], \"sweeps\"");
        Path file = Files.writeString(dir.resolve("clash.json"), sweep);
        CaseFileException e = assertThrows(CaseFileException.class, () -> CaseFiles.read(file));
        assertEquals(file + ": two cases are named 's_0019' (an explicit case and one of sweep 's'); names must be unique",
                e.getMessage());
        // s_0020 is not one of the sweep's 20 cases: no clash.
        assertEquals(21, CaseFiles.read(Files.writeString(file, sweep.replace("s_0019", "s_0020"))).size());
        String twice = SWEEP.formatted(3).replace("}]}", "}, " + SWEEP.formatted(3).substring(12, SWEEP.formatted(3).length() - 2)
                + "]}");
        Path again = Files.writeString(dir.resolve("twice.json"), twice);
        e = assertThrows(CaseFileException.class, () -> CaseFiles.read(again));
        assertEquals(again + ": two sweeps are named 's'; their cases' names would repeat", e.getMessage());
    }
}
