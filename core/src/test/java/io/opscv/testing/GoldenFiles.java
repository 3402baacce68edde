package io.opscv.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The golden set as a folder on disk: {@code cases.json} with every file it names beside it, as a case
 * file reader needs it. From the test classes' folder when they are one, else (this module's test-jar
 * on another module's classpath) extracted once into a temporary folder.
 */
public final class GoldenFiles {
    private static Path folder;

    private GoldenFiles() {}

    /** {@code golden/cases.json} in a folder that holds its files. */
    public static Path casesJson() {
        return folder().resolve("cases.json");
    }

    /** The folder holding the golden set. */
    public static synchronized Path folder() {
        if (folder == null) {
            folder = locate();
        }
        return folder;
    }

    private static Path locate() {
        URL url = GoldenFiles.class.getResource("/golden/cases.json");
        if (url == null) {
            throw new IllegalStateException("golden/cases.json is not on the test classpath");
        }
        try {
            if ("file".equals(url.getProtocol())) {
                return Path.of(url.toURI()).getParent();
            }
            Path dir = Files.createTempDirectory("golden-");
            dir.toFile().deleteOnExit();
            JarURLConnection connection = (JarURLConnection) url.openConnection();
            connection.setUseCaches(false); // a private JarFile, so that closing it cannot close a shared one
            try (JarFile jar = connection.getJarFile()) {
                for (Enumeration<JarEntry> entries = jar.entries(); entries.hasMoreElements(); ) {
                    JarEntry entry = entries.nextElement();
                    String name = entry.getName();
                    if (name.startsWith("golden/") && !entry.isDirectory() && name.indexOf('/', "golden/".length()) < 0) {
                        Path target = dir.resolve(name.substring("golden/".length()));
                        try (InputStream in = jar.getInputStream(entry)) {
                            Files.copy(in, target);
                        }
                        target.toFile().deleteOnExit();
                    }
                }
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
