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

    /** Appends a step built by the caller (a kernel step) whose output came from {@link #allocate}. */
    public void add(PlanStep step) {
        steps.add(step);
    }

    /** A new intermediate in the workspace. */
    public Operand allocate(String name, long[] shape, DataType dataType, Format format) {
        return workspace.allocate(name, shape, dataType, format);
    }

    /** l0 Contiguous. */
    public Operand contiguous(Operand x) {
        if (x.isContiguous()) {
            steps.add(new ViewStep("Contiguous", x, x, "already contiguous: no copy"));
            return x;
        }
        Operand y = allocate(derivedName(x, "contiguous"), x.shape(), x.dataType(), x.format());
        steps.add(new ContiguousStep(x, y));
        return y;
    }

    /** l0 Unsqueeze: a dimension of size 1 at {@code dim}. */
    public Operand unsqueeze(Operand x, int dim) {
        Operand y = x.unsqueeze(x.name(), dim);
        steps.add(new ViewStep("Unsqueeze(" + dim + ")", x, y, "view"));
        return y;
    }

    /** l0 ReFormat: the same data under another format tag. */
    public Operand reformat(Operand x, Format format) {
        Operand y = x.reformat(x.name(), format);
        steps.add(new ViewStep("ReFormat(" + format.name() + ")", x, y, "view"));
        return y;
    }

    /** View4dAs3d: drops the size-1 dimension 2 of an (N, C, 1, L) tensor. */
    public Operand view4dAs3d(Operand x, Format format) {
        Operand y = x.squeeze(x.name(), 2, format);
        steps.add(new ViewStep("View4dAs3d", x, y, "view"));
        return y;
    }

    /** l0 Cast to {@code type}. */
    public Operand cast(Operand x, DataType type) {
        if (x.dataType() == type) {
            steps.add(new ViewStep("Cast(" + type.dtName() + ")", x, x, "already " + type.dtName() + ": no copy"));
            return x;
        }
        Operand y = allocate(derivedName(x, shortName(type)), x.shape(), type, x.format());
        steps.add(new CastStep(x, y));
        return y;
    }

    /** l0 Transpose into a contiguous intermediate: output dimension d is input dimension {@code order[d]}. */
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

    /** l0 TransData of a plain NCHW / NHWC operand to NC1HWC0 (C0 from its dtype). */
    public Operand toBlocked(Operand x) {
        long[] nchw = Layouts.toNchw(x.shape(), x.format());
        Operand y = allocate(derivedName(x, "5hd"), TransDataKernel.blockedShape(nchw, x.dataType()), x.dataType(),
                Format.NC1HWC0);
        steps.add(new TransDataStep(x, y));
        return y;
    }

    /** l0 TransData of an NC1HWC0 operand back to {@code format} (NCHW or NHWC) with {@code channels} channels. */
    public Operand fromBlocked(Operand x, long channels, Format format) {
        long[] nchw = {x.size(0), channels, x.size(2), x.size(3)};
        Operand y = allocate(derivedName(x, format.name().toLowerCase(Locale.ROOT)), Layouts.fromNchw(nchw, format),
                x.dataType(), format);
        steps.add(new TransDataStep(x, y));
        return y;
    }

    /** l0 ViewCopy into a user tensor (the plan's last step). */
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

    /** The steps so far. */
    public List<PlanStep> steps() {
        return List.copyOf(steps);
    }

    /** Bytes of workspace the intermediates allocated so far occupy. */
    public long workspaceBytes() {
        return workspace.totalBytes();
    }

    /**
     * The executor for the plan. Its workspace size (the sum of the steps' intermediates) must equal
     * the workspace laid out; a difference would be a bug in the plan (561000).
     */
    public Executor build(String operator, Platform platform, List<Tensor> tensors) {
        return build(operator, platform, tensors, null);
    }

    /** As {@link #build(String, Platform, List)}, with the tensors' argument names for messages (or null). */
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
