package io.opscv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.kernel.KernelProviders;
import io.opscv.testing.FacadeProbe;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What a user's JVM prints: one WARNING naming the flag when the scalar fallback is chosen, and
 * nothing of the library's when the vector kernels run with native access enabled, on the class
 * path and on the module path. Each case starts its own JVM, since the provider is chosen once per process.
 */
class StartupOutputTest {
    /** The JVM's own line for any incubator module; the library cannot prevent it (bin/opscv filters it). */
    private static final String INCUBATOR_LINE = "WARNING: Using incubator modules: jdk.incubator.vector";
    private static final String SAMPLE = "[1.0, 0.0, 1.0, 1.0, 0.0, 3.0]";

    @Test
    void kernelsActiveNamesTheChosenProvider() {
        assertEquals(KernelProviders.get().name(), Kernels.active());
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()
                && !"scalar".equals(System.getProperty("opscv.kernels"))) {
            assertTrue(Kernels.active().startsWith("vector-"), Kernels.active());
        }
    }

    @Test
    void theScalarFallbackWarnsOnceNamingTheFlag() throws Exception {
        Result r = run("--enable-native-access=ALL-UNNAMED", "-cp", classPath(), FacadeProbe.class.getName());
        assertEquals(List.of("scalar", SAMPLE), r.stdout);
        List<String> warnings = r.stderr.stream().filter(l -> l.startsWith("WARNING")).toList();
        assertEquals(1, warnings.size(), "stderr: " + r.stderr);
        assertTrue(warnings.getFirst().contains("--add-modules jdk.incubator.vector"), warnings.getFirst());
        // The default System.Logger backend (java.util.logging) puts a time and source line before it, nothing else.
        assertTrue(r.stderr.size() <= 2, "stderr: " + r.stderr);
    }

    @Test
    void askingForTheScalarKernelsIsNotWarnedAbout() throws Exception {
        Result r = run("--enable-native-access=ALL-UNNAMED", "-Dopscv.kernels=scalar", "-cp", classPath(),
                FacadeProbe.class.getName());
        assertEquals(List.of("scalar", SAMPLE), r.stdout);
        assertEquals(List.of(), r.stderr);
    }

    @Test
    void theVectorKernelsOnTheClassPathPrintNothing() throws Exception {
        Result r = run("--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-cp", classPath(),
                FacadeProbe.class.getName());
        assertTrue(r.stdout.getFirst().startsWith("vector-"), "stdout: " + r.stdout);
        assertEquals(SAMPLE, r.stdout.get(1));
        assertEquals(List.of(), r.stderr.stream().filter(l -> !l.equals(INCUBATOR_LINE)).toList());
    }

    @Test
    void theModuleOnTheModulePathFindsTheVectorKernelsAndPrintsNothing() throws Exception {
        Result r = run("--module-path", location(Upsample1d.class).toString(), "--add-modules", "io.opscv,jdk.incubator.vector",
                "--enable-native-access=io.opscv", "-cp", location(FacadeProbe.class).toString(), FacadeProbe.class.getName());
        assertTrue(r.stdout.getFirst().startsWith("vector-"), "stdout: " + r.stdout + " stderr: " + r.stderr);
        assertEquals(SAMPLE, r.stdout.get(1));
        assertEquals(List.of(), r.stderr.stream().filter(l -> !l.equals(INCUBATOR_LINE)).toList());
    }

    @Test
    void theModuleWithoutTheVectorModuleFallsBackAndWarns() throws Exception {
        Result r = run("--module-path", location(Upsample1d.class).toString(), "--add-modules", "io.opscv",
                "--enable-native-access=io.opscv", "-cp", location(FacadeProbe.class).toString(), FacadeProbe.class.getName());
        assertEquals(List.of("scalar", SAMPLE), r.stdout);
        assertEquals(1, r.stderr.stream().filter(l -> l.startsWith("WARNING")).count(), "stderr: " + r.stderr);
    }

    private record Result(List<String> stdout, List<String> stderr) {}

    private static Result run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(args));
        Path out = Files.createTempFile("opscv-probe", ".out");
        Path err = Files.createTempFile("opscv-probe", ".err");
        try {
            Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("the probe JVM did not finish: " + command);
            }
            Result r = new Result(Files.readAllLines(out, StandardCharsets.UTF_8), Files.readAllLines(err, StandardCharsets.UTF_8));
            assertEquals(0, p.exitValue(), "exit status; stderr: " + r.stderr);
            return r;
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static String classPath() {
        return location(Upsample1d.class) + java.io.File.pathSeparator + location(FacadeProbe.class);
    }

    private static Path location(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
