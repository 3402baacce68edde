package io.opscv.reliability;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opscv.op.UpsampleBilinear2d;
import io.opscv.op.UpsampleBilinear2dBackwardV2;
import io.opscv.op.UpsampleLinear1d;
import io.opscv.op.UpsampleLinear1dBackward;
import io.opscv.testing.TestDevice;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Property-based fuzzing of every phase-1 entry point (issue 6, item 1): each try is one
 * generated call, checked by {@link FuzzHarness}'s invariants. The number of tries is jqwik's
 * default, set by the build: a few hundred in the default run, 100,000 with {@code -Pfuzz}; the
 * counts land in {@code target/reliability/fuzz-<operator>.txt}.
 *
 * <p>All four operators are fuzzed, each by its own generator and oracle ({@link Linear1dBackwardFuzz},
 * {@link Linear1dFuzz}, {@link Bilinear2dBackwardFuzz}, {@link Bilinear2dFuzz}). To fuzz another operator: a
 * {@link FuzzCall} for it (arguments, SPEC oracle, float64 reference), its generator, and a property here like
 * {@link #upsampleLinear1dBackward}.
 */
class OperatorFuzzTest {
    private static TestDevice dev;

    @BeforeContainer
    static void open() {
        dev = new TestDevice();
    }

    @AfterContainer
    static void close() {
        dev.close();
        for (String op : List.of(UpsampleLinear1dBackward.NAME, UpsampleLinear1d.NAME, UpsampleBilinear2dBackwardV2.NAME,
                UpsampleBilinear2d.NAME)) {
            FuzzStatistics.report(op);
            // The fuzz proves something only if it reached every kind of outcome (the rarest, ~1.5% of calls, only
            // counted in the large runs, so that the default run cannot fail by chance).
            long calls = FuzzStatistics.calls(op);
            List<String> outcomes = new ArrayList<>(List.of("outcome: tensor creation refused (as expected)",
                    "outcome: phase 1 ACLNN_ERR_PARAM_NULLPTR (161001)", "outcome: phase 1 ACLNN_ERR_PARAM_INVALID (161002)",
                    "outcome: success, computed and checked"));
            if (calls >= 5000) {
                outcomes.addAll(List.of("outcome: success, placeholder refused by phase 2", "outcome: success, empty"));
            }
            if (calls >= 200) {
                for (String outcome : outcomes) {
                    assertTrue(FuzzStatistics.count(op, outcome) > 0, op + ": the fuzz never reached '" + outcome + "'");
                }
            }
        }
    }

    // Edge cases off: the generators draw hostile values from their own lists, and jqwik's mixed-in edge cases
    // would make a quarter of the calls empty tensors.

    @Provide
    Arbitrary<Linear1dBackwardFuzz.Call> linear1dBackwardCalls() {
        return Linear1dBackwardFuzz.calls();
    }

    @Property(shrinking = ShrinkingMode.BOUNDED, edgeCases = EdgeCasesMode.NONE)
    void upsampleLinear1dBackward(@ForAll("linear1dBackwardCalls") Linear1dBackwardFuzz.Call call) {
        FuzzHarness.check(call, dev.device, dev.stream, call.seed);
    }

    @Provide
    Arbitrary<Linear1dFuzz.Call> linear1dCalls() {
        return Linear1dFuzz.calls();
    }

    @Property(shrinking = ShrinkingMode.BOUNDED, edgeCases = EdgeCasesMode.NONE)
    void upsampleLinear1d(@ForAll("linear1dCalls") Linear1dFuzz.Call call) {
        FuzzHarness.check(call, dev.device, dev.stream, call.seed);
    }

    @Provide
    Arbitrary<Bilinear2dBackwardFuzz.Call> bilinear2dBackwardCalls() {
        return Bilinear2dBackwardFuzz.calls();
    }

    @Property(shrinking = ShrinkingMode.BOUNDED, edgeCases = EdgeCasesMode.NONE)
    void upsampleBilinear2dBackwardV2(@ForAll("bilinear2dBackwardCalls") Bilinear2dBackwardFuzz.Call call) {
        FuzzHarness.check(call, dev.device, dev.stream, call.seed);
    }

    @Provide
    Arbitrary<Bilinear2dFuzz.Call> bilinear2dCalls() {
        return Bilinear2dFuzz.calls();
    }

    @Property(shrinking = ShrinkingMode.BOUNDED, edgeCases = EdgeCasesMode.NONE)
    void upsampleBilinear2d(@ForAll("bilinear2dCalls") Bilinear2dFuzz.Call call) {
        FuzzHarness.check(call, dev.device, dev.stream, call.seed);
    }
}
