package io.opscv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.op.UpsampleLinear1d;
import io.opscv.op.UpsampleLinear1dBackward;
import io.opscv.runtime.AclnnException;
import io.opscv.runtime.AclnnStatus;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The 1-D facade: the values of the ACL mirror, bit for bit, from every kind of array and segment; its errors. */
class Upsample1dTest {
    private static final DataType[] DTYPES = {DataType.FLOAT, DataType.FLOAT16, DataType.BF16};

    /** (n, c, lin, lout, alignCorners, scale). */
    private static final Object[][] SHAPES = {
            {1L, 1L, 6L, 3L, true, 0.5},
            {2L, 3L, 17L, 40L, false, 0.0},
            {3L, 5L, 64L, 16L, false, 0.25},
            {1L, 4L, 1000L, 3700L, true, 0.0},
            {4L, 2L, 33L, 33L, false, 0.0},
    };

    private static Upsample1d op(Object[] s) {
        return Upsample1d.linear((long) s[0], (long) s[1], (long) s[2], (long) s[3]).alignCorners((boolean) s[4])
                .scale((double) s[5]);
    }

    private static byte[] mirrorForward(Object[] s, DataType dtype, byte[] x) {
        long[] in = {(long) s[0], (long) s[1], (long) s[2]};
        long[] out = {(long) s[0], (long) s[1], (long) s[3]};
        return Mirror.run(in, out, dtype, Format.ND, x, (t, y) -> UpsampleLinear1d.getWorkspaceSize(t, IntArray.of(out[2]),
                (boolean) s[4], (double) s[5], y), UpsampleLinear1d::run);
    }

    private static byte[] mirrorBackward(Object[] s, DataType dtype, byte[] g) {
        long[] in = {(long) s[0], (long) s[1], (long) s[3]};
        long[] out = {(long) s[0], (long) s[1], (long) s[2]};
        return Mirror.run(in, out, dtype, Format.ND, g, (t, y) -> UpsampleLinear1dBackward.getWorkspaceSize(t,
                IntArray.of(in[2]), IntArray.of(out), (boolean) s[4], (double) s[5], y), UpsampleLinear1dBackward::run);
    }

    @Test
    void theSampleCallGivesPyTorchsValues() {
        // SPEC §8: gradOut [1, 2, 3] to length 6, alignCorners, scales 0.5 -> 1, 0, 1, 1, 0, 3.
        float[] gradInput = Upsample1d.linear(1, 1, 6, 3).alignCorners(true).scale(0.5).backward(new float[] {1, 2, 3});
        assertArrayEquals(new float[] {1, 0, 1, 1, 0, 3}, gradInput);
    }

    @Test
    void floatArraysGiveTheMirrorsBits() {
        for (Object[] s : SHAPES) {
            Upsample1d op = op(s);
            long n = (long) s[0] * (long) s[1];
            byte[] x = Mirror.values(n * (long) s[2], DataType.FLOAT, 11);
            byte[] g = Mirror.values(n * (long) s[3], DataType.FLOAT, 12);
            Mirror.assertSameBits(mirrorForward(s, DataType.FLOAT, x), Mirror.bytes(op.forward(Mirror.floats(x))), DataType.FLOAT,
                    op.toString());
            Mirror.assertSameBits(mirrorBackward(s, DataType.FLOAT, g), Mirror.bytes(op.backward(Mirror.floats(g))), DataType.FLOAT,
                    op.toString());
        }
    }

    @Test
    void shortArraysGiveTheMirrorsBits() {
        for (Object[] s : SHAPES) {
            for (DataType dtype : new DataType[] {DataType.FLOAT16, DataType.BF16}) {
                Upsample1d op = op(s);
                long n = (long) s[0] * (long) s[1];
                byte[] x = Mirror.values(n * (long) s[2], dtype, 21);
                byte[] g = Mirror.values(n * (long) s[3], dtype, 22);
                Mirror.assertSameBits(mirrorForward(s, dtype, x), Mirror.bytes(op.forward(Mirror.shorts(x), dtype)), dtype,
                        op + " " + dtype);
                Mirror.assertSameBits(mirrorBackward(s, dtype, g), Mirror.bytes(op.backward(Mirror.shorts(g), dtype)), dtype,
                        op + " " + dtype);
            }
        }
    }

