package io.opscv.plan;

import io.opscv.kernel.TransDataKernel;
import io.opscv.runtime.AclnnException;
import io.opscv.runtime.AclnnStatus;
import io.opscv.runtime.DataType;
import io.opscv.runtime.Format;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Builds a plan the way upstream's phase 1 does with its l0 operators: each call appends one step
 * and returns the step's output, whose intermediates are laid out in the workspace by a
 * {@link WorkspacePlan}. Like upstream's {@code l0op::Contiguous} and {@code l0op::Cast}, a
 * Contiguous of a contiguous view or a Cast to the same dtype moves nothing: it appears as a view
 * step and returns its input.
 */
public final class PlanBuilder {
    private final WorkspacePlan workspace = new WorkspacePlan();
    private final List<PlanStep> steps = new ArrayList<>();

    /** An empty plan: no steps, no workspace. */
    public PlanBuilder() {}

    /**
     * Appends a step built by the caller (a kernel step) whose output came from {@link #allocate}.
     *
     * @param step the step, run after those already added
     */
    public void add(PlanStep step) {
        steps.add(step);
    }

    /**
     * A new intermediate in the workspace, placed after those allocated so far.
     *
     * @param name what it holds, for {@link Executor#explain()} (e.g. gradOut.fp32)
     * @param shape its shape, contiguous
     * @param dataType its element type
     * @param format its format tag
     * @return the intermediate, bound to its workspace offset
     */
    public Operand allocate(String name, long[] shape, DataType dataType, Format format) {
        return workspace.allocate(name, shape, dataType, format);
    }

    /**
     * l0 Contiguous.
     *
     * @param x the operand to make contiguous
     * @return {@code x} when it is already contiguous, otherwise a contiguous copy in the workspace
     */
    public Operand contiguous(Operand x) {
        if (x.isContiguous()) {
            steps.add(new ViewStep("Contiguous", x, x, "already contiguous: no copy"));
            return x;
        }
        Operand y = allocate(derivedName(x, "contiguous"), x.shape(), x.dataType(), x.format());
        steps.add(new ContiguousStep(x, y));
        return y;
    }

    /**
     * l0 Unsqueeze: a dimension of size 1 at {@code dim}.
     *
     * @param x the operand
     * @param dim where the new dimension goes
     * @return a view of {@code x}'s data with the extra dimension
     */
    public Operand unsqueeze(Operand x, int dim) {
        Operand y = x.unsqueeze(x.name(), dim);
        steps.add(new ViewStep("Unsqueeze(" + dim + ")", x, y, "view"));
        return y;
    }

    /**
     * l0 ReFormat: the same data under another format tag.
     *
     * @param x the operand
     * @param format the new format tag
     * @return a view of {@code x}'s data tagged {@code format}
     */
    public Operand reformat(Operand x, Format format) {
        Operand y = x.reformat(x.name(), format);
        steps.add(new ViewStep("ReFormat(" + format.name() + ")", x, y, "view"));
        return y;
    }

    /**
     * View4dAs3d: drops the size-1 dimension 2 of an (N, C, 1, L) tensor.
     *
     * @param x the (N, C, 1, L) operand
     * @param format the format tag of the (N, C, L) view
     * @return the (N, C, L) view of {@code x}'s data
     */
    public Operand view4dAs3d(Operand x, Format format) {
        Operand y = x.squeeze(x.name(), 2, format);
        steps.add(new ViewStep("View4dAs3d", x, y, "view"));
        return y;
    }

    /**
     * l0 Cast to {@code type}.
     *
     * @param x the operand
     * @param type the element type to convert to
     * @return {@code x} when it already has {@code type}, otherwise a converted copy in the workspace
     */
    public Operand cast(Operand x, DataType type) {
        if (x.dataType() == type) {
            steps.add(new ViewStep("Cast(" + type.dtName() + ")", x, x, "already " + type.dtName() + ": no copy"));
            return x;
        }
        Operand y = allocate(derivedName(x, shortName(type)), x.shape(), type, x.format());
        steps.add(new CastStep(x, y));
        return y;
    }

