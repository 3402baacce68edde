package io.opscv.npy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.runtime.DataType;
import io.opscv.testing.GoldenCase;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** .npy reading and writing: NumPy's own files, round trips per encoding, and what is refused. */
class NpyTest {
    @TempDir
    Path dir;

    @Test
    void readsFilesWrittenByNumPy() throws IOException {
        Path p = GoldenCase.resource("bwd_up2x_f32.grad_out.npy");
        NpyHeader h = Npy.readHeader(p);
        assertEquals("<f4", h.descr());
        assertArrayEquals(new long[] {2, 3, 32}, h.shape());
        assertEquals(Files.size(p) - 2 * 3 * 32 * 4, h.dataOffset());
        NpyHeader bf = Npy.readHeader(GoldenCase.resource("bwd_up2.5x_ac_bf16.grad_out.npy"));
        assertEquals("<u2", bf.descr());
        assertEquals(DataType.BF16, NpyDtype.toDataType(bf.descr(), true));
        assertEquals(DataType.UINT16, NpyDtype.toDataType(bf.descr(), false));
    }

    @ParameterizedTest
    @ValueSource(strings = {"<f4", "<f2", "<u2", "<f8", "<i4", "|b1", "<i8", "|u1", "<c8"})
    void roundTripsEachEncoding(String descr) throws IOException {
        long[] shape = {2, 3, 5};
        int bytes = 30 * NpyDtype.itemSize(descr);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment data = arena.allocate(bytes);
            for (int k = 0; k < bytes; k++) {
                data.set(ValueLayout.JAVA_BYTE, k, (byte) (k * 37 + 11));
            }
            Path p = dir.resolve("x.npy");
            Npy.write(p, descr, shape, data);
            NpyHeader h = Npy.readHeader(p);
            assertEquals(descr, h.descr());
            assertArrayEquals(shape, h.shape());
            assertEquals(0, h.dataOffset() % 64, "header padded to 64 bytes as NumPy does");
            MemorySegment back = arena.allocate(bytes);
            Npy.readData(p, h, back);
            assertEquals(-1, data.mismatch(back));
            try (var files = Files.list(dir)) {
                assertEquals(1, files.count(), "no temporary file left behind");
            }
        }
    }

    @Test
    void writtenFilesAreReadableLikeAnyNewFileAndKeepAReplacedFilesMode() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment data = arena.allocate(4);
            Path fresh = dir.resolve("fresh.npy");
            Npy.write(fresh, "<f4", new long[] {1}, data);
            assertEquals(newFileMode(), java.nio.file.attribute.PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(fresh)));
            Path existing = dir.resolve("existing.npy");
            Files.writeString(existing, "old");
            Files.setPosixFilePermissions(existing, java.nio.file.attribute.PosixFilePermissions.fromString("rw-rw----"));
            Npy.write(existing, "<f4", new long[] {1}, data);
            assertEquals("rw-rw----", java.nio.file.attribute.PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(existing)));
        }
    }

    /** 0666 less this process's umask (from /proc/self/status), as rwx text: the mode of any new file. */
    private static String newFileMode() throws IOException {
        int umask = 022;
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("Umask:")) {
                umask = Integer.parseInt(line.substring(6).strip(), 8);
            }
        }
        int mode = 0666 & ~umask;
        StringBuilder text = new StringBuilder();
        for (int bit = 8; bit >= 0; bit--) {
            text.append((mode >> bit & 1) == 0 ? '-' : "rwx".charAt((8 - bit) % 3));
        }
        return text.toString();
    }

    @Test
    void acceptsTheHeadersNumPyAccepts() throws IOException {
        // Python's own spellings of the same dict: tabs, line breaks and form feeds between tokens, no
        // trailing commas, double quotes, Python 2's long suffix (NumPy filters it from versions 1.0 and 2.0).
        for (String dict : List.of("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }",
                "{\t'descr':\t'<f4',\n 'fortran_order' : False ,\f'shape': ( 2 , )}",
                "{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (2L,)}",
                "{'shape': (1, 2), 'fortran_order': False, 'descr': '<f4'}",
                "{'descr': '<f4', 'fortran_order': False, 'shape': ((2),)}")) {
            NpyHeader h = Npy.readHeader(fileWithHeader(dict, 8));
            assertEquals(2, java.util.Arrays.stream(h.shape()).reduce(1, (a, b) -> a * b), dict);
        }
        assertArrayEquals(new long[0], Npy.readHeader(fileWithHeader(
                "{'descr': '<f4', 'fortran_order': False, 'shape': ()}", 4)).shape());
    }

    @Test
    void writesOneAndZeroDimensionalShapesAsPythonTuples() {
        String one = new String(Npy.headerBytes("<f4", new long[] {7}), StandardCharsets.ISO_8859_1);
        assertTrue(one.contains("'shape': (7,)"), one);
        String zero = new String(Npy.headerBytes("<f4", new long[0]), StandardCharsets.ISO_8859_1);
        assertTrue(zero.contains("'shape': ()"), zero);
    }

    @Test
    void readsVersion2AndVersion3Headers() throws IOException {
        for (int version : new int[] {2, 3}) {
            String dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
            int len = 128 - 12;
            ByteBuffer b = ByteBuffer.allocate(12 + len + 8).order(ByteOrder.LITTLE_ENDIAN);
            b.put(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', (byte) version, 0}).putInt(len);
            b.put((dict + " ".repeat(len - dict.length() - 1) + "\n").getBytes(StandardCharsets.US_ASCII));
            b.putFloat(1.5f).putFloat(-2f);
            Path p = dir.resolve("v" + version + ".npy");
            Files.write(p, b.array());
            NpyHeader h = Npy.readHeader(p);
            assertArrayEquals(new long[] {2}, h.shape());
            assertEquals(128, h.dataOffset());
        }
    }

    private Path fileWithHeader(String dict, int dataBytes) throws IOException {
        byte[] text = (dict + "\n").getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer b = ByteBuffer.allocate(10 + text.length + dataBytes).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0}).putShort((short) text.length).put(text);
        Path p = Files.createTempFile(dir, "bad", ".npy");
        Files.write(p, b.array());
        return p;
    }

    private static void refused(Path p, String text) {
        NpyFormatException e = assertThrows(NpyFormatException.class, () -> Npy.readHeader(p));
        assertTrue(e.getMessage().contains(text), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), "one line");
    }

    @Test
    void refusesWhatItCannotRead() throws IOException {
        refused(fileWithHeader("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", 8), "big-endian");
        refused(fileWithHeader("{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", 16), "unsupported dtype");
        refused(fileWithHeader("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", 16), "Fortran");
        refused(fileWithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776,), }", 8),
                "needs 4398046511104 data bytes, but the file has 8");
        refused(fileWithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", 8), "needs 12 data bytes");
        refused(fileWithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), __import__('os') }", 8),
                "not a Python dict literal");
        refused(fileWithHeader("{'descr': '<f4', 'shape': (2,), }", 8), "exactly the keys");
        Path magic = dir.resolve("magic.npy");
        Files.write(magic, "hello world, not numpy".getBytes(StandardCharsets.US_ASCII));
        refused(magic, "wrong magic string");
        Path shortFile = dir.resolve("short.npy");
        Files.write(shortFile, new byte[] {(byte) 0x93, 'N'});
        refused(shortFile, "not a .npy file");
        Path headerTooLong = dir.resolve("long.npy");
        Files.write(headerTooLong, new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (byte) 0xff, (byte) 0x7f, '{'});
        refused(headerTooLong, "reaches beyond the end of the file");
        refused(dir.resolve("missing.npy"), "no such file");
    }

    @Test
    void writingIntoAMissingDirectoryFailsWithoutLeavingFiles() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment data = arena.allocate(4);
            assertThrows(IOException.class, () -> Npy.write(dir.resolve("nope/x.npy"), "<f4", new long[] {1}, data));
        }
    }
}
