package io.opscv.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.opscv.runtime.DataType;
import io.opscv.runtime.PinnedScopes;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The in-place forms read and write at raw addresses (VectorKernelProvider.RAW): what the segments'
 * own checks ensured at every access, each call must check once, before touching memory. Each view
 * lies inside a larger allocation, so an access beyond it would not fault: only the checks catch it.
 */
class InPlaceAccessTest {
    private static final int LIN = 64;
    private static final int LOUT = 128;
    private static final int ROWS = 2;
    private static final int GUARD = 64;

    private final LinearTable table = LinearTable.of(LIN, LOUT, false, 0);
    private final int span = table.gatherTo(LIN) - table.gatherFrom(0);
    private KernelProvider vector;

    @BeforeEach
    void vectorProvider() {
        vector = KernelProviders.vector();
        assumeTrue(vector != null && vector.backwardInPlace(table, DataType.FLOAT), "no in-place vector form here");
    }

    /** gradOut's rows (filled with ones) and out's rows, each with GUARD floats of the allocation on both sides. */
    private record Views(MemorySegment gradOutAll, MemorySegment gradOut, MemorySegment outAll, MemorySegment out) {
        static Views in(Arena arena, int gradOutFloats, int outFloats) {
            MemorySegment g = arena.allocate(4L * (gradOutFloats + 2 * GUARD), 64);
            g.fill((byte) 0);
            MemorySegment gv = g.asSlice(4L * GUARD, 4L * gradOutFloats);
            for (long k = 0; k < gradOutFloats; k++) {
                gv.setAtIndex(ValueLayout.JAVA_FLOAT, k, 1f);
            }
            MemorySegment o = arena.allocate(4L * (outFloats + 2 * GUARD), 64);
            o.fill((byte) 0);
            return new Views(g, gv, o, o.asSlice(4L * GUARD, 4L * outFloats));
        }

        float[] outAllFloats() {
            return outAll.toArray(ValueLayout.JAVA_FLOAT);
        }
    }

    private void call(Views v, long gFirst, long gRowStride, MemorySegment out, long oFirst, long oRowStride) {
        vector.linearBackwardInPlace(table, 0, LIN, ROWS, v.gradOut(), gFirst, gRowStride, out, oFirst, oRowStride,
                DataType.FLOAT);
    }

    @Test
    void heldMemoryInsideTheViewsIsSummed() {
        try (Arena arena = Arena.ofShared(); PinnedScopes.Hold hold = PinnedScopes.hold(arena.scope())) {
            Views v = Views.in(arena, ROWS * span, ROWS * LIN);
            call(v, 0, span, v.out(), 0, LIN);
            float[] expected = new float[ROWS * LIN];
            float[] g = new float[ROWS * span];
            java.util.Arrays.fill(g, 1f);
            new ScalarKernelProvider().linearBackward(table, 0, LIN, ROWS, g, 0, span, expected, 0, LIN, null);
            assertArrayEquals(expected, v.out().toArray(ValueLayout.JAVA_FLOAT));
        }
    }

    @Test
    void memoryNotHeldIsRefused() {
        try (Arena arena = Arena.ofShared()) {
            Views v = Views.in(arena, ROWS * span, ROWS * LIN);
            assertThrows(IllegalStateException.class, () -> call(v, 0, span, v.out(), 0, LIN));
            assertArrayEquals(new float[ROWS * LIN + 2 * GUARD], v.outAllFloats());
            // Heap memory has no raw address to hold.
            assertThrows(IllegalStateException.class, () -> vector.linearBackwardInPlace(table, 0, LIN, ROWS,
                    MemorySegment.ofArray(new float[ROWS * span]), 0, span, MemorySegment.ofArray(new float[ROWS * LIN]), 0,
                    LIN, DataType.FLOAT));
        }
    }

    @Test
    void outRowsReachingPastOutAreRefusedBeforeAnyWrite() {
        try (Arena arena = Arena.ofShared(); PinnedScopes.Hold hold = PinnedScopes.hold(arena.scope())) {
            Views v = Views.in(arena, ROWS * span, ROWS * LIN);
            assertThrows(IndexOutOfBoundsException.class, () -> call(v, 0, span, v.out(), 1, LIN));
            assertThrows(IndexOutOfBoundsException.class, () -> call(v, 0, span, v.out(), -1, LIN));
            assertThrows(IndexOutOfBoundsException.class, () -> call(v, 0, span, v.out(), 0, LIN + 1));
            assertArrayEquals(new float[ROWS * LIN + 2 * GUARD], v.outAllFloats());
        }
    }

    @Test
    void gradOutRowsStartingOutsideGradOutAreRefused() {
        try (Arena arena = Arena.ofShared(); PinnedScopes.Hold hold = PinnedScopes.hold(arena.scope())) {
            Views v = Views.in(arena, ROWS * span, ROWS * LIN);
            assertThrows(IndexOutOfBoundsException.class, () -> call(v, -LIN, span, v.out(), 0, LIN));
            assertThrows(IndexOutOfBoundsException.class, () -> call(v, 0, ROWS * span, v.out(), 0, LIN));
            assertArrayEquals(new float[ROWS * LIN + 2 * GUARD], v.outAllFloats());
        }
    }