    /**
     * l0 Transpose into a contiguous intermediate: output dimension d is input dimension {@code order[d]}.
     *
     * @param x the operand
     * @param order the permutation of {@code x}'s dimensions
     * @param format the format tag of the result (e.g. NHWC for NCHW input)
     * @return the permuted, contiguous copy in the workspace
     */
    public Operand transpose(Operand x, int[] order, Format format) {
        long[] shape = x.shape();
        long[] permuted = new long[order.length];
        for (int d = 0; d < order.length; d++) {
            permuted[d] = shape[order[d]];
        }
        Operand y = allocate(derivedName(x, format.name().toLowerCase(Locale.ROOT)), permuted, x.dataType(), format);
        steps.add(new TransposeStep(x, order, y));
        return y;
    }

    /**
     * l0 TransData of a plain NCHW / NHWC operand to NC1HWC0 (C0 from its dtype).
     *
     * @param x the NCHW or NHWC operand
     * @return its NC1HWC0 copy in the workspace, channels padded to a multiple of C0
     */
    public Operand toBlocked(Operand x) {
        long[] nchw = Layouts.toNchw(x.shape(), x.format());
        Operand y = allocate(derivedName(x, "5hd"), TransDataKernel.blockedShape(nchw, x.dataType()), x.dataType(),
                Format.NC1HWC0);
        steps.add(new TransDataStep(x, y));
        return y;
    }

    /**
     * l0 TransData of an NC1HWC0 operand back to {@code format} (NCHW or NHWC) with {@code channels} channels.
     *
     * @param x the NC1HWC0 operand
     * @param channels the real channel count C, without the padding of the last C1 block
     * @param format NCHW or NHWC
     * @return the plain copy in the workspace
     */
    public Operand fromBlocked(Operand x, long channels, Format format) {
        long[] nchw = {x.size(0), channels, x.size(2), x.size(3)};
        Operand y = allocate(derivedName(x, format.name().toLowerCase(Locale.ROOT)), Layouts.fromNchw(nchw, format),
                x.dataType(), format);
        steps.add(new TransDataStep(x, y));
        return y;
    }

    /**
     * l0 ViewCopy into a user tensor (the plan's last step).
     *
     * @param src the result, contiguous in the workspace
     * @param dst the user's output tensor, any strides
     */
    public void viewCopy(Operand src, Operand dst) {
        steps.add(new ViewCopyStep(src, dst));
    }

    /** An intermediate's name: what it holds (the part before the first dot) and what it now is, e.g. gradOut.fp32. */
    static String derivedName(Operand x, String what) {
        String name = x.name();
        int dot = name.indexOf('.');
        return (dot < 0 ? name : name.substring(0, dot)) + "." + what;
    }

    private static String shortName(DataType type) {
        return switch (type) {
            case FLOAT -> "fp32";
            case FLOAT16 -> "fp16";
            case BF16 -> "bf16";
            default -> type.name().toLowerCase(Locale.ROOT);
        };
    }

    /** {@return the steps so far, in execution order} */
    public List<PlanStep> steps() {
        return List.copyOf(steps);
    }

    /** {@return the bytes of workspace the intermediates allocated so far occupy} */
    public long workspaceBytes() {
        return workspace.totalBytes();
    }

    /**
     * The executor for the plan. Its workspace size (the sum of the steps' intermediates) must equal
     * the workspace laid out; a difference would be a bug in the plan (561000).
     *
     * @param operator the ACLNN operator's name, which phase 2 checks
     * @param platform the platform the plan is for
     * @param tensors the caller's tensors the plan reads and writes
     * @return the executor phase 1 hands out
     */
    public Executor build(String operator, Platform platform, List<Tensor> tensors) {
        return build(operator, platform, tensors, null);
    }

    /**
     * As {@link #build(String, Platform, List)}, with the tensors' argument names for messages.
     *
     * @param operator the ACLNN operator's name, which phase 2 checks
     * @param platform the platform the plan is for
     * @param tensors the caller's tensors the plan reads and writes
     * @param tensorNames their argument names (gradOut, self, out), or {@code null} for positional names
     * @return the executor phase 1 hands out
     */
    public Executor build(String operator, Platform platform, List<Tensor> tensors, List<String> tensorNames) {
        Executor executor = tensorNames == null ? new Executor(operator, platform, steps, tensors)
                : new Executor(operator, platform, steps, tensors, tensorNames);
        if (executor.workspaceSize() != workspace.totalBytes()) {
            throw new AclnnException(AclnnStatus.ERR_INNER, "The plan of " + operator + " lays out "
                    + workspace.totalBytes() + " bytes of workspace but its steps own " + executor.workspaceSize() + ".");
        }
        return executor;
    }
}
