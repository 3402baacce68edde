package io.opscv.gradcheck;

import io.opscv.op.UpsampleBilinear2d;
import io.opscv.op.UpsampleBilinear2dBackwardV2;
import io.opscv.op.UpsampleLinear1d;
import io.opscv.op.UpsampleLinear1dBackward;
import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.runtime.AclRuntime;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Device;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Format;
import io.opscv.runtime.IntArray;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;

/**
 * The adjoint check of a forward/backward pair: a backward B is the gradient of its forward F
 * exactly when {@code ⟨F(x), g⟩ = ⟨x, B(g)⟩} for all x and g. This class verifies it on random x and
 * g in double precision for the two pairs (aclnnUpsampleLinear1d / aclnnUpsampleLinear1dBackward
 * and aclnnUpsampleBilinear2d / aclnnUpsampleBilinear2dBackwardV2), on any platform's plans.
 *
 * <h2>How</h2>
 * F and B are the operators themselves, run through both phases in FLOAT. Both are linear, so
 * running them on the unit vectors yields their matrices, and exactly: each output is then one
 * weight (or the float sum of the two weights that meet at an edge), which FLOAT holds without
 * error. The unit vectors are fed as one tensor whose planes are e_0, e_1, ... — a view with
 * overlapping strides over a buffer with a single 1, so the probe costs no memory. With the two
 * matrices, {@code ⟨F x, g⟩} and {@code ⟨x, B g⟩} are computed for random x, g in [-1, 1) with
 * compensated double sums; their relative difference is what the check reports (SPEC: ≤ 1e-12).
 *
 * <p>The cost is one operator call per matrix with (number of probes) × (probe size) elements:
 * Lin² and Lout² in 1-D, (Hin·Win)² and (Hout·Wout)² in 2-D, at most {@link #MAX_PROBE_ELEMENTS};
 * two matrices of Lin·Lout (Hin·Win·Hout·Wout) floats on the heap, at most {@link #MAX_MATRIX_ENTRIES};
 * and N·C passes over them, N·C·Lin·Lout (N·C·Hin·Win·Hout·Wout) at most {@link #MAX_PRODUCTS}.
 * Larger sizes are refused with {@link IllegalArgumentException} before anything is allocated.
 */
public final class AdjointCheck {
    /** The tolerance of the issue: relative difference ≤ 1e-12. */
    public static final double TOLERANCE = 1e-12;
    /** The largest probe batch (probes × probe elements) a check builds: 2^27 elements. */
    public static final long MAX_PROBE_ELEMENTS = 1L << 27;
    /** The largest matrix (input elements × output elements of a plane): 2^25 floats, 128 MiB. */
    public static final long MAX_MATRIX_ENTRIES = 1L << 25;
    /** The most matrix entries the comparison visits (N·C · matrix entries): 2^30, a few seconds. */
    public static final long MAX_PRODUCTS = 1L << 30;

    private AdjointCheck() {}

    /**
     * The outcome of a check.
     *
     * @param forwardDot  ⟨F(x), g⟩
     * @param backwardDot ⟨x, B(g)⟩
     * @param relativeDifference |forwardDot − backwardDot| / max(|forwardDot|, |backwardDot|) (0 when both are 0)
     * @param maxEntryDifference the largest |M_F[j][i] − M_B[i][j]| between the two matrices
     */
    public record Result(double forwardDot, double backwardDot, double relativeDifference, double maxEntryDifference) {
        /** Whether the relative difference is within {@link #TOLERANCE}. */
        public boolean passes() {
            return relativeDifference <= TOLERANCE;
        }
    }