    @Test
    void everyKindOfSegmentGivesTheMirrorsBits() {
        for (Object[] s : SHAPES) {
            for (DataType dtype : DTYPES) {
                Upsample1d op = op(s);
                long rows = (long) s[0] * (long) s[1];
                byte[] x = Mirror.values(rows * (long) s[2], dtype, 31);
                byte[] g = Mirror.values(rows * (long) s[3], dtype, 32);
                byte[] y = mirrorForward(s, dtype, x);
                byte[] gx = mirrorBackward(s, dtype, g);
                for (String kind : new String[] {"confined", "shared", "global", "auto", "heap"}) {
                    try (Arena confined = Arena.ofConfined(); Arena shared = Arena.ofShared()) {
                        Function<Long, MemorySegment> alloc = switch (kind) {
                            case "confined" -> confined::allocate;
                            case "shared" -> shared::allocate;
                            case "global" -> Arena.global()::allocate;
                            case "auto" -> Arena.ofAuto()::allocate;
                            default -> bytes -> MemorySegment.ofArray(new byte[(int) (long) bytes]);
                        };
                        MemorySegment in = alloc.apply((long) x.length).copyFrom(MemorySegment.ofArray(x));
                        MemorySegment out = alloc.apply((long) y.length);
                        op.forward(in, out, dtype);
                        Mirror.assertSameBits(y, out.toArray(ValueLayout.JAVA_BYTE), dtype, op + " " + dtype + " " + kind);
                        MemorySegment gin = alloc.apply((long) g.length).copyFrom(MemorySegment.ofArray(g));
                        MemorySegment gout = alloc.apply((long) gx.length);
                        op.backward(gin, gout, dtype);
                        Mirror.assertSameBits(gx, gout.toArray(ValueLayout.JAVA_BYTE), dtype, op + " " + dtype + " " + kind);
                    }
                }
            }
        }
    }

    @Test
    void offsetFormsWriteOnlyTheirRange() {
        Object[] s = SHAPES[1];
        Upsample1d op = op(s);
        float[] g = Mirror.floats(Mirror.values(6 * 40, DataType.FLOAT, 41));
        float[] gradOut = new float[g.length + 7];
        System.arraycopy(g, 0, gradOut, 5, g.length);
        float[] gradInput = new float[6 * 17 + 10];
        java.util.Arrays.fill(gradInput, -7f);
        op.backward(gradOut, 5, gradInput, 3);
        float[] expected = op.backward(g);
        for (int i = 0; i < gradInput.length; i++) {
            float want = i >= 3 && i < 3 + expected.length ? expected[i - 3] : -7f;
            assertEquals(Float.floatToRawIntBits(want), Float.floatToRawIntBits(gradInput[i]), "element " + i);
        }
        float[] x = Mirror.floats(Mirror.values(6 * 17, DataType.FLOAT, 42));
        float[] y = new float[6 * 40 + 1];
        op.forward(x, 0, y, 1);
        assertArrayEquals(op.forward(x), java.util.Arrays.copyOfRange(y, 1, y.length));
    }

    @Test
    void configuringReturnsNewInstancesAndLeavesTheOriginal() {
        Upsample1d base = Upsample1d.linear(1, 1, 6, 3);
        Upsample1d aligned = base.alignCorners(true);
        Upsample1d scaled = aligned.scale(0.5);
        assertEquals("Upsample1d.linear(1, 1, 6, 3).alignCorners(false).scale(0.0)", base.toString());
        assertEquals("Upsample1d.linear(1, 1, 6, 3).alignCorners(true).scale(0.0)", aligned.toString());
        assertEquals("Upsample1d.linear(1, 1, 6, 3).alignCorners(true).scale(0.5)", scaled.toString());
        // The unaligned operator's taps differ from the aligned one's, so its gradient does too.
        float[] g = {1, 2, 3};
        assertArrayEquals(new float[] {1, 0, 1, 1, 0, 3}, scaled.backward(g));
        assertTrue(!java.util.Arrays.equals(scaled.backward(g), base.backward(g)));
    }

