package io.opscv.perf.sweep;

import java.util.Arrays;
import java.util.Optional;

/** The operators the sweep measures, by the names of {@code bench --sweep --op} and of the CSV's {@code op} column. */
public enum SweepOp {
    LINEAR1D_BACKWARD("linear1d_backward", false, true),
    LINEAR1D("linear1d", false, false),
    BILINEAR2D("bilinear2d", true, false),
    BILINEAR2D_BACKWARD("bilinear2d_backward", true, true);

    private final String label;
    private final boolean twoD;
    private final boolean backward;

    SweepOp(String label, boolean twoD, boolean backward) {
        this.label = label;
        this.twoD = twoD;
        this.backward = backward;
    }

    /** The name on the command line and in the CSV. */
    public String label() {
        return label;
    }

    /** A 2-D operator ((N, C, H, W) maps) rather than a 1-D one ((N, C, L) rows). */
    public boolean twoD() {
        return twoD;
    }

    /** A backward: its input is gradOut (the forward's output shape) and its output the forward input's shape. */
    public boolean backward() {
        return backward;
    }

    /** The operator called {@code label}, if any. */
    public static Optional<SweepOp> byLabel(String label) {
        return Arrays.stream(values()).filter(op -> op.label.equals(label)).findFirst();
    }
}
