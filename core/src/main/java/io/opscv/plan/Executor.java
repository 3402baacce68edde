package io.opscv.plan;

import io.opscv.runtime.AclnnException;
import io.opscv.runtime.AclnnStatus;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The executor phase 1 returns ({@code aclOpExecutor}): the plan built for one call, the workspace
 * it needs, and the tensors it reads and writes. Phase 2 runs it once on a stream; as upstream, an
 * executor is single-use.
 */
public final class Executor {
    private final String operator;
    private final Platform platform;
    private final List<PlanStep> steps;
    private final long workspaceSize;
    private final List<Tensor> tensors;
    private final AtomicBoolean launched = new AtomicBoolean();

    public Executor(String operator, Platform platform, List<PlanStep> steps, List<Tensor> tensors) {
        this.operator = operator;
        this.platform = platform;
        this.steps = List.copyOf(steps);
        this.tensors = List.copyOf(tensors);
        long total = 0;
        for (PlanStep step : this.steps) {
            total = Math.addExact(total, step.workspaceBytes());
        }
        this.workspaceSize = total;
    }

    /** The ACLNN operator that built this executor, e.g. {@code aclnnUpsampleLinear1dBackward}. */
    public String operator() {
        return operator;
    }

    public Platform platform() {
        return platform;
    }

    /** The plan's steps, in execution order (empty for an empty-tensor call). */
    public List<PlanStep> steps() {
        return steps;
    }

    /** Bytes of workspace phase 2 needs: the total of the plan's intermediates. */
    public long workspaceSize() {
        return workspaceSize;
    }

    /** Whether phase 2 has already taken this executor. */
    public boolean isLaunched() {
        return launched.get();
    }

    /** The plan, a step per line, with operands and workspace bytes. */
    public String explain() {
        StringBuilder sb = new StringBuilder();
        sb.append(operator).append(" plan on ").append(platform.socName()).append(" (")
                .append(platform.arch()).append("), workspace ").append(workspaceSize).append(" bytes\n");
        if (steps.isEmpty()) {
            sb.append("  (no steps: empty tensor)\n");
        }
        int k = 1;
        for (PlanStep step : steps) {
            sb.append("  ").append(k++).append(". ").append(step.name()).append(": ").append(step.describe());
            if (step.workspaceBytes() > 0) {
                sb.append(" [workspace ").append(step.workspaceBytes()).append(" bytes]");
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /**
     * Phase 2: checks the call and queues the plan on {@code stream}. Failures while running are
     * reported by {@link Stream#synchronize()}.
     */
    public static void launch(String operator, DeviceMemory workspace, long workspaceSize, Executor executor, Stream stream) {
        if (executor == null) {
            throw new AclnnException(AclnnStatus.ERR_PARAM_NULLPTR, "Expected a proper executor but got null for argument executor.");
        }
        if (stream == null) {
            throw new AclnnException(AclnnStatus.ERR_PARAM_NULLPTR, "Expected a proper stream but got null for argument stream.");
        }
        if (!executor.operator.equals(operator)) {
            throw AclnnException.invalid("The executor was built by " + executor.operator + "GetWorkspaceSize and cannot be run by "
                    + operator + ".");
        }
        if (workspaceSize < executor.workspaceSize) {
            throw AclnnException.invalid("workspaceSize " + workspaceSize + " is smaller than the " + executor.workspaceSize
                    + " bytes the executor needs.");
        }
        MemorySegment ws = MemorySegment.NULL;
        if (executor.workspaceSize > 0) {
            if (workspace == null) {
                throw new AclnnException(AclnnStatus.ERR_PARAM_NULLPTR, "Expected a proper workspace of " + executor.workspaceSize
                        + " bytes but got null for argument workspace.");
            }
            if (workspace.size() < executor.workspaceSize) {
                throw AclnnException.invalid("The workspace has " + workspace.size() + " bytes, but the executor needs "
                        + executor.workspaceSize + ".");
            }
            ws = workspace.segment();
        }
        for (Tensor t : executor.tensors) {
            if (!t.isUsable()) {
                throw AclnnException.invalid("A tensor of the executor was destroyed or its memory freed after phase 1: " + t + ".");
            }
        }
        if (!stream.isOpen()) {
            throw AclnnException.invalid("The stream was destroyed (aclrtDestroyStream) and cannot take work.");
        }
        if (!executor.launched.compareAndSet(false, true)) {
            throw AclnnException.invalid("The executor was already run; an executor is single-use: call "
                    + operator + "GetWorkspaceSize again.");
        }
        MemorySegment workspaceSegment = ws;
        stream.launch(() -> {
            for (PlanStep step : executor.steps) {
                step.run(workspaceSegment);
            }
        });
    }
}
