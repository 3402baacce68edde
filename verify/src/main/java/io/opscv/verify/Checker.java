package io.opscv.verify;

import io.opscv.npy.NpyFormatException;
import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.runtime.AclRuntime;
import io.opscv.runtime.AclnnException;
import io.opscv.runtime.AclnnStatus;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Device;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs cases and judges them. For each case: the input (a file, or values drawn with the case's seed and
 * rounded to its dtype); the golden (the case's expected file, else the float64 reference); the result
 * (the case's {@code actual} file, else the operator run through both phases on the case's platform);
 * then {@link Judgement}. A case that expects a status runs phase 1 only.
 *
 * <p>A case that expects a status is {@link Verdict#REFUSED} when phase 1 fails with it. As a product (SPEC §6,
 * {@link PlatformRules}): a case the product refuses by SPEC §6 is {@link Verdict#REFUSED}
 * when phase 1 fails with 161002, and fails when phase 1 accepts it; a result of a plan that takes the sizes only
 * (the fallback) is judged against the sizes-only reference, since that plan ignores a given scales.
 *
 * <p>Cases run one after another, each with its own input and output memory, so results do not depend
 * on the order or on threads.
 */
public final class Checker {
    /** Written to every output element before phase 2, so that an element the operator misses shows. */
    static final double OUT_SENTINEL = -7777.0;

    private Checker() {}

    /**
     * Checks {@code cases}.
     *
     * @param source           the case file's name, for the report
     * @param platformOverride when not {@code null}, every case runs as this platform
     * @param progress         receives one line per case, e.g. {@code [  3/21] bwd_up3x_f16 PASS}
     */
    public static CheckRun check(String source, List<CheckCase> cases, Platform platformOverride, Consumer<String> progress) {
        List<CaseResult> results = new ArrayList<>(cases.size());
        String width = Integer.toString(Integer.toString(cases.size()).length());
        try (Sessions sessions = new Sessions()) {
            for (int i = 0; i < cases.size(); i++) {
                CheckCase c = platformOverride != null ? cases.get(i).onPlatform(platformOverride) : cases.get(i);
                CaseResult result = checkOne(c, sessions);
                results.add(result);
                progress.accept(String.format("[%" + width + "d/%d] %s %s%s", i + 1, cases.size(), c.name(), result.verdict(),
                        result.verdict() == Verdict.PASS || result.message().isEmpty() ? "" : ": " + result.message()));
            }
        }
        return new CheckRun(source, platformOverride, results);
    }

    /** Checks one case with a fresh runtime (for tests and single runs). */
    public static CaseResult checkOne(CheckCase c) {
        try (Sessions sessions = new Sessions()) {
            return checkOne(c, sessions);
        }
    }

    private static CaseResult checkOne(CheckCase c, Sessions sessions) {
        OperatorAdapter adapter = OperatorAdapters.find(c.op());
        if (adapter == null) {
            return CaseResult.unjudged(c, Verdict.SKIP, "", "aclnn" + c.op() + " is not an operator of this project (it has "
                    + OperatorAdapters.all().stream().map(OperatorAdapter::aclnnName).collect(java.util.stream.Collectors.joining(", "))
                    + ")");
        }
        Platform platform = c.platform() != null ? c.platform() : Platform.defaultPlatform();
        if (c.actual() == null && !adapter.hasOperator()) {
            return CaseResult.unjudged(c, Verdict.SKIP, "", adapter.aclnnName() + " is not in this build; give an 'actual' "
                    + "file to judge a result produced elsewhere");
        }
        try {
            if (c.expectStatus() != null) {
                return checkStatus(c, adapter, platform, sessions);
            }
            return checkValues(c, adapter, platform, sessions);
        } catch (AclnnException e) {
            sessions.discard(platform);
            return CaseResult.unjudged(c, Verdict.FAIL, "operator", oneLine(e.toString()));
        } catch (NpyFormatException e) {
            return CaseResult.unjudged(c, Verdict.ERROR, "", oneLine(e.getMessage()));
        } catch (IOException | RuntimeException e) {
            sessions.discard(platform);
            return CaseResult.unjudged(c, Verdict.ERROR, "", oneLine(e.toString()));
        }
    }

    private static CaseResult checkValues(CheckCase c, OperatorAdapter adapter, Platform platform, Sessions sessions)
            throws IOException {
        long[] inShape = adapter.inputShape(c);
        long[] outShape = adapter.outputShape(c);
        DataType type = c.dataType();
        // Shared: the operator reads the input on the stream's and the pool's threads (wrapped, not copied).
        try (Arena arena = Arena.ofShared()) {
            MemorySegment inputBytes = CaseData.input(c, inShape, arena);
            double[] input = CaseData.decode(inputBytes, type, Math.toIntExact(CaseData.numel(inShape)));
            boolean allOnes = CaseData.allOnes(input);
            if (c.actual() != null) {
                double[] got = CaseData.actual(c.actual(), type, outShape);
                Golden golden = Golden.of(c, adapter, input, false, outShape);
                return Judgement.judge(c, "actual", golden.name, got, golden.expected, golden.bound, golden.terms, allOnes, -1);
            }
            Session session = sessions.get(platform);
            try (DeviceMemory inMemory = inShapeIsEmpty(inShape) ? null : session.device.wrap(inputBytes);
                 Tensor in = Tensor.create(inShape, type, null, 0, c.layout(), inShape, inMemory);
                 DeviceMemory outMemory = inShapeIsEmpty(outShape) ? null
                         : session.device.malloc(CaseData.numel(outShape) * type.byteSize());
                 Tensor out = Tensor.create(outShape, type, null, 0, c.layout(), outShape, outMemory)) {
                int outCount = Math.toIntExact(CaseData.numel(outShape));
                if (outMemory != null) {
                    double[] sentinel = new double[outCount];
                    java.util.Arrays.fill(sentinel, OUT_SENTINEL);
                    CaseData.encode(sentinel, type, outMemory.segment());
                }
                String refusal = PlatformRules.refusal(platform, c);
                WorkspaceAndExecutor phase1;
                try {
                    phase1 = adapter.getWorkspaceSize(platform, c, in, out);
                } catch (AclnnException e) {
                    if (refusal != null && e.status() == AclnnStatus.ERR_PARAM_INVALID) {
                        return CaseResult.unjudged(c, Verdict.REFUSED, "status", refusal + ": " + oneLine(e.toString()));
                    }
                    throw e;
                }
                if (refusal != null) {
                    return CaseResult.unjudged(c, Verdict.FAIL, "status", "phase 1 succeeded, but " + refusal
                            + " (phase 1 must fail with 161002)");
                }
                boolean sizesOnly = PlatformRules.sizesOnlyPlan(platform, phase1.executor());
                try (DeviceMemory workspace = phase1.workspaceSize() > 0 ? session.device.malloc(phase1.workspaceSize()) : null) {
                    adapter.run(workspace, phase1.workspaceSize(), phase1.executor(), session.stream);
                    session.stream.synchronize();
                }
                double[] got = outMemory == null ? new double[0] : CaseData.decode(outMemory.segment(), type, outCount);
                Golden golden = Golden.of(c, adapter, input, sizesOnly, outShape);
                CaseResult result = Judgement.judge(c, "operator", golden.name, got, golden.expected, golden.bound, golden.terms,
                        allOnes, phase1.workspaceSize());
                if (sizesOnly) {
                    // Say whether the fallback's result is also SPEC §1's with the given scales: where it is not, the
                    // difference is the one SPEC §6 describes (a scales other than out / in, or NaN/Inf placement).
                    Golden withScales = Golden.of(c, adapter, input, false, outShape);
                    CaseResult spec1 = Judgement.judge(c, "operator", withScales.name, got, withScales.expected, withScales.bound,
                            withScales.terms, allOnes, phase1.workspaceSize());
                    result = result.withScales(spec1.verdict(), "the plan takes the sizes only (SPEC §6); against the " + withScales.name
                            + " with the given scales: " + (spec1.verdict() == Verdict.PASS ? "also within the standard"
                            : "differs, error ratio " + SummaryTable.ratio(spec1.maxErrorRatio())));
                }
                return result;
            }
        }
    }

    /**
     * What a result is judged against: the case's expected file, else the float64 reference; for a plan that takes
     * the sizes only (SPEC §6's fallback) the sizes-only reference, since the expected file and the reference
     * assume the given scales. Bound and terms come from the same source.
     */
    private record Golden(String name, double[] expected, double[] bound, int terms) {
        static Golden of(CheckCase c, OperatorAdapter adapter, double[] input, boolean sizesOnly, long[] outShape)
                throws IOException {
            if (sizesOnly) {
                return new Golden(CaseResult.SIZES_ONLY_GOLDEN, adapter.sizesOnlyReference(c, input),
                        adapter.sizesOnlyReference(c, CaseData.abs(input)), adapter.sizesOnlyTerms(c));
            }
            double[] expected = c.expected() != null ? CaseData.float64(c.expected(), "expected", outShape) : adapter.reference(c, input);
            double[] bound = c.bound() != null ? CaseData.float64(c.bound(), "bound", outShape)
                    : adapter.reference(c, CaseData.abs(input));
            int terms = c.terms() != null ? c.terms() : adapter.terms(c);
            return new Golden(c.expected() != null ? "expected file" : "float64 reference", expected, bound, terms);
        }
    }

    private static CaseResult checkStatus(CheckCase c, OperatorAdapter adapter, Platform platform, Sessions sessions) {
        Session session = sessions.get(platform);
        // Phase 1 only validates: the input is one element broadcast over its shape (strides 0) and out a placeholder
        // (no memory; a broadcast out would overlap itself, which phase 1 refuses), so nothing big is allocated.
        try (DeviceMemory inMemory = session.device.malloc(8);
             Tensor in = broadcast(adapter.inputShape(c), c.dataType(), c, inMemory);
             Tensor out = Tensor.placeholder(adapter.outputShape(c), c.dataType(), c.layout())) {
            try {
                adapter.getWorkspaceSize(platform, c, in, out);
            } catch (AclnnException e) {
                // Refused as the case expects: REFUSED, as for a product's refusal, so that "refused" means one thing.
                boolean expected = e.code() == c.expectStatus();
                return CaseResult.unjudged(c, expected ? Verdict.REFUSED : Verdict.FAIL, "status",
                        (expected ? "refused with the status the case expects: " : "expected status " + c.expectStatus() + ", got ")
                                + oneLine(e.toString()));
            }
            return CaseResult.unjudged(c, Verdict.FAIL, "status", "expected status " + c.expectStatus()
                    + ", but phase 1 succeeded");
        }
    }

    private static Tensor broadcast(long[] shape, DataType type, CheckCase c, DeviceMemory memory) {
        return Tensor.create(shape, type, new long[shape.length], 0, c.layout(), new long[] {1}, memory);
    }

    private static boolean inShapeIsEmpty(long[] shape) {
        return CaseData.numel(shape) == 0;
    }

    private static String oneLine(String text) {
        return text == null ? "" : text.replace('\n', ' ').replace('\r', ' ');
    }

    /** A runtime, device and stream. */
    private record Session(AclRuntime runtime, Device device, Stream stream) {}

    /** One session per platform, opened on first use; a session that saw a failure is replaced. */
    private static final class Sessions implements AutoCloseable {
        private final Map<Platform, Session> open = new EnumMap<>(Platform.class);

        Session get(Platform platform) {
            return open.computeIfAbsent(platform, p -> {
                AclRuntime runtime = AclRuntime.init(p);
                Device device = runtime.setDevice(0);
                return new Session(runtime, device, device.createStream());
            });
        }

        void discard(Platform platform) {
            Session session = open.remove(platform);
            if (session != null) {
                session.runtime.close();
            }
        }

        @Override
        public void close() {
            for (Session session : open.values()) {
                session.runtime.close();
            }
            open.clear();
        }
    }
}
