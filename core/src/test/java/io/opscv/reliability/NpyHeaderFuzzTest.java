package io.opscv.reliability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.npy.Npy;
import io.opscv.npy.NpyDtype;
import io.opscv.npy.NpyFormatException;
import io.opscv.npy.NpyHeader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Fuzzing of the .npy reader with hostile files (issue 6, item 6): valid files of every version,
 * dtype and shape, then corrupted (bytes flipped, cut, appended, the header length rewritten,
 * text spliced into the header). The reader must either refuse the file with a one-line
 * {@link NpyFormatException}, or accept a header that is consistent with the file (its data
 * exactly fills the rest), whose data then reads; nothing else may come out. The count lands in
 * {@code target/reliability/fuzz-npy-header.txt}.
 */
class NpyHeaderFuzzTest {
    private static final String COUNTER = "npy-header";
    private static Path dir;

    @BeforeContainer
    static void open() throws IOException {
        dir = Files.createTempDirectory("npy-fuzz");
    }

    @AfterContainer
    static void close() throws IOException {
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
                Files.delete(p);
            }
        }
        Files.delete(dir);
        FuzzStatistics.report(COUNTER);
    }

    /** What is done to a valid file. */
    enum Corruption { NONE, FLIP_BYTES, CUT, APPEND, HEADER_LENGTH, SPLICE_TEXT }

    record NpyFile(int version, String descr, boolean fortran, long[] shape, Corruption corruption, long seed) {
        private static final String[] SPLICES = {"(", ")", "[", "{", "'", "\"", ",", ":", "-", "L", "True", "None", "1e9",
            "99999999999999999999", "\\", "\u0000", "\u00ff", "((((((((((", "'shape': (1,),", " "};

        byte[] bytes() {
            SplittableRandom rnd = new SplittableRandom(seed);
            StringBuilder shapeText = new StringBuilder("(");
            for (int k = 0; k < shape.length; k++) {
                shapeText.append(shape[k]).append(shape.length == 1 ? "," : k + 1 < shape.length ? ", " : "");
            }
            shapeText.append(")");
            String header = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': "
                    + shapeText + ", }";
            if (corruption == Corruption.SPLICE_TEXT) {
                int at = rnd.nextInt(header.length() + 1);
                header = header.substring(0, at) + SPLICES[rnd.nextInt(SPLICES.length)] + header.substring(at);
            }
            header += "\n";
            byte[] text = header.getBytes(version == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
            long numel = Arrays.stream(shape).reduce(1, (a, b) -> a * b);
            String digits = descr.replaceAll("[^0-9]", "");
            int item = digits.isEmpty() ? 1 : Integer.parseInt(digits);
            int dataBytes = (int) Math.min(numel * item, 1 << 16);
            int prefix = version == 1 ? 10 : 12;
            ByteBuffer b = ByteBuffer.allocate(prefix + text.length + dataBytes).order(ByteOrder.LITTLE_ENDIAN);
            b.put(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', (byte) version, 0});
            if (version == 1) {
                b.putShort((short) text.length);
            } else {
                b.putInt(text.length);
            }
            b.put(text);
            byte[] data = new byte[dataBytes];
            rnd.nextBytes(data);
            b.put(data);
            byte[] file = b.array();
            switch (corruption) {
                case FLIP_BYTES -> {
                    for (int k = 1 + rnd.nextInt(4); k > 0; k--) {
                        file[rnd.nextInt(Math.min(file.length, prefix + text.length))] ^= (byte) (1 << rnd.nextInt(8));
                    }
                }
                case CUT -> file = Arrays.copyOf(file, rnd.nextInt(file.length));
                case APPEND -> file = Arrays.copyOf(file, file.length + 1 + rnd.nextInt(64));
                case HEADER_LENGTH -> {
                    ByteBuffer w = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
                    if (version == 1) {
                        w.putShort(8, (short) rnd.nextInt(1 << 16));
                    } else {
                        w.putInt(8, rnd.nextBoolean() ? rnd.nextInt() : rnd.nextInt(4 * text.length + 1));
                    }
                }
                default -> {
                    // NONE, SPLICE_TEXT: as built.
                }
            }
            return file;
        }
    }

    @Provide
    Arbitrary<NpyFile> files() {
        Arbitrary<String> descr = Arbitraries.of("<f4", "<f2", "<u2", "<f8", "|u1", "|i1", "<i4", "<i8", "|b1", "<c8", "<c16",
                ">f4", "|O", "<U8", "<V4", "=f4", "|f2", "f4", "<f3");
        Arbitrary<long[]> shape = Arbitraries.longs().between(0, 5).array(long[].class).ofMaxSize(4);
        Arbitrary<Corruption> corruption = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(2, Arbitraries.just(Corruption.NONE)),
                net.jqwik.api.Tuple.of(8, Arbitraries.of(Corruption.class)));
        return Combinators.combine(Arbitraries.of(1, 2, 3), descr, Arbitraries.of(true, false), shape, corruption,
                Arbitraries.longs()).as(NpyFile::new);
    }

    @Property(edgeCases = EdgeCasesMode.NONE)
    void hostileFilesAreRefusedInOneLineOrReadConsistently(@ForAll("files") NpyFile npy) {
        Path file = dir.resolve("f.npy");
        byte[] bytes = npy.bytes();
        try {
            Files.write(file, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        FuzzStatistics.increment(COUNTER, "calls");
        NpyHeader header;
        try {
            header = Npy.readHeader(file);
        } catch (NpyFormatException e) {
            assertTrue(e.getMessage() != null && !e.getMessage().contains("\n"), () -> "one line: " + e.getMessage());
            FuzzStatistics.increment(COUNTER, "refused");
            return;
        } catch (IOException e) {
            throw new AssertionError("an I/O error that is not a format error: " + e, e);
        }
        assertTrue(Arrays.stream(header.shape()).allMatch(d -> d >= 0), header::toString);
        assertEquals(bytes.length, header.dataOffset() + header.dataBytes(), "the data exactly fills the file");
        try {
            NpyDtype.toDataType(header.descr(), false);
        } catch (NpyFormatException e) {
            throw new AssertionError("accepted an unreadable dtype " + header.descr(), e);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment data = arena.allocate(Math.max(1, header.dataBytes()));
            Npy.readData(file, header, data);
            assertArrayEquals(Arrays.copyOfRange(bytes, (int) header.dataOffset(), bytes.length),
                    data.asSlice(0, header.dataBytes()).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        } catch (IOException e) {
            throw new AssertionError("the data of an accepted header did not read: " + e, e);
        }
        if (npy.corruption() == Corruption.NONE && !npy.descr().startsWith(">") && List.of("<f4", "<f2", "<u2").contains(npy.descr())
                && !(npy.fortran() && npy.shape().length > 1)) {
            assertArrayEquals(npy.shape(), header.shape());
        }
        assertFalse(npy.corruption() == Corruption.NONE && npy.fortran() && header.shape().length > 1,
                "a Fortran-ordered array was accepted");
        FuzzStatistics.increment(COUNTER, "accepted and read");
    }
}
