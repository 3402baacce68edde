package io.opscv.npy;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes a file as Unix tools do, atomically: the data goes to a temporary file beside the target,
 * which is then renamed over it.
 *
 * <ul>
 *   <li>A path that is a symbolic link is written through: the link stays, its (resolved) target
 *       gets the result.</li>
 *   <li>A new file gets the permissions of the umask (the temporary is created without explicit
 *       permissions, so the system applies it); a replaced file keeps its mode (and, where allowed,
 *       its owner and group).</li>
 *   <li>The temporary is {@code .opscv-<key>-<random>.tmp} in the target's directory, where
 *       {@code key} is the first 8 hex digits of the SHA-256 of the target's file name (UTF-8):
 *       short, whatever the target's name. The writer holds a lock on it while it writes; a later
 *       write of the same target deletes the ones nobody holds (left by a process that was killed
 *       with SIGKILL). A shutdown hook deletes those in flight on SIGINT or SIGTERM.</li>
 *   <li>Failures name the path the caller gave and the reason, never the temporary:
 *       {@code cannot write o.npy: Permission denied}.</li>
 * </ul>
 */
final class AtomicWrite {
    /** How a temporary's name begins and ends. */
    static final String PREFIX = ".opscv-";
    static final String SUFFIX = ".tmp";
    /** Links followed before giving up, as Linux's ELOOP limit. */
    private static final int MAX_LINKS = 40;
    private static final Set<Path> IN_FLIGHT = ConcurrentHashMap.newKeySet();
    private static final SecureRandom RANDOM = new SecureRandom();

    static {
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(AtomicWrite::deleteInFlight, "opscv-temporary-cleanup"));
        } catch (IllegalStateException e) {
            // The JVM is already shutting down: nothing will be written, so there is nothing to clean.
        }
    }

    private AtomicWrite() {}

    /** What goes into the temporary. */
    interface Body {
        void writeTo(FileChannel channel) throws IOException;
    }

    /**
     * The file that a write to {@code given} replaces: {@code given} with its symbolic links followed,
     * checked to lie in an existing, writable directory and to be a regular file or absent.
     */
    static Path target(Path given) throws NpyFormatException {
        Path path = given.toAbsolutePath();
        try {
            for (int k = 0; Files.isSymbolicLink(path); k++) {
                if (k == MAX_LINKS) {
                    throw cannotWrite(given, "Too many levels of symbolic links");
                }
                path = path.resolveSibling(Files.readSymbolicLink(path));
            }
        } catch (IOException e) {
            throw cannotWrite(given, reason(e));
        }
        Path dir = path.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new NpyFormatException(given + ": the output directory does not exist");
        }
        if (Files.isDirectory(path)) {
            throw new NpyFormatException(given + ": is a directory");
        }
        boolean exists = Files.exists(path);
        if (exists && !Files.isRegularFile(path)) {
            // Renaming over a FIFO or device node would replace it.
            throw new NpyFormatException(given + ": exists and is not a regular file; choose another output path");
        }
        // Without write permission on the file, cp and np.save fail; the rename alone would not.
        if (!Files.isWritable(dir) || exists && !Files.isWritable(path)) {
            throw cannotWrite(given, "Permission denied");
        }
        return path;
    }

    /** Writes {@code body} to {@code given} (see the class comment). */
    static void write(Path given, Body body) throws IOException {
        Path target = target(given);
        Path dir = target.getParent();
        String key = key(target.getFileName().toString());
        removeStale(dir, key);
        Path tmp = null;
        boolean done = false;
        try {
            FileChannel channel = null;
            while (channel == null) {
                tmp = dir.resolve(PREFIX + key + "-" + HexFormat.of().toHexDigits(RANDOM.nextInt()) + SUFFIX);
                IN_FLIGHT.add(tmp);
                try {
                    channel = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                } catch (FileAlreadyExistsException e) {
                    IN_FLIGHT.remove(tmp);
                    continue;
                }
                // Another writer's removeStale may take the file between its creation and the lock: then start over.
                channel.lock();
                if (!Files.exists(tmp, LinkOption.NOFOLLOW_LINKS)) {
                    channel.close();
                    channel = null;
                    IN_FLIGHT.remove(tmp);
                }
            }
            try (FileChannel ch = channel) {
                if (Files.exists(target)) {
                    keepOwnerAndMode(tmp, target);
                }
                body.writeTo(ch);
                ch.force(false);
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                done = true;
            }
        } catch (NpyFormatException e) {
            throw e;
        } catch (IOException e) {
            throw cannotWrite(given, reason(e));
        } finally {
            if (tmp != null) {
                if (!done) {
                    try {
                        Files.deleteIfExists(tmp);
                    } catch (IOException e) {
                        // The write's own failure is what the caller needs to hear about.
                    }
                }
                IN_FLIGHT.remove(tmp);
            }
        }
    }

    /** The first 8 hex digits of the SHA-256 of {@code fileName}: keys a target's temporaries. */
    static String key(String fileName) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(fileName.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every JDK has SHA-256", e);
        }
    }

    /**
     * Deletes the temporaries of this key that no process holds: a writer holds its lock until it
     * ends, however it ends, so an unlocked one is left from a killed run. Best effort: what cannot be
     * opened (another user's) is left alone.
     */
    private static void removeStale(Path dir, String key) {
        try (DirectoryStream<Path> candidates = Files.newDirectoryStream(dir, PREFIX + key + "-*" + SUFFIX)) {
            for (Path candidate : candidates) {
                // This process's own temporaries: opening and closing one would drop its writer's lock (POSIX locks).
                if (IN_FLIGHT.contains(candidate) || !Files.isRegularFile(candidate, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                try (FileChannel ch = FileChannel.open(candidate, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
                    FileLock lock = ch.tryLock();
                    if (lock != null) {
                        Files.deleteIfExists(candidate);
                    }
                } catch (IOException | OverlappingFileLockException e) {
                    // In use or not ours: leave it.
                }
            }
        } catch (IOException e) {
            // An unreadable directory: the write itself will report it.
        }
    }

    private static void deleteInFlight() {
        for (Path tmp : IN_FLIGHT) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException e) {
                // Nothing more can be done while the JVM exits.
            }
        }
    }

    private static void keepOwnerAndMode(Path tmp, Path target) throws IOException {
        PosixFileAttributeView view = Files.getFileAttributeView(tmp, PosixFileAttributeView.class);
        if (view == null) {
            return;
        }
        PosixFileAttributes old = Files.readAttributes(target, PosixFileAttributes.class);
        try {
            view.setGroup(old.group());
            view.setOwner(old.owner());
        } catch (IOException e) {
            // Only root may give a file away; the result is then the writer's, as with any new file.
        }
        view.setPermissions(old.permissions());
    }

    static NpyFormatException cannotWrite(Path given, String reason) {
        return new NpyFormatException("cannot write " + given + ": " + reason);
    }

    /** The system's reason for a failure, as {@code strerror} says it, without the path it concerned. */
    static String reason(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "Permission denied";
        }
        if (e instanceof NoSuchFileException) {
            return "No such file or directory";
        }
        if (e instanceof NotDirectoryException) {
            return "Not a directory";
        }
        if (e instanceof FileAlreadyExistsException) {
            return "File exists";
        }
        if (e instanceof FileSystemException fs) {
            return fs.getReason() != null ? fs.getReason() : e.getClass().getSimpleName();
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