    @Test
    void readOnlyOutAndNegativeStridesAreRefused() {
        try (Arena arena = Arena.ofShared(); PinnedScopes.Hold hold = PinnedScopes.hold(arena.scope())) {
            Views v = Views.in(arena, ROWS * span, ROWS * LIN);
            // Inputs from 16 on: their groups take the vector form at once (input 0's group is buffered, through the
            // segment, whose own check would catch a read-only out).
            MemorySegment readOnly = v.out().asReadOnly();
            assertThrows(IllegalArgumentException.class, () -> vector.linearBackwardInPlace(table, 16, LIN - 16, ROWS,
                    v.gradOut(), 0, span, readOnly, 0, LIN, DataType.FLOAT));
            assertThrows(IllegalArgumentException.class, () -> call(v, span, -span, v.out(), 0, LIN));
            assertThrows(IllegalArgumentException.class, () -> call(v, 0, span, v.out(), LIN, -LIN));
            assertArrayEquals(new float[ROWS * LIN + 2 * GUARD], v.outAllFloats());
        }
    }

    // The side-by-side form (a transposed gradOut): position j of row r at gFirst + j·gStride + r.

    private static final int SIDE_ROWS = 64 + 16 + 3;

    private void callSideBySide(Views v, long gFirst, long gStride, MemorySegment out, long oFirst, long oRowStride) {
        vector.linearBackwardSideBySideInPlace(table, 0, LIN, SIDE_ROWS, v.gradOut(), gFirst, gStride, out, oFirst,
                oRowStride, new float[vector.sideBySideWorkFloats(LIN)]);
    }

    private Views sideBySideViews(Arena arena) {
        assumeTrue(vector.sideBySideInPlace(), "no in-place side-by-side form here");
        return Views.in(arena, span * SIDE_ROWS, SIDE_ROWS * LIN);
    }

    @Test
    void sideBySideHeldMemoryInsideTheViewsIsSummed() {
        try (Arena arena = Arena.ofShared(); PinnedScopes.Hold hold = PinnedScopes.hold(arena.scope())) {
            Views v = sideBySideViews(arena);
            callSideBySide(v, 0, SIDE_ROWS, v.out(), 0, LIN);
            float[] g = new float[span * SIDE_ROWS];
            java.util.Arrays.fill(g, 1f);
            float[] expected = new float[SIDE_ROWS * LIN];
            ScalarKernelProvider.sideBySide(table, 0, LIN, SIDE_ROWS, 0, g, expected, 0, LIN);
            float[] all = new float[SIDE_ROWS * LIN + 2 * GUARD];
            System.arraycopy(expected, 0, all, GUARD, expected.length);
            assertArrayEquals(all, v.outAllFloats());
        }
    }

    @Test
    void sideBySideMemoryNotHeldIsRefused() {
        try (Arena arena = Arena.ofShared()) {
            Views v = sideBySideViews(arena);
            assertThrows(IllegalStateException.class, () -> callSideBySide(v, 0, SIDE_ROWS, v.out(), 0, LIN));
            assertArrayEquals(new float[SIDE_ROWS * LIN + 2 * GUARD], v.outAllFloats());
        }
    }

    @Test
    void sideBySideOutRowsReachingPastOutAreRefusedBeforeAnyWrite() {
        try (Arena arena = Arena.ofShared(); PinnedScopes.Hold hold = PinnedScopes.hold(arena.scope())) {
            Views v = sideBySideViews(arena);
            assertThrows(IndexOutOfBoundsException.class, () -> callSideBySide(v, 0, SIDE_ROWS, v.out(), 1, LIN));
            assertThrows(IndexOutOfBoundsException.class, () -> callSideBySide(v, 0, SIDE_ROWS, v.out(), -1, LIN));
            assertThrows(IndexOutOfBoundsException.class, () -> callSideBySide(v, 0, SIDE_ROWS, v.out(), 0, LIN + 1));
            assertArrayEquals(new float[SIDE_ROWS * LIN + 2 * GUARD], v.outAllFloats());
        }
    }

    @Test
    void sideBySideGradOutPositionsReachingPastGradOutAreRefused() {
        try (Arena arena = Arena.ofShared(); PinnedScopes.Hold hold = PinnedScopes.hold(arena.scope())) {
            Views v = sideBySideViews(arena);
            assertThrows(IndexOutOfBoundsException.class, () -> callSideBySide(v, 1, SIDE_ROWS, v.out(), 0, LIN));
            assertThrows(IndexOutOfBoundsException.class, () -> callSideBySide(v, -1, SIDE_ROWS, v.out(), 0, LIN));
            assertThrows(IndexOutOfBoundsException.class, () -> callSideBySide(v, 0, SIDE_ROWS + 1, v.out(), 0, LIN));
            assertArrayEquals(new float[SIDE_ROWS * LIN + 2 * GUARD], v.outAllFloats());
        }
    }

    @Test
    void sideBySideReadOnlyOutAndNegativeStridesAreRefused() {
        try (Arena arena = Arena.ofShared(); PinnedScopes.Hold hold = PinnedScopes.hold(arena.scope())) {
            Views v = sideBySideViews(arena);
            MemorySegment readOnly = v.out().asReadOnly();
            assertThrows(IllegalArgumentException.class, () -> callSideBySide(v, 0, SIDE_ROWS, readOnly, 0, LIN));
            assertThrows(IllegalArgumentException.class,
                    () -> callSideBySide(v, (span - 1L) * SIDE_ROWS, -SIDE_ROWS, v.out(), 0, LIN));
            assertThrows(IllegalArgumentException.class,
                    () -> callSideBySide(v, 0, SIDE_ROWS, v.out(), (SIDE_ROWS - 1L) * LIN, -LIN));
            assertArrayEquals(new float[SIDE_ROWS * LIN + 2 * GUARD], v.outAllFloats());
        }
    }
}
