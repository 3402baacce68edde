package io.opscv.verify;

import io.opscv.op.WorkspaceAndExecutor;
import io.opscv.plan.Executor;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;

/**
 * What the harness needs to know about one operator: how to shape its tensors for a case, how to
 * call it through the two-phase API, and how to compute its float64 reference. One small class per
 * operator; {@link OperatorAdapters} lists them.
 *
 * <p>An adapter whose operator is not in this build ({@link #hasOperator()} false) still computes the
 * reference, so its cases can be generated, and results produced elsewhere ({@code "actual"}) judged.
 */
public interface OperatorAdapter {
    /** The op's name in case files, e.g. {@code upsample_linear1d_backward}. */
    String op();

    /** The ACLNN operator, e.g. {@code aclnnUpsampleLinear1dBackward}. */
    String aclnnName();

    /** 1 (L) or 2 (H, W). */
    int spatialAxes();

    /** True for a gradient: its input is gradOut (the forward output's shape), its output the forward input's shape. */
    boolean backward();

    /** The case-file field naming the input file: {@code grad_out} for a gradient, else {@code self}. */
    default String inputField() {
        return backward() ? "grad_out" : "self";
    }

    /** The operator's input shape, in the case's layout ({@link CheckCase#layout()}). */
    default long[] inputShape(CheckCase c) {
        return backward() ? c.forwardOutputShape() : c.forwardInputShape();
    }

    /** The operator's output shape, in the case's layout. */
    default long[] outputShape(CheckCase c) {
        return backward() ? c.forwardInputShape() : c.forwardOutputShape();
    }

    /**
     * The float64 reference result for the input values {@code input}, both row-major in the case's layout
     * (for NHWC: (N, H, W, C) order).
     */
    double[] reference(CheckCase c, double[] input);

    /** The most non-zero terms summed into one output element (the criterion's {@code terms}). */
    int terms(CheckCase c);

    /**
     * The float64 reference of this op's sizes-only fallback plan (SPEC §6: TensorFlow's half-pixel coordinates
     * from the sizes, scales ignored; {@link HalfPixelReference}), in the case's layout; {@code null} when no plan
     * of this op takes sizes only.
     */
    default double[] sizesOnlyReference(CheckCase c, double[] input) {
        return null;
    }

    /** The criterion's {@code terms} for {@link #sizesOnlyReference}. */
    default int sizesOnlyTerms(CheckCase c) {
        throw new UnsupportedOperationException(op() + " has no sizes-only plan");
    }

    /** Whether this build has the operator; if not, only {@code actual} files can be judged. */
    boolean hasOperator();

    /** Phase 1 ({@code aclnnXxxGetWorkspaceSize}) as {@code platform}, for case {@code c}. */
    WorkspaceAndExecutor getWorkspaceSize(Platform platform, CheckCase c, Tensor input, Tensor out);

    /** Phase 2 ({@code aclnnXxx}): queues the executor on {@code stream}. */
    void run(DeviceMemory workspace, long workspaceSize, Executor executor, Stream stream);
}
