package io.opscv.npy;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads and writes NumPy {@code .npy} files (format versions 1.0–3.0, little-endian, C order)
 * straight between the file and off-heap memory.
 *
 * <p>Reading checks the header against the file before anything is allocated: a header that
 * claims more data than the file holds is rejected. Writing is atomic: the data goes to a
 * temporary file beside the target, which is then renamed over it, so a failure leaves no
 * partial output ({@link AtomicWrite}).
 */
public final class Npy {
    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    /** The largest header this reader accepts (NumPy itself writes a few hundred bytes). */
    static final int MAX_HEADER_BYTES = 1 << 20;
    private static final int CHUNK = 1 << 26;

    private Npy() {}

    /**
     * Reads and validates the header of {@code file}: the magic string, the version, the header's
     * length against the file, the header as a Python literal of the expected form, the dtype, the
     * order, and the data size the header claims against the bytes that follow it. Only the header
     * is read, into a buffer of at most {@link #MAX_HEADER_BYTES}.
     *
     * @param file the .npy file
     * @return the header: descriptor, shape and data offset
     * @throws NpyFormatException for anything but a regular .npy file this library reads (FIFOs and
     *                            devices are refused before they are opened: reading them could block)
     */
    public static NpyHeader readHeader(Path file) throws IOException {
        requireRegularFile(file);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            return readHeader(ch, file);
        } catch (NoSuchFileException e) {
            throw new NpyFormatException(file + ": no such file");
        } catch (NpyFormatException e) {
            throw e;
        } catch (IOException e) {
            throw cannotRead(file, e);
        }
    }

    /** A read failure as {@code cannot read g.npy: Permission denied}: the path given and the system's reason. */
    private static NpyFormatException cannotRead(Path file, IOException e) {
        return new NpyFormatException("cannot read " + file + ": " + AtomicWrite.reason(e));
    }

    private static NpyHeader readHeader(FileChannel ch, Path file) throws IOException {
        long fileSize = ch.size();
        ByteBuffer pre = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
        readFully(ch, pre, 0);
        pre.flip();
        if (pre.remaining() < 10) {
            throw new NpyFormatException(file + ": not a .npy file (only " + fileSize + " bytes)");
        }
        for (byte b : MAGIC) {
            if (pre.get() != b) {
                throw new NpyFormatException(file + ": not a .npy file (wrong magic string)");
            }
        }
        int major = pre.get() & 0xff;
        int minor = pre.get() & 0xff;
        long headerLength;
        int prefix;
        if (minor != 0 || major < 1 || major > 3) {
            // numpy.lib.format knows exactly the versions (1, 0), (2, 0) and (3, 0).
            throw new NpyFormatException(file + ": unsupported .npy format version " + major + "." + minor + " (1.0, 2.0 and 3.0 are)");
        }
        if (major == 1) {
            headerLength = pre.getShort() & 0xffff;
            prefix = 10;
        } else {
            if (pre.remaining() < 4) {
                throw new NpyFormatException(file + ": truncated .npy header");
            }
            headerLength = pre.getInt() & 0xffffffffL;
            prefix = 12;
        }
        if (headerLength > MAX_HEADER_BYTES) {
            throw new NpyFormatException(file + ": header length " + headerLength + " is larger than " + MAX_HEADER_BYTES + " bytes");
        }
        if (prefix + headerLength > fileSize) {
            throw new NpyFormatException(file + ": header length " + headerLength + " reaches beyond the end of the file ("
                    + fileSize + " bytes)");
        }
        ByteBuffer hb = ByteBuffer.allocate((int) headerLength);
        readFully(ch, hb, prefix);
        String text = new String(hb.array(), 0, hb.position(),
                major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        Map<String, Object> dict;
        try {
            dict = new HeaderParser(text, major < 3).parseDict();
        } catch (IllegalArgumentException e) {
            throw new NpyFormatException(file + ": header is not a Python dict literal: " + e.getMessage());
        }
        Object descr = dict.get("descr");
        Object fortran = dict.get("fortran_order");
        Object shapeObj = dict.get("shape");
        if (!(descr instanceof String d) || !(fortran instanceof Boolean f) || shapeObj == null || dict.size() != 3) {
            throw new NpyFormatException(file + ": header must have exactly the keys 'descr' (str), 'fortran_order' (bool) and 'shape' (tuple)");
        }
        if (!(shapeObj instanceof HeaderParser.Tuple(List<Object> shapeList))) {
            // NumPy's reader requires a tuple ("shape is not valid"): a list or a bare integer is not one.
            throw new NpyFormatException(file + ": shape " + HeaderParser.show(shapeObj) + " must be a tuple of non-negative integers");
        }
        long[] shape = new long[shapeList.size()];
        for (int i = 0; i < shape.length; i++) {
            if (!(shapeList.get(i) instanceof Long v) || v < 0) {
                throw new NpyFormatException(file + ": shape " + HeaderParser.show(shapeObj) + " must hold non-negative integers");
            }
            shape[i] = v;
        }
        if (f && shape.length > 1) {
            throw new NpyFormatException(file + ": Fortran-ordered arrays are not supported: save the array in C order");
        }
        NpyDtype.toDataTypeOrDescribe(d, file);
        long dataOffset = prefix + headerLength;
        NpyHeader header = new NpyHeader(d, shape, dataOffset);
        long dataBytes;
        try {
            long numel = 1;
            for (long dim : shape) {
                numel = Math.multiplyExact(numel, dim);
            }
            dataBytes = Math.multiplyExact(numel, (long) header.itemSize());
        } catch (ArithmeticException e) {
            throw new NpyFormatException(file + ": shape " + java.util.Arrays.toString(shape) + " is too large");
        }
        if (dataBytes != fileSize - dataOffset) {
            throw new NpyFormatException(file + ": header shape " + java.util.Arrays.toString(shape) + " of '" + d + "' needs "
                    + dataBytes + " data bytes, but the file has " + (fileSize - dataOffset));
        }
        return header;
    }

    /**
     * Reads the data of {@code file} (whose header is {@code header}) into {@code dst}, which must hold it.
     *
     * @param file the .npy file
     * @param header its header, from {@link #readHeader}
     * @param dst the memory the data is copied into, at least {@link NpyHeader#dataBytes()} bytes
     * @throws IOException a {@link NpyFormatException} naming {@code file} when it cannot be read, is
     *                     truncated or changed since its header was read
     */
    public static void readData(Path file, NpyHeader header, MemorySegment dst) throws IOException {
        long bytes = header.dataBytes();
        if (dst.byteSize() < bytes) {
            throw new IllegalArgumentException("destination holds " + dst.byteSize() + " bytes, the data is " + bytes);
        }
        requireRegularFile(file);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            if (ch.size() - header.dataOffset() != bytes) {
                throw new NpyFormatException(file + ": the file changed while it was read");
            }
            for (long pos = 0; pos < bytes; pos += CHUNK) {
                int n = (int) Math.min(CHUNK, bytes - pos);
                ByteBuffer buf = dst.asSlice(pos, n).asByteBuffer();
                readFully(ch, buf, header.dataOffset() + pos);
                if (buf.hasRemaining()) {
                    throw new NpyFormatException(file + ": truncated data");
                }
            }
        } catch (NpyFormatException e) {
            throw e;
        } catch (IOException e) {
            throw cannotRead(file, e);
        }
    }

    /**
     * Writes {@code data} (the elements in C order) as a .npy file, atomically, as Unix tools write:
     * through a symbolic link, with the umask's permissions for a new file and the old mode for a
     * replaced one, via a temporary beside the target that no exit but SIGKILL leaves behind (and
     * that the next write of the same file removes). See {@link AtomicWrite}.
     *
     * @param file the target path
     * @param descr the NumPy dtype descriptor, e.g. {@code <f4} (see {@link NpyDtype#toDescr})
     * @param shape the dimensions
     * @param data the elements, exactly numel · itemSize bytes
     * @throws NpyFormatException naming {@code file} and the reason, e.g.
     *                            {@code cannot write o.npy: Permission denied}
     */
    public static void write(Path file, String descr, long[] shape, MemorySegment data) throws IOException {
        byte[] header = headerBytes(descr, shape);
        AtomicWrite.write(file, ch -> {
            writeFully(ch, ByteBuffer.wrap(header));
            for (long pos = 0; pos < data.byteSize(); pos += CHUNK) {
                int n = (int) Math.min(CHUNK, data.byteSize() - pos);
                writeFully(ch, data.asSlice(pos, n).asByteBuffer());
            }
        });
    }

    /**
     * Checks, before any work, that {@link #write} could write {@code file}: its directory (after
     * following links) exists and is writable, and it is a regular file or absent.
     *
     * @param file the target path
     * @return the file a write replaces ({@code file} with its symbolic links followed)
     * @throws NpyFormatException naming {@code file} and what is wrong
     */
    public static Path checkWritable(Path file) throws NpyFormatException {
        return AtomicWrite.target(file);
    }

    /** The bytes of a version 1.0 header (2.0 if it does not fit), padded to a multiple of 64. */
    static byte[] headerBytes(String descr, long[] shape) {
        StringBuilder dict = new StringBuilder("{'descr': '").append(descr).append("', 'fortran_order': False, 'shape': (");
        for (int i = 0; i < shape.length; i++) {
            dict.append(shape[i]).append(shape.length == 1 ? "," : (i + 1 < shape.length ? ", " : ""));
        }
        dict.append("), }");
        int prefix = 10;
        int total = prefix + dict.length() + 1;
        int padded = (total + 63) / 64 * 64;
        if (padded - prefix > 0xffff) {
            prefix = 12;
            total = prefix + dict.length() + 1;
            padded = (total + 63) / 64 * 64;
        }
        dict.append(" ".repeat(padded - total)).append('\n');
        byte[] text = dict.toString().getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer out = ByteBuffer.allocate(prefix + text.length).order(ByteOrder.LITTLE_ENDIAN);
        out.put(MAGIC);
        if (prefix == 10) {
            out.put((byte) 1).put((byte) 0).putShort((short) text.length);
        } else {
            out.put((byte) 2).put((byte) 0).putInt(text.length);
        }
        out.put(text);
        return out.array();
    }

    private static void requireRegularFile(Path file) throws NpyFormatException {
        if (!Files.exists(file)) {
            throw new NpyFormatException(file + ": no such file");
        }
        if (!Files.isRegularFile(file)) {
            throw new NpyFormatException(file + ": not a regular file (a directory, FIFO or device cannot be a .npy file)");
        }
    }

    private static void readFully(FileChannel ch, ByteBuffer buf, long position) throws IOException {
        long pos = position;
        while (buf.hasRemaining()) {
            int n = ch.read(buf, pos);
            if (n < 0) {
                return;
            }
            pos += n;
        }
    }

    private static void writeFully(FileChannel ch, ByteBuffer buf) throws IOException {
        while (buf.hasRemaining()) {
            ch.write(buf);
        }
    }

    /**
     * A strict parser for the Python literal subset .npy headers use: dicts, tuples, lists, str, int,
     * bool, read as {@code ast.literal_eval} reads them (a parenthesised value without a comma is the
     * value, not a tuple; whitespace is Python's, ASCII only; no leading zeros). Nesting is limited
     * (NumPy's headers nest two levels), so that a hostile header of a million brackets fails with a
     * message instead of overflowing the stack.
     */
    static final class HeaderParser {
        /** The deepest nesting of dicts, tuples and lists accepted. */
        static final int MAX_DEPTH = 8;
        private final String s;
        /** Whether Python 2's long suffix is accepted: NumPy filters it out of version 1.0 and 2.0 headers only. */
        private final boolean longSuffix;
        private int pos;
        private int depth;
        private boolean trailingComma;

        /** A Python tuple, told apart from a list: NumPy's shape must be a tuple. */
        record Tuple(List<Object> items) {}

        HeaderParser(String s, boolean longSuffix) {
            this.s = s;
            this.longSuffix = longSuffix;
        }

        /** A parsed value as Python prints it (for messages). */
        static String show(Object value) {
            if (value instanceof Tuple(List<Object> items)) {
                StringBuilder b = new StringBuilder("(");
                for (int i = 0; i < items.size(); i++) {
                    b.append(i > 0 ? ", " : "").append(show(items.get(i)));
                }
                return b.append(items.size() == 1 ? ",)" : ")").toString();
            }
            if (value instanceof List<?> list) {
                return list.stream().map(HeaderParser::show).collect(java.util.stream.Collectors.joining(", ", "[", "]"));
            }
            return value instanceof String str ? "'" + str + "'" : String.valueOf(value).replace("true", "True")
                    .replace("false", "False");
        }

        Map<String, Object> parseDict() {
            skipSpace();
            Object value = parseValue();
            skipSpace();
            if (pos != s.length()) {
                throw new IllegalArgumentException("unexpected text after the dict at offset " + pos);
            }
            if (!(value instanceof Map<?, ?> map)) {
                throw new IllegalArgumentException("expected a dict");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> result = (Map<String, Object>) map;
            return result;
        }

        private Object parseValue() {
            skipSpace();
            if (pos >= s.length()) {
                throw new IllegalArgumentException("unexpected end of header");
            }
            char ch = s.charAt(pos);
            if (ch == '{' || ch == '(' || ch == '[') {
                if (++depth > MAX_DEPTH) {
                    throw new IllegalArgumentException("nesting deeper than " + MAX_DEPTH + " levels at offset " + pos);
                }
                Object value = ch == '{' ? parseMap() : ch == '(' ? parseParenthesised() : parseSequence(']');
                depth--;
                return value;
            }
            if (ch == '\'' || ch == '"') {
                return parseString();
            }
            if (s.startsWith("True", pos)) {
                pos += 4;
                return Boolean.TRUE;
            }
            if (s.startsWith("False", pos)) {
                pos += 5;
                return Boolean.FALSE;
            }
            if (isAsciiDigit(ch) || ch == '-') {
                return parseInt();
            }
            throw new IllegalArgumentException("unexpected '" + ch + "' at offset " + pos);
        }

        private Map<String, Object> parseMap() {
            pos++;
            Map<String, Object> map = new java.util.LinkedHashMap<>();
            while (true) {
                skipSpace();
                if (peek() == '}') {
                    pos++;
                    return map;
                }
                Object key = parseValue();
                if (!(key instanceof String k)) {
                    throw new IllegalArgumentException("dict keys must be strings");
                }
                skipSpace();
                expect(':');
                Object value = parseValue();
                if (map.put(k, value) != null) {
                    throw new IllegalArgumentException("duplicate key '" + k + "'");
                }
                skipSpace();
                if (peek() == ',') {
                    pos++;
                } else if (peek() != '}') {
                    throw new IllegalArgumentException("expected ',' or '}' at offset " + pos);
                }
            }
        }

        /** {@code ()} and {@code (a,)} or {@code (a, b)} are tuples; {@code (a)} is a itself. */
        private Object parseParenthesised() {
            List<Object> items = parseSequence(')');
            return items.size() == 1 && !trailingComma ? items.get(0) : new Tuple(items);
        }

        /** Parses a sequence up to {@code close}; sets {@link #trailingComma} to whether a comma preceded it. */
        private List<Object> parseSequence(char close) {
            pos++;
            List<Object> items = new ArrayList<>();
            boolean comma = false;
            while (true) {
                skipSpace();
                if (peek() == close) {
                    pos++;
                    trailingComma = comma;
                    return items;
                }
                items.add(parseValue());
                comma = false;
                skipSpace();
                if (peek() == ',') {
                    comma = true;
                    pos++;
                } else if (peek() != close) {
                    throw new IllegalArgumentException("expected ',' or '" + close + "' at offset " + pos);
                }
            }
        }

        private String parseString() {
            char quote = s.charAt(pos++);
            int end = s.indexOf(quote, pos);
            if (end < 0) {
                throw new IllegalArgumentException("unterminated string");
            }
            String value = s.substring(pos, end);
            if (value.indexOf('\\') >= 0) {
                throw new IllegalArgumentException("escapes in strings are not supported");
            }
            pos = end + 1;
            return value;
        }

        private Long parseInt() {
            int begin = pos;
            if (peek() == '-') {
                pos++;
            }
            int first = pos;
            while (pos < s.length() && isAsciiDigit(s.charAt(pos))) {
                pos++;
            }
            String digits = s.substring(first, pos);
            if (digits.isEmpty()) {
                throw new IllegalArgumentException("expected digits at offset " + first);
            }
            if (digits.length() > 1 && digits.charAt(0) == '0' && !digits.chars().allMatch(c -> c == '0')) {
                throw new IllegalArgumentException("leading zeros in the integer '" + digits + "' (Python refuses them)");
            }
            if (longSuffix && pos < s.length() && s.charAt(pos) == 'L') {
                pos++; // Python 2 long suffix, as old NumPy wrote it
                return parseLong(s.substring(begin, pos - 1));
            }
            return parseLong(s.substring(begin, pos));
        }

        private static Long parseLong(String digits) {
            try {
                return Long.parseLong(digits);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("integer '" + digits + "' out of range");
            }
        }

        /** Python's integer literals are ASCII; {@link Character#isDigit} would also take other scripts' digits. */
        private static boolean isAsciiDigit(char ch) {
            return ch >= '0' && ch <= '9';
        }

        private char peek() {
            if (pos >= s.length()) {
                throw new IllegalArgumentException("unexpected end of header");
            }
            return s.charAt(pos);
        }

        private void expect(char ch) {
            if (peek() != ch) {
                throw new IllegalArgumentException("expected '" + ch + "' at offset " + pos);
            }
            pos++;
        }

        private void skipSpace() {
            while (pos < s.length() && isPythonSpace(s.charAt(pos))) {
                pos++;
            }
        }

        /**
         * Python's tokenizer separates tokens by space, tab and form feed, and joins lines inside
         * brackets; {@link Character#isWhitespace} would also take U+2003 and other scripts' spaces.
         */
        private static boolean isPythonSpace(char ch) {
            return ch == ' ' || ch == '\t' || ch == '\f' || ch == '\n' || ch == '\r';
        }
    }
}