    /**
     * aclnnUpsampleLinear1d and aclnnUpsampleLinear1dBackward on {@code platform}, for x of shape
     * (n, c, lin) and g of shape (n, c, lout).
     */
    public static Result linear1d(Platform platform, int n, int c, int lin, int lout, boolean alignCorners, double scales,
                                  long seed) {
        requireSizes(n, c, lin, lout);
        checkWork(n, c, lin, lout);
        try (AclRuntime acl = AclRuntime.init(platform);
             Device device = acl.setDevice(0);
             Stream stream = device.createStream()) {
            // Forward matrix: probe row a is e_(lin-1-a); out row a is F of it: column lin-1-a of M_F (lout x lin).
            float[] forward = new float[lin * lout];
            try (Probe probe = Probe.oneHot1d(device, lin);
                 Matrix result = Matrix.allocate(device, new long[] {lin, 1, lout});
                 IntArray outputSize = IntArray.of(lout)) {
                WorkspaceAndExecutor p = UpsampleLinear1d.getWorkspaceSize(platform, probe.tensor, outputSize, alignCorners,
                        scales, result.tensor);
                run(device, stream, p, UpsampleLinear1d::run);
                MemorySegment values = result.memory.segment();
                for (int a = 0; a < lin; a++) {
                    int i = lin - 1 - a;
                    for (int j = 0; j < lout; j++) {
                        forward[j * lin + i] = values.getAtIndex(ValueLayout.JAVA_FLOAT, (long) a * lout + j);
                    }
                }
            }
            // Backward matrix: probe row a is e_(lout-1-a); out row a is B of it: column lout-1-a of M_B (lin x lout).
            float[] backward = new float[lin * lout];
            try (Probe probe = Probe.oneHot1d(device, lout);
                 Matrix result = Matrix.allocate(device, new long[] {lout, 1, lin});
                 IntArray outputSize = IntArray.of(lout);
                 IntArray inputSize = IntArray.of(lout, 1, lin)) {
                WorkspaceAndExecutor p = UpsampleLinear1dBackward.getWorkspaceSize(platform, probe.tensor, outputSize,
                        inputSize, alignCorners, scales, result.tensor);
                run(device, stream, p, UpsampleLinear1dBackward::run);
                MemorySegment values = result.memory.segment();
                for (int a = 0; a < lout; a++) {
                    int j = lout - 1 - a;
                    for (int i = 0; i < lin; i++) {
                        backward[i * lout + j] = values.getAtIndex(ValueLayout.JAVA_FLOAT, (long) a * lin + i);
                    }
                }
            }
            return compare(forward, backward, (long) n * c, lin, lout, seed);
        }
    }

    /**
     * aclnnUpsampleBilinear2d and aclnnUpsampleBilinear2dBackwardV2 on {@code platform} (NCHW), for x
     * of shape (n, c, hin, win) and g of shape (n, c, hout, wout).
     */
    public static Result bilinear2d(Platform platform, int n, int c, int hin, int win, int hout, int wout,
                                    boolean alignCorners, double scalesH, double scalesW, long seed) {
        requireSizes(n, c, hin, win);
        requireSizes(1, 1, hout, wout);
        checkWork(n, c, (long) hin * win, (long) hout * wout);
        int in = hin * win;
        int out = hout * wout;
        try (AclRuntime acl = AclRuntime.init(platform);
             Device device = acl.setDevice(0);
             Stream stream = device.createStream()) {
            float[] forward = new float[Math.multiplyExact(in, out)];
            try (Probe probe = Probe.oneHot2d(device, hin, win);
                 Matrix result = Matrix.allocate(device, new long[] {hin, win, hout, wout});
                 IntArray outputSize = IntArray.of(hout, wout)) {
                WorkspaceAndExecutor p = UpsampleBilinear2d.getWorkspaceSize(platform, probe.tensor, outputSize, alignCorners,
                        scalesH, scalesW, result.tensor);
                run(device, stream, p, UpsampleBilinear2d::run);
                MemorySegment values = result.memory.segment();
                for (int a = 0; a < in; a++) {
                    // Plane (a / win, a % win) is one-hot at (hin-1-a/win, win-1-a%win).
                    int i = (hin - 1 - a / win) * win + (win - 1 - a % win);
                    for (int j = 0; j < out; j++) {
                        forward[j * in + i] = values.getAtIndex(ValueLayout.JAVA_FLOAT, (long) a * out + j);
                    }
                }
            }
            float[] backward = new float[Math.multiplyExact(in, out)];
            try (Probe probe = Probe.oneHot2d(device, hout, wout);
                 Matrix result = Matrix.allocate(device, new long[] {hout, wout, hin, win});
                 IntArray outputSize = IntArray.of(hout, wout);
                 IntArray inputSize = IntArray.of(hout, wout, hin, win)) {
                WorkspaceAndExecutor p = UpsampleBilinear2dBackwardV2.getWorkspaceSize(platform, probe.tensor, outputSize,
                        inputSize, alignCorners, scalesH, scalesW, result.tensor);
                run(device, stream, p, UpsampleBilinear2dBackwardV2::run);
                MemorySegment values = result.memory.segment();
                for (int a = 0; a < out; a++) {
                    int j = (hout - 1 - a / wout) * wout + (wout - 1 - a % wout);
                    for (int i = 0; i < in; i++) {
                        backward[i * out + j] = values.getAtIndex(ValueLayout.JAVA_FLOAT, (long) a * in + i);
                    }
                }
            }
            return compare(forward, backward, (long) n * c, in, out, seed);
        }
    }

