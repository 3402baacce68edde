package io.opscv.plan;

import io.opscv.runtime.AclnnException;
import io.opscv.runtime.AclnnStatus;
import io.opscv.runtime.DeviceMemory;
import io.opscv.runtime.Platform;
import io.opscv.runtime.Stream;
import io.opscv.runtime.Tensor;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
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
    /** The operators' names of {@link #tensors}, e.g. gradOut, for messages. */
    private final List<String> tensorNames;
    private final AtomicBoolean launched = new AtomicBoolean();

    /**
     * An executor for a plan an operator's phase 1 built (the operators make them; users receive them),
     * its tensors named by position in messages ("tensor 1", ...).
     *
     * @param operator the ACLNN operator's name, which phase 2 checks
     * @param platform the platform the plan is for
     * @param steps    the steps, in execution order
     * @param tensors  the caller's tensors the plan reads and writes, checked again at phase 2
     * @throws AclnnException 561000 when the steps' workspaces exceed 2^63 bytes
     */
    public Executor(String operator, Platform platform, List<PlanStep> steps, List<Tensor> tensors) {
        this(operator, platform, steps, tensors, positionalNames(tensors.size()));
    }

    /**
     * An executor whose tensors have the operator's argument names in messages.
     *
     * @param operator    the ACLNN operator's name, which phase 2 checks
     * @param platform    the platform the plan is for
     * @param steps       the steps, in execution order
     * @param tensors     the caller's tensors the plan reads and writes
     * @param tensorNames their argument names (gradOut, self, out), as messages name them
     */
    public Executor(String operator, Platform platform, List<PlanStep> steps, List<Tensor> tensors, List<String> tensorNames) {
        if (tensorNames.size() != tensors.size()) {
            throw new IllegalArgumentException(tensors.size() + " tensors but " + tensorNames.size() + " names");
        }
        this.operator = operator;
        this.platform = platform;
        this.steps = List.copyOf(steps);
        this.tensors = List.copyOf(tensors);
        this.tensorNames = List.copyOf(tensorNames);
        long total = 0;
        for (PlanStep step : this.steps) {
            try {
                total = Math.addExact(total, step.workspaceBytes());
            } catch (ArithmeticException e) {
                throw new AclnnException(AclnnStatus.ERR_INNER, "The workspace of the " + operator + " plan exceeds 2^63 bytes.");
            }
        }
        this.workspaceSize = total;
    }

    private static List<String> positionalNames(int count) {
        List<String> names = new ArrayList<>(count);
        for (int k = 1; k <= count; k++) {
            names.add("tensor " + k);
        }
        return names;
    }

    /** {@return the ACLNN operator that built this executor, e.g. {@code aclnnUpsampleLinear1dBackward}} */
    public String operator() {
        return operator;
    }

    /** {@return the platform the plan was built for} */
    public Platform platform() {
        return platform;
    }

    /** {@return the plan's steps, in execution order (empty for an empty-tensor call)} */
    public List<PlanStep> steps() {
        return steps;
    }

    /** {@return the bytes of workspace phase 2 needs: the total of the plan's intermediates} */
    public long workspaceSize() {
        return workspaceSize;
    }

    /** {@return whether phase 2 has already taken this executor} */
    public boolean isLaunched() {
        return launched.get();
    }

    /** {@return the plan, a step per line, with operands and workspace bytes} */
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
     *
     * <p>Every misuse of the two-phase protocol is a status, and leaves the executor as it was
     * unless it was queued: no executor (phase 2 before phase 1) or stream is 161001; an executor
     * of another operator, a workspace missing, freed or smaller than phase 1 asked for, a
     * {@code workspaceSize} that is negative or larger than the workspace, a workspace that shares
     * memory with a tensor of the call ({@link #workspaceDisjoint}), a tensor destroyed,
     * freed or without memory (a placeholder), a destroyed stream, and a second run are 161002.
     * Memory freed after this call but before the stream runs the plan makes the run fail with
     * 161002 at synchronize, without touching freed memory; a free while the plan runs waits for it.
     *
     * @param operator      the ACLNN name of the operator whose {@code run} this is
     * @param workspace     at least {@code workspaceSize} bytes, or {@code null} when phase 1 asked for none
     * @param workspaceSize the size phase 1 returned
     * @param executor      the executor phase 1 returned
     * @param stream        the stream to queue the plan on
     * @throws AclnnException 161001 or 161002 for a misuse, as listed above
     */
    public static void launch(String operator, DeviceMemory workspace, long workspaceSize, Executor executor, Stream stream) {
        if (executor == null) {
            throw new AclnnException(AclnnStatus.ERR_PARAM_NULLPTR, "Expected a proper executor but got null for argument executor"
                    + " (call " + operator + "GetWorkspaceSize first).");
        }
        if (stream == null) {
            throw new AclnnException(AclnnStatus.ERR_PARAM_NULLPTR, "Expected a proper stream but got null for argument stream.");
        }
        if (!executor.operator.equals(operator)) {
            throw AclnnException.invalid("The executor was built by " + executor.operator + "GetWorkspaceSize and cannot be run by "
                    + operator + ".");
        }
        if (workspaceSize < 0) {
            throw AclnnException.invalid("workspaceSize must be >= 0, but got " + workspaceSize + ".");
        }
        if (workspaceSize < executor.workspaceSize) {
            throw AclnnException.invalid("workspaceSize " + workspaceSize + " is smaller than the " + executor.workspaceSize
                    + " bytes the executor needs.");
        }
        if (workspace != null && workspace.isFreed()) {
            throw AclnnException.invalid("The workspace was freed (aclrtFree) and cannot be used.");
        }
        if (workspace != null && workspaceSize > workspace.size()) {
            throw AclnnException.invalid("workspaceSize " + workspaceSize + " is larger than the workspace, which has "
                    + workspace.size() + " bytes.");
        }
        MemorySegment ws = MemorySegment.NULL;
        if (executor.workspaceSize > 0) {
            if (workspace == null) {
                throw new AclnnException(AclnnStatus.ERR_PARAM_NULLPTR, "Expected a proper workspace of " + executor.workspaceSize
                        + " bytes but got null for argument workspace.");
            }
            ws = workspace.segment();
        }
        for (Tensor t : executor.tensors) {
            if (!t.isUsable()) {
                throw AclnnException.invalid("A tensor of the executor was destroyed or its memory freed after phase 1: " + t + ".");
            }
            if (t.memory() == null && !t.isEmpty()) {
                throw AclnnException.invalid("A tensor of the executor is a placeholder without device memory: " + t
                        + "; run phase 1 again with tensors in device memory.");
            }
        }
        executor.workspaceDisjoint(ws);
        if (!stream.isOpen()) {
            throw AclnnException.invalid("The stream was destroyed (aclrtDestroyStream) and cannot take work.");
        }
        if (!executor.launched.compareAndSet(false, true)) {
            throw AclnnException.invalid("The executor was already run; an executor is single-use: call "
                    + operator + "GetWorkspaceSize again.");
        }
        MemorySegment workspaceSegment = ws;
        DeviceMemory workspaceMemory = executor.workspaceSize > 0 ? workspace : null;
        try {
            stream.launch(() -> executor.runSteps(workspaceSegment, workspaceMemory));
        } catch (AclnnException e) {
            // Not queued (the stream was destroyed meanwhile): the executor was not used.
            executor.launched.set(false);
            throw e;
        }
    }

    /**
     * The workspace holds the plan's intermediates, which its steps write while they read and write the
     * caller's tensors: none of the {@link #workspaceSize} bytes the plan uses may lie in the bytes a tensor's
     * view spans (this project's rule, as for out and gradOut in {@code Checks.outputMemoryDisjoint}; SPEC
     * §2 only asks for device memory of at least workspaceSize bytes). Shared memory would silently corrupt
     * both the result and the input, so it is refused with 161002. A workspace the plan does not use
     * (workspaceSize 0) is not checked.
     */
    private void workspaceDisjoint(MemorySegment workspace) {
        if (workspaceSize == 0) {
            return;
        }
        MemorySegment used = workspace.asSlice(0, workspaceSize);
        for (int k = 0; k < tensors.size(); k++) {
            MemorySegment spanned = tensors.get(k).spannedBytes();
            if (spanned != null && used.asOverlappingSlice(spanned).isPresent()) {
                String name = tensorNames.get(k);
                throw AclnnException.invalid("The workspace shares memory with " + name + ": the " + workspaceSize
                        + " bytes of workspace the plan of " + operator + " writes overlap the bytes " + name
                        + "'s view spans (" + spanned.byteSize() + " bytes); give the workspace memory of its own"
                        + " (aclrtMalloc of workspaceSize bytes).");
            }
        }
    }

    /**
     * The stream's task: the steps in order, after checking that nothing was freed since launch, with
     * the memory of every operand {@linkplain DeviceMemory#pin pinned} (a free meanwhile waits for the
     * steps to finish).
     */
    private void runSteps(MemorySegment workspace, DeviceMemory workspaceMemory) {
        List<DeviceMemory> pinned = new ArrayList<>(tensors.size() + 1);
        try {
            String freed = pinAll(workspaceMemory, pinned);
            if (freed != null) {
                throw AclnnException.invalid(freed + " after " + operator + " was queued, before the stream ran it; keep"
                        + " tensors and memory until the stream is synchronized.");
            }
            runPinned(workspace, workspaceMemory);
        } finally {
            for (DeviceMemory m : pinned) {
                m.unpin();
            }
        }
    }

    /** Pins the operands' memory into {@code pinned}; which operand is no longer usable, or {@code null}. */
    private String pinAll(DeviceMemory workspaceMemory, List<DeviceMemory> pinned) {
        if (workspaceMemory != null) {
            if (!workspaceMemory.pin()) {
                return "The workspace was freed (aclrtFree)";
            }
            pinned.add(workspaceMemory);
        }
        for (Tensor t : tensors) {
            DeviceMemory m = t.memory();
            if (m != null) {
                if (!m.pin()) {
                    return "The tensor " + t + " was destroyed or its device memory freed";
                }
                pinned.add(m);
            }
        }
        return freedOperand(workspaceMemory);
    }

    private void runPinned(MemorySegment workspace, DeviceMemory workspaceMemory) {
        PlanStep running = null;
        try {
            for (PlanStep step : steps) {
                running = step;
                step.run(workspace);
            }
        } catch (OutOfMemoryError e) {
            // A step's host memory (its coordinate tables, its threads' buffers) did not fit the Java heap.
            throw outOfMemory(operator, "its step " + running.name(), e);
        } catch (IllegalStateException e) {
            // A shared arena closed during the run makes the access fail (the JDK never lets it touch freed memory).
            String during = freedOperand(workspaceMemory);
            if (during == null) {
                throw e;
            }
            throw new AclnnException(AclnnStatus.ERR_PARAM_INVALID, during + " while " + operator + " ran on the stream;"
                    + " free device memory only after synchronizing the stream.", e);
        }
    }

    /**
     * An allocation failure as the status every runtime failure is (361001), never a raw {@link Error}: the JVM
     * could not give {@code operator} the host memory {@code where} needed.
     *
     * @param operator the ACLNN operator that ran out
     * @param where the phase or step that allocated, for the message
     * @param e the JVM's error, kept as the cause
     * @return the 361001 exception to throw
     */
    public static AclnnException outOfMemory(String operator, String where, OutOfMemoryError e) {
        return AclnnException.runtime(operator + " ran out of host memory in " + where + " (" + e.getMessage()
                + "): run the JVM with a larger heap (-Xmx) or call it on smaller tensors.", e);
    }

    /** Which operand is no longer usable, or {@code null}. */
    private String freedOperand(DeviceMemory workspaceMemory) {
        if (workspaceMemory != null && workspaceMemory.isFreed()) {
            return "The workspace was freed (aclrtFree)";
        }
        for (Tensor t : tensors) {
            if (!t.isUsable()) {
                return "The tensor " + t + " was destroyed or its device memory freed";
            }
        }
        return null;
    }
}
