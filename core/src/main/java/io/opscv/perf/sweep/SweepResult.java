package io.opscv.perf.sweep;

import java.util.Locale;

/** One measured sweep case: the medians of the operator's and the copy's times, in milliseconds. */
public record SweepResult(SweepCase sweepCase, int threads, double opMs, double copyMs) {
    /** Exactly issue 24's header. */
    public static final String CSV_HEADER =
            "case,op,dtype,in_shape,out_shape,align_corners,scales,layout,threads,op_ms,copy_ms,ratio,gbps";

    /** The operator's time over the copy's. */
    public double ratio() {
        return opMs / copyMs;
    }

    /** The operator's traffic ({@link SweepCase#trafficBytes()}) over its time, in GB/s (10^9 bytes). */
    public double gbps() {
        return sweepCase.trafficBytes() / (opMs * 1e6);
    }

    /** The row under {@link #CSV_HEADER}. */
    public String csv() {
        SweepCase k = sweepCase;
        return String.format(Locale.ROOT, "%s,%s,%s,%s,%s,%s,%s,%s,%d,%.6f,%.6f,%.4f,%.3f", k.name(), k.op().label(),
                k.dtypeLabel(), k.inShape(), k.outShape(), k.alignCorners(), k.scalesLabel(), k.layout().label(), threads,
                opMs, copyMs, ratio(), gbps());
    }
}