    /**
     * ⟨F x, g⟩ and ⟨x, B g⟩ over {@code rows} random rows; {@code forward} is M_F (out × in, row-major),
     * {@code backward} is M_B (in × out).
     */
    static Result compare(float[] forward, float[] backward, long rows, int in, int out, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] x = new double[in];
        double[] g = new double[out];
        Sum forwardDot = new Sum();
        Sum backwardDot = new Sum();
        for (long r = 0; r < rows; r++) {
            for (int i = 0; i < in; i++) {
                x[i] = random.nextDouble(-1, 1);
            }
            for (int j = 0; j < out; j++) {
                g[j] = random.nextDouble(-1, 1);
            }
            for (int j = 0; j < out; j++) {
                for (int i = 0; i < in; i++) {
                    float w = forward[j * in + i];
                    if (w != 0) {
                        forwardDot.add(w * x[i] * g[j]);
                    }
                }
            }
            for (int i = 0; i < in; i++) {
                for (int j = 0; j < out; j++) {
                    float w = backward[i * out + j];
                    if (w != 0) {
                        backwardDot.add(x[i] * (w * g[j]));
                    }
                }
            }
        }
        double maxEntry = 0;
        for (int j = 0; j < out; j++) {
            for (int i = 0; i < in; i++) {
                maxEntry = Math.max(maxEntry, Math.abs((double) forward[j * in + i] - backward[i * out + j]));
            }
        }
        double a = forwardDot.value();
        double b = backwardDot.value();
        double scale = Math.max(Math.abs(a), Math.abs(b));
        double relative = scale == 0 ? Math.abs(a - b) : Math.abs(a - b) / scale;
        return new Result(a, b, relative, maxEntry);
    }

    /** Neumaier's compensated sum: the dot products stay accurate far below 1e-12 for any size here. */
    static final class Sum {
        private double sum;
        private double compensation;

        void add(double v) {
            double t = sum + v;
            compensation += Math.abs(sum) >= Math.abs(v) ? (sum - t) + v : (v - t) + sum;
            sum = t;
        }

        double value() {
            return sum + compensation;
        }
    }

    private interface Phase2 {
        void run(DeviceMemory workspace, long workspaceSize, io.opscv.plan.Executor executor, Stream stream);
    }

    private static void run(Device device, Stream stream, WorkspaceAndExecutor p, Phase2 call) {
        try (DeviceMemory workspace = p.workspaceSize() > 0 ? device.malloc(p.workspaceSize()) : null) {
            call.run(workspace, p.workspaceSize(), p.executor(), stream);
            stream.synchronize();
        }
    }

    private static void requireSizes(long n, long c, long a, long b) {
        if (n <= 0 || c <= 0 || a <= 0 || b <= 0) {
            throw new IllegalArgumentException("gradcheck needs positive sizes, but got N=" + n + ", C=" + c + ", " + a
                    + " and " + b);
        }
    }

    /**
     * Refuses sizes whose probes, matrices or comparison exceed the limits (the class comment), with
     * saturating arithmetic: a product too large for a long is over every limit.
     */
    private static void checkWork(long n, long c, long in, long out) {
        long largest = Math.max(times(in, in), times(out, out));
        if (largest > MAX_PROBE_ELEMENTS) {
            throw new IllegalArgumentException("gradcheck builds the operators' matrices from unit vectors: a probe batch of "
                    + show(largest) + " elements exceeds the limit of " + MAX_PROBE_ELEMENTS + " (2^27); choose smaller sizes");
        }
        long matrix = times(in, out);
        if (matrix > MAX_MATRIX_ENTRIES) {
            throw new IllegalArgumentException("gradcheck's matrices would have " + show(matrix) + " entries (input elements "
                    + in + " x output elements " + out + "), more than the limit of " + MAX_MATRIX_ENTRIES
                    + " (2^25); choose smaller sizes");
        }
        long products = times(times(n, c), matrix);
        if (products > MAX_PRODUCTS) {
            throw new IllegalArgumentException("gradcheck would visit " + show(products) + " matrix entries (N*C = "
                    + show(times(n, c)) + " times " + matrix + "), more than the limit of " + MAX_PRODUCTS
                    + " (2^30); choose a smaller N or C");
        }
    }

    private static long times(long a, long b) {
        long high = Math.multiplyHigh(a, b);
        long low = a * b;
        return high != 0 || low < 0 ? Long.MAX_VALUE : low;
    }

    private static String show(long value) {
        return value == Long.MAX_VALUE ? "more than 2^63" : Long.toString(value);
    }

    /** The unit vectors e_(k-1), ..., e_0 as the planes of one tensor: overlapping strides over a single 1. */
    private static final class Probe implements AutoCloseable {
        final DeviceMemory memory;
        final Tensor tensor;

        private Probe(DeviceMemory memory, Tensor tensor) {
            this.memory = memory;
            this.tensor = tensor;
        }

        /** (k, 1, k): row a is 1 at k-1-a. */
        static Probe oneHot1d(Device device, int k) {
            long length = 2L * k - 1;
            DeviceMemory memory = device.malloc(length * Float.BYTES);
            memory.segment().setAtIndex(ValueLayout.JAVA_FLOAT, k - 1, 1f);
            Tensor t = Tensor.create(new long[] {k, 1, k}, DataType.FLOAT, new long[] {1, 1, 1}, 0, Format.ND,
                    new long[] {length}, memory);
            return new Probe(memory, t);
        }

        /** (h, w, h, w): plane (a, b) is 1 at (h-1-a, w-1-b). */
        static Probe oneHot2d(Device device, int h, int w) {
            long rowStride = 2L * w - 1;
            long length = (2L * h - 1) * rowStride;
            DeviceMemory memory = device.malloc(length * Float.BYTES);
            memory.segment().setAtIndex(ValueLayout.JAVA_FLOAT, (h - 1) * rowStride + (w - 1), 1f);
            Tensor t = Tensor.create(new long[] {h, w, h, w}, DataType.FLOAT, new long[] {rowStride, 1, rowStride, 1}, 0,
                    Format.NCHW, new long[] {length}, memory);
            return new Probe(memory, t);
        }

        @Override
        public void close() {
            tensor.close();
            memory.close();
        }
    }

    /** The contiguous FLOAT tensor an operator writes the matrix into, a column per probe. */
    private static final class Matrix implements AutoCloseable {
        final DeviceMemory memory;
        final Tensor tensor;

        private Matrix(DeviceMemory memory, Tensor tensor) {
            this.memory = memory;
            this.tensor = tensor;
        }

        static Matrix allocate(Device device, long[] shape) {
            long numel = 1;
            for (long d : shape) {
                numel = Math.multiplyExact(numel, d);
            }
            DeviceMemory memory = device.malloc(Math.multiplyExact(numel, (long) Float.BYTES));
            Format format = shape.length == 4 ? Format.NCHW : Format.ND;
            return new Matrix(memory, Tensor.create(shape, DataType.FLOAT, format, memory));
        }

        @Override
        public void close() {
            tensor.close();
            memory.close();
        }
    }
}
