package io.opscv.kernel;

import io.opscv.runtime.DataType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Random;

/**
 * One kernel input for the provider and threading tests: a shape, the coordinate arguments, a
 * dtype, a memory layout for gradOut and out, and gradOut values (random, with NaN, ±Inf, -0 and
 * magnitudes at the ends of the 16-bit ranges sprinkled in when {@code nonFinite}).
 */
record KernelCase(String name, int n, int c, int lin, int lout, boolean alignCorners, double scales, DataType dtype,
                  Layout layout, boolean nonFinite) {

    /** How gradOut and out are laid out in memory. */
    enum Layout {
        /** Both contiguous. */
        CONTIGUOUS,
        /** gradOut is the (N, L, C) storage seen as (N, C, L): L has the largest stride. */
        TRANSPOSED_GRAD_OUT,
        /** gradOut reads every other element at an offset; out rows are padded. */
        STRIDED,
        /** gradOut contiguous; out rows padded (a pitch wider than a row: a view of a wider tensor). */
        PADDED_OUT,
        /** gradOut channels-last with a gap between batches; out rows padded. */
        TRANSPOSED_PADDED,
        /** N strides are not C times the C strides (row groups must not straddle two n). */
        UNEVEN_BATCH,
        /** Both channels-last: the (N, L, C) storages seen as (N, C, L). */
        CHANNELS_LAST
    }

    KernelCase with(DataType type) {
        return new KernelCase(name, n, c, lin, lout, alignCorners, scales, type, layout, nonFinite);
    }

    KernelCase with(Layout l) {
        return new KernelCase(name, n, c, lin, lout, alignCorners, scales, dtype, l, nonFinite);
    }

    KernelCase withNonFinite() {
        return new KernelCase(name, n, c, lin, lout, alignCorners, scales, dtype, layout, true);
    }

    LinearTable table() {
        return LinearTable.of(lin, lout, alignCorners, scales);
    }

    @Override
    public String toString() {
        return name + " " + dtype + " " + layout + (nonFinite ? " nonfinite" : "") + " (" + n + "," + c + "," + lin
                + "->" + lout + ", ac=" + alignCorners + ", scales=" + scales + ")";
    }

    /** gradOut filled with this case's values, in {@code arena}. */
    StridedTensor gradOut(Arena arena) {
        long[] shape = {n, c, lout};
        long[] strides;
        long offset = 0;
        long elements;
        switch (layout) {
            case TRANSPOSED_GRAD_OUT, CHANNELS_LAST -> {
                strides = new long[] {(long) lout * c, 1, c};
                elements = (long) n * c * lout;
            }
            case TRANSPOSED_PADDED -> {
                offset = 2;
                strides = new long[] {(long) lout * c + 3, 1, c};
                elements = offset + (long) n * ((long) lout * c + 3);
            }
            case STRIDED -> {
                offset = 3;
                strides = new long[] {2L * c * lout, 2L * lout, 2};
                elements = offset + 2L * n * c * lout;
            }
            case UNEVEN_BATCH -> {
                offset = 1;
                strides = new long[] {(long) c * lout + 7, lout, 1};
                elements = offset + (long) n * ((long) c * lout + 7);
            }
            default -> {
                strides = new long[] {(long) c * lout, lout, 1};
                elements = (long) n * c * lout;
            }
        }
        MemorySegment seg = arena.allocate(Math.max(1, elements) * dtype.byteSize(), 8);
        StridedTensor t = new StridedTensor(seg, offset, shape, strides, dtype);
        Random random = new Random(name.hashCode() * 31L + dtype.ordinal());
        float[] row = new float[lout];
        for (int ni = 0; ni < n; ni++) {
            for (int ci = 0; ci < c; ci++) {
                for (int j = 0; j < lout; j++) {
                    row[j] = value(random);
                }
                ElementCodec.encode(row, 0, lout, seg, dtype, offset + ni * strides[0] + ci * strides[1], strides[2]);
            }
        }
        return t;
    }

    private float value(Random random) {
        if (nonFinite) {
            int pick = random.nextInt(40);
            switch (pick) {
                case 0 -> {
                    return Float.NaN;
                }
                case 1 -> {
                    return Float.POSITIVE_INFINITY;
                }
                case 2 -> {
                    return Float.NEGATIVE_INFINITY;
                }
                case 3 -> {
                    return -0f;
                }
                // Magnitudes at the ends of the 16-bit ranges: FP16 subnormals (and sums that round to them),
                // sums that overflow FP16 to infinity, and FLOAT subnormals.
                case 4 -> {
                    return (float) (random.nextGaussian() * 1e-6);
                }
                case 5 -> {
                    return (float) (random.nextGaussian() * 4e4);
                }
                case 6 -> {
                    return (float) (random.nextGaussian() * 1e-40);
                }
                default -> {
                    // fall through to a finite value
                }
            }
        }
        return (float) (random.nextGaussian() * 4);
    }

    /** out of this case's layout, filled with a marker that every element must overwrite. */
    StridedTensor out(Arena arena) {
        long[] shape = {n, c, lin};
        long[] strides;
        long offset = 0;
        long elements;
        switch (layout) {
            case STRIDED, PADDED_OUT, TRANSPOSED_PADDED -> {
                offset = 5;
                strides = new long[] {(long) c * (lin + 3), lin + 3, 1};
                elements = offset + (long) n * c * (lin + 3);
            }
            case UNEVEN_BATCH -> {
                strides = new long[] {(long) c * lin + 2, lin, 1};
                elements = (long) n * ((long) c * lin + 2);
            }
            case CHANNELS_LAST -> {
                strides = new long[] {(long) c * lin, 1, c};
                elements = (long) n * c * lin;
            }
            default -> {
                strides = new long[] {(long) c * lin, lin, 1};
                elements = (long) n * c * lin;
            }
        }
        // GUARD elements after the last one: a kernel that wrote past the view would land there.
        MemorySegment seg = arena.allocate((Math.max(1, elements) + GUARD) * dtype.byteSize(), 8);
        seg.fill(MARKER);
        return new StridedTensor(seg, offset, shape, strides, dtype);
    }

    /** Elements after out's storage, filled with {@link #MARKER} like the gaps of its layout. */
    static final int GUARD = 64;
    /** The byte out's segment is filled with before a kernel runs. */
    static final byte MARKER = 0x7d;

    /**
     * Where a kernel wrote outside out's view (row gaps, the offset, the guard after the storage):
     * the first such byte's index, or -1 when every byte outside the view still holds {@link #MARKER}.
     */
    static long firstWriteOutside(StridedTensor out) {
        int size = out.dataType().byteSize();
        long elements = out.segment().byteSize() / size;
        boolean[] inView = new boolean[Math.toIntExact(elements)];
        long[] shape = out.shape();
        long[] strides = out.strides();
        for (long a = 0; a < shape[0]; a++) {
            for (long b = 0; b < shape[1]; b++) {
                for (long i = 0; i < shape[2]; i++) {
                    inView[Math.toIntExact(out.offset() + a * strides[0] + b * strides[1] + i * strides[2])] = true;
                }
            }
        }
        for (long e = 0; e < elements; e++) {
            if (!inView[(int) e]) {
                for (int k = 0; k < size; k++) {
                    if (out.segment().get(java.lang.foreign.ValueLayout.JAVA_BYTE, e * size + k) != MARKER) {
                        return e * size + k;
                    }
                }
            }
        }
        return -1;
    }

    /** out's elements as raw bits, row-major (N, C, Lin): what bit-identity is judged on. */
    static int[] bits(StridedTensor t) {
        long[] shape = t.shape();
        long[] st = t.strides();
        int count = Math.toIntExact(shape[0] * shape[1] * shape[2]);
        int[] bits = new int[count];
        int k = 0;
        for (long ni = 0; ni < shape[0]; ni++) {
            for (long ci = 0; ci < shape[1]; ci++) {
                for (long i = 0; i < shape[2]; i++) {
                    long e = t.offset() + ni * st[0] + ci * st[1] + i * st[2];
                    bits[k++] = t.dataType() == DataType.FLOAT
                            ? canonical(Float.floatToRawIntBits(t.segment().get(ElementCodec.F32, e * 4)), t.dataType())
                            : canonical(t.segment().get(ElementCodec.U16, e * 2) & 0xffff, t.dataType());
                }
            }
        }
        return bits;
    }

    /**
     * The bits of one element with every NaN made the same: IEEE 754 and Java leave the sign and
     * payload of a NaN result unspecified (x86 returns the first operand's NaN, and the JIT may
     * swap the operands of a commutative add), so bit-identity is judged with all NaNs equal.
     */
    static int canonical(int bits, DataType type) {
        return switch (type) {
            case FLOAT -> (bits & 0x7fffffff) > 0x7f800000 ? 0x7fc00000 : bits;
            case FLOAT16 -> (bits & 0x7fff) > 0x7c00 ? 0x7e00 : bits;
            default -> (bits & 0x7fff) > 0x7f80 ? 0x7fc0 : bits;
        };
    }

    /**
     * Asserts {@code actual[0, count)} holds the same floats bit for bit as {@code expected[from, from + count)},
     * NaN payloads aside ({@link #canonical}).
     */
    static void assertSameFloats(float[] expected, int from, float[] actual, int count, String label) {
        for (int k = 0; k < count; k++) {
            org.junit.jupiter.api.Assertions.assertEquals(
                    canonical(Float.floatToRawIntBits(expected[from + k]), DataType.FLOAT),
                    canonical(Float.floatToRawIntBits(actual[k]), DataType.FLOAT), label + " at " + (from + k));
        }
    }

    /**
     * The reference the kernels must match bit for bit: the scatter form, as PyTorch's
     * {@code upsample_linear1d_backward} loop is written — for each j in ascending order, add
     * {@code w0·g} to the left tap, then {@code w1·g} to the right tap, into float sums that start at
     * 0f, and round once to the dtype. Written independently of the gather kernels.
     */
    static int[] scatterReference(KernelCase kc, StridedTensor gradOut, LinearTable table) {
        int lin = table.lin();
        int lout = table.lout();
        float[] g = new float[lout];
        float[] acc = new float[lin];
        int[] bits = new int[Math.toIntExact((long) kc.n * kc.c * lin)];
        long[] gs = gradOut.strides();
        int k = 0;
        for (int ni = 0; ni < kc.n; ni++) {
            for (int ci = 0; ci < kc.c; ci++) {
                for (int j = 0; j < lout; j++) {
                    long e = gradOut.offset() + ni * gs[0] + ci * gs[1] + j * gs[2];
                    g[j] = switch (kc.dtype) {
                        case FLOAT -> gradOut.segment().get(ElementCodec.F32, e * 4);
                        case FLOAT16 -> Float.float16ToFloat(gradOut.segment().get(ElementCodec.U16, e * 2));
                        default -> Float.intBitsToFloat((gradOut.segment().get(ElementCodec.U16, e * 2) & 0xffff) << 16);
                    };
                }
                java.util.Arrays.fill(acc, 0f);
                for (int j = 0; j < lout; j++) {
                    int left = table.x0(j);
                    int right = table.x1(j);
                    acc[left] += table.w0(j) * g[j];
                    acc[right] += table.w1(j) * g[j];
                }
                for (int i = 0; i < lin; i++) {
                    bits[k++] = canonical(switch (kc.dtype) {
                        case FLOAT -> Float.floatToRawIntBits(acc[i]);
                        case FLOAT16 -> Float.floatToFloat16(acc[i]) & 0xffff;
                        default -> ElementCodec.floatToBf16(acc[i]) & 0xffff;
                    }, kc.dtype);
                }
            }
        }
        return bits;
    }
}
