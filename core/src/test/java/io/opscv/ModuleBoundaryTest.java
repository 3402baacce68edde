package io.opscv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The module {@code io.opscv} as a consumer module sees it: compiled against the built classes with
 * javac, code that names the exported packages compiles, code that names an internal one does not.
 */
class ModuleBoundaryTest {
    private static final Set<String> EXPORTED = Set.of("io.opscv", "io.opscv.npy", "io.opscv.op", "io.opscv.plan",
            "io.opscv.runtime");

    @TempDir
    Path dir;

    @Test
    void theModuleExportsOnlyTheApiPackages() {
        ModuleReference module = ModuleFinder.of(modulePath()).find("io.opscv").orElse(null);
        assertNotNull(module, "no module io.opscv in " + modulePath());
        ModuleDescriptor descriptor = module.descriptor();
        assertEquals(EXPORTED, descriptor.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet()));
        assertTrue(descriptor.exports().stream().noneMatch(ModuleDescriptor.Exports::isQualified), descriptor.exports().toString());
        assertTrue(descriptor.requires().stream().anyMatch(r -> r.name().equals("jdk.incubator.vector")
                && r.modifiers().contains(ModuleDescriptor.Requires.Modifier.STATIC)), descriptor.requires().toString());
    }

    @Test
    void aConsumerModuleCompilesAgainstTheFacadeAndTheMirror() throws Exception {
        String errors = compile("""
                package consumer;
                public class Ok {
                    public static float[] gradient(float[] gy) {
                        io.opscv.Upsample1d op = io.opscv.Upsample1d.linear(1, 1, 6, 3).alignCorners(true).scale(0.5);
                        String kernels = io.opscv.Kernels.active();
                        io.opscv.runtime.DataType dtype = io.opscv.runtime.DataType.FLOAT;
                        Class<?> mirror = io.opscv.op.UpsampleLinear1dBackward.class;
                        Class<?> executor = io.opscv.plan.Executor.class;
                        Class<?> npy = io.opscv.npy.Npy.class;
                        return op.backward(gy);
                    }
                }
                """);
        assertEquals("", errors);
    }

    @Test
    void aConsumerModuleCannotCompileAgainstTheKernels() throws Exception {
        for (String internal : List.of("io.opscv.kernel.KernelProviders", "io.opscv.reference.Linear1dReference",
                "io.opscv.perf.BenchmarkCases", "io.opscv.gradcheck.AdjointCheck")) {
            String errors = compile("package consumer;\npublic class Bad { Class<?> c = " + internal + ".class; }\n");
            String pkg = internal.substring(0, internal.lastIndexOf('.'));
            assertTrue(errors.contains("package " + pkg + " is not visible")
                    && errors.contains("declared in module io.opscv, which does not export it"), errors);
        }
    }

    /** Compiles module {@code consumer} ({@code requires io.opscv}) holding {@code source}; javac's diagnostics. */
    private String compile(String source) throws Exception {
        Path src = dir.resolve("src");
        Files.createDirectories(src.resolve("consumer"));
        Files.writeString(src.resolve("module-info.java"), "module consumer { requires io.opscv; }\n");
        String name = source.contains("class Ok") ? "Ok.java" : "Bad.java";
        Path file = Files.writeString(src.resolve("consumer").resolve(name), source);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int status = javac.run(null, diagnostics, diagnostics, "-Xlint:-incubating", "--class-path", src.toString(), "-d", dir.resolve("out").toString(), "--module-path",
                modulePath().toString(), src.resolve("module-info.java").toString(), file.toString());
        Files.delete(file);
        String text = diagnostics.toString(StandardCharsets.UTF_8);
        assertEquals(status == 0, text.isEmpty(), text);
        return text;
    }

    private static Path modulePath() {
        try {
            return Path.of(Upsample1d.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
