package io.opscv.plan;

import java.lang.foreign.MemorySegment;

/**
 * An l0 operator that only re-describes its input (Unsqueeze, View4dAs3d, ReFormat, or a
 * Contiguous / Cast with nothing to do): no data moves and no workspace is used, but the step is
 * part of the plan and shows in {@link Executor#explain()}.
 */
public final class ViewStep implements PlanStep {
    private final String name;
    private final Operand src;
    private final Operand dst;
    private final String note;

    /**
     * A view step.
     *
     * @param name the l0 operator it stands for, e.g. {@code Unsqueeze(2)}
     * @param src its input
     * @param dst the view it gives (the input itself when the operator has nothing to do)
     * @param note shown by {@link #describe()}, e.g. {@code view} or {@code already contiguous: no copy}
     */
    public ViewStep(String name, Operand src, Operand dst, String note) {
        this.name = name;
        this.src = src;
        this.dst = dst;
        this.note = note;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String describe() {
        return src.describe() + " -> " + dst.describe() + " (" + note + ")";
    }

    @Override
    public void run(MemorySegment workspace) {
        // A view: nothing to compute.
    }
}
