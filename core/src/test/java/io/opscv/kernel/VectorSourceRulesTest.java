package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Source rules of the vector kernels that no behaviour test can see, as they decide only whether C2 keeps the
 * vectors in registers in a given process.
 */
class VectorSourceRulesTest {
    private static final Path MAIN = Path.of("src/main/java/io/opscv/kernel");
    private static final Path GENERATORS = Path.of("src/test/java/io/opscv/kernel");

    /**
     * A vector changes its lane type only through {@code reinterpretShape} with a constant species. The species of
     * {@code reinterpretAsInts()} and its kind is found at run time ({@code withLanes}), inside one JDK method shared by
     * every vector type of the process: once its profile has seen several, C2 fails to intrinsify the cast and boxes
     * the vector on every call, so whole cells ran 2-4 x slower in a sweep process than alone.
     */
    @Test
    void vectorsChangeLaneTypeOnlyByAConstantSpecies() throws IOException {
        Pattern banned = Pattern.compile("\\.\\s*(reinterpretAs\\w+|viewAs(Integral|Floating)Lanes)\\(");
        List<String> found = new ArrayList<>();
        for (Path file : sources()) {
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                if (banned.matcher(lines.get(i)).find()) {
                    found.add(file + ":" + (i + 1) + ": " + lines.get(i).strip());
                }
            }
        }
        assertTrue(found.isEmpty(), () -> "lane types changed by the vector's own species:\n" + String.join("\n", found));
    }

    /**
     * Only generated classes read or write a tensor's elements through a segment, each method in twins per kind of
     * memory ({@code SegmentTwins}): an access written by hand is compiled from the profiles every caller of
     * the JDK's segment methods shares, and once a process had met heap segments its off-heap calls ran up to
     * 3.8 x slower. Bulk copies ({@code MemorySegment.copy}) are not such accesses.
     */
    @Test
    void segmentElementsAreReadAndWrittenOnlyInGeneratedClasses() throws IOException {
        Pattern access = Pattern.compile(
                "(from|into)MemorySegment\\(|\\.(get|set)\\((ElementCodec\\.)?(U16|F32|ValueLayout\\.|JAVA_)");
        List<String> found = new ArrayList<>();
        try (Stream<Path> main = Files.list(MAIN)) {
            for (Path file : main.filter(p -> p.toString().endsWith(".java")).toList()) {
                List<String> lines = Files.readAllLines(file);
                if (!lines.isEmpty() && lines.getFirst().startsWith("// Generated")) {
                    continue;
                }
                for (int i = 0; i < lines.size(); i++) {
                    if (access.matcher(lines.get(i)).find()) {
                        found.add(file + ":" + (i + 1) + ": " + lines.get(i).strip());
                    }
                }
            }
        }
        assertTrue(found.isEmpty(), () -> "segment accesses outside the generated twins:\n" + String.join("\n", found));
    }

    /** The kernels' main sources and the generators whose templates write some of them. */
    private static List<Path> sources() throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> main = Files.list(MAIN); Stream<Path> generators = Files.list(GENERATORS)) {
            main.filter(p -> p.toString().endsWith(".java")).forEach(files::add);
            generators.filter(p -> p.getFileName().toString().endsWith("Generator.java")).forEach(files::add);
        }
        assertTrue(files.size() > 40, "kernel sources not found from " + Path.of("").toAbsolutePath());
        return files;
    }
}