    @Test
    void oneInstanceCalledFromManyThreadsGivesTheSameBits() throws Exception {
        Upsample1d op = Upsample1d.linear(4, 8, 300, 1111).alignCorners(true);
        float[] g = Mirror.floats(Mirror.values(32 * 1111, DataType.FLOAT, 51));
        byte[] expected = Mirror.bytes(op.backward(g));
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<byte[]>> results = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                boolean confined = i % 2 == 0;
                results.add(pool.submit(() -> {
                    if (!confined) {
                        return Mirror.bytes(op.backward(g));
                    }
                    try (Arena arena = Arena.ofConfined()) {
                        MemorySegment in = arena.allocate(g.length * 4L).copyFrom(MemorySegment.ofArray(g));
                        MemorySegment out = arena.allocate(32 * 300 * 4L);
                        op.backward(in, out, DataType.FLOAT);
                        return out.toArray(ValueLayout.JAVA_BYTE);
                    }
                }));
            }
            for (Future<byte[]> r : results) {
                assertArrayEquals(expected, r.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void wrongLengthsAndArgumentsThrowIllegalArgumentException() {
        Upsample1d op = Upsample1d.linear(2, 3, 8, 16);
        assertMessage("gradOut has 95 elements, but (N, C, L) = (2, 3, 16) needs 96.", () -> op.backward(new float[95]));
        assertMessage("x has 49 elements, but (N, C, L) = (2, 3, 8) needs 48.", () -> op.forward(new float[49]));
        assertMessage("Expected an array for x but got null.", () -> op.forward((float[]) null));
        assertMessage("short[] holds FLOAT16 or BF16 bit patterns, but got dtype DT_FLOAT.",
                () -> op.forward(new short[48], DataType.FLOAT));
        assertMessage("n must be >= 0, but got -1.", () -> Upsample1d.linear(-1, 3, 8, 16));
        assertMessage("gradInput: 48 elements from offset 1 do not fit in an array of 48.",
                () -> op.backward(new float[96], 0, new float[48], 1));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment in = arena.allocate(96 * 4);
            assertMessage("gradInput holds 100 bytes, but (N, C, L) = (2, 3, 8) of DT_FLOAT needs 192.",
                    () -> op.backward(in, arena.allocate(100), DataType.FLOAT));
            assertMessage("gradInput is read-only.", () -> op.backward(in, arena.allocate(192).asReadOnly(), DataType.FLOAT));
            MemorySegment both = arena.allocate(96 * 4 + 48 * 4);
            assertMessage("gradInput shares memory with gradOut: in-place calls are refused.",
                    () -> op.backward(both.asSlice(0, 384), both.asSlice(200, 192), DataType.FLOAT));
            assertMessage("Expected a DataType but got null.", () -> op.backward(in, arena.allocate(192), null));
        }
        MemorySegment closed;
        try (Arena arena = Arena.ofShared()) {
            closed = arena.allocate(384);
        }
        MemorySegment dead = closed;
        assertMessage("gradOut's arena is closed.", () -> op.backward(dead, MemorySegment.ofArray(new float[48]), DataType.FLOAT));
    }

    @Test
    void whatTheOperatorRefusesThrowsItsStatusAndMessage() {
        AclnnException dtype = assertThrows(AclnnException.class,
                () -> Upsample1d.linear(1, 1, 4, 8).backward(MemorySegment.ofArray(new double[8]),
                        MemorySegment.ofArray(new double[4]), DataType.DOUBLE));
        assertEquals(AclnnStatus.ERR_PARAM_INVALID, dtype.status());
        assertTrue(dtype.getMessage().contains("DT_DOUBLE"), dtype.getMessage());
        AclnnException empty = assertThrows(AclnnException.class, () -> Upsample1d.linear(1, 1, 0, 8).backward(new float[8]));
        assertEquals(AclnnStatus.ERR_PARAM_INVALID, empty.status());
        AclnnException scale = assertThrows(AclnnException.class,
                () -> Upsample1d.linear(1, 1, 4, 8).scale(3.0).backward(new float[8]));
        assertEquals(AclnnStatus.ERR_PARAM_INVALID, scale.status());
        // A failed call leaves the pool usable.
        assertArrayEquals(new float[] {1, 0, 1, 1, 0, 3}, Upsample1d.linear(1, 1, 6, 3).alignCorners(true).scale(0.5)
                .backward(new float[] {1, 2, 3}));
    }

    @Test
    void emptyBatchesGiveEmptyResults() {
        assertEquals(0, Upsample1d.linear(0, 3, 8, 16).backward(new float[0]).length);
        assertEquals(0, Upsample1d.linear(0, 3, 8, 16).forward(new float[0]).length);
    }

    private static void assertMessage(String message, Runnable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call::run);
        assertEquals(message, e.getMessage());
    }
}
