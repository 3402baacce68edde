package io.opscv.perf.sweep;

import io.opscv.perf.BenchmarkCase;
import io.opscv.runtime.DataType;

/**
 * One case of the sweep. Sizes are the forward's: the forward maps (hin, win) to (hout, wout); a 1-D case has
 * {@code hin == hout == 1} and its lengths in {@code win}, {@code wout}. A backward case's input is therefore
 * gradOut, of the forward output's shape, and its output the forward input's shape.
 *
 * @param name          unique within a sweep: {@code m<index>_<ratio class>_<rows class>}, or {@code l2_...} for a
 *                      cache-resident case
 * @param scalesH       the forward multiplier along H as passed to the operator; 0 = not given (derived); 1-D: 0
 * @param scalesW       the same along W (1-D: along L)
 * @param ratioClass    the ratio class drawn (e.g. {@code up_int}, {@code down_extreme}; 2-D {@code up2} ...)
 * @param rowsClass     1-D: {@code long} (N·C ≤ 8), {@code mid}, {@code short} (longer side 17–512), {@code tiny}
 *                      (longer side ≤ 16), from the sizes; 2-D: {@code image} or {@code tiny_maps}
 * @param cacheResident the case belongs to the cache-resident group (reported apart)
 */
public record SweepCase(String name, SweepOp op, DataType dtype, long n, long c, long hin, long win, long hout,
                        long wout, boolean alignCorners, double scalesH, double scalesW, SweepLayout layout,
                        String ratioClass, String rowsClass, boolean cacheResident) {

    /** Elements of the forward's input: N · C · hin · win. */
    public long forwardInputElements() {
        return n * c * hin * win;
    }

    /** Elements of the forward's output: N · C · hout · wout. */
    public long forwardOutputElements() {
        return n * c * hout * wout;
    }

    /** Bytes the operator moves: its input read once and its output written once (the logical elements). */
    public long trafficBytes() {
        return (forwardInputElements() + forwardOutputElements()) * dtype.byteSize();
    }

    /** Bytes the copy baseline copies: half the traffic, since a copy reads and writes as many. */
    public long copyBytes() {
        return trafficBytes() / 2;
    }

    /** Whether the scales are passed to the operator (rather than derived by it from the sizes). */
    public boolean scalesGiven() {
        return scalesW != 0 || scalesH != 0;
    }

    /**
     * The operator's input tensor's logical shape, as the CSV writes it: self for a forward, gradOut for a
     * backward; (N, C, L) or (N, C, H, W) whatever the layout, e.g. {@code 32x64x16384}.
     */
    public String inShape() {
        return op.backward() ? shape(hout, wout) : shape(hin, win);
    }

    /** The operator's output tensor's logical shape (out): the forward output for a forward, its input for a backward. */
    public String outShape() {
        return op.backward() ? shape(hin, win) : shape(hout, wout);
    }

    private String shape(long h, long w) {
        return op.twoD() ? n + "x" + c + "x" + h + "x" + w : n + "x" + c + "x" + w;
    }

    /**
     * The CSV's {@code scales}: {@code derived} when not given, else the value passed (Java's shortest
     * round-trip form of the double); 2-D {@code scalesHxscalesW}.
     */
    public String scalesLabel() {
        if (!scalesGiven()) {
            return "derived";
        }
        return op.twoD() ? scalesH + "x" + scalesW : Double.toString(scalesW);
    }

    /** The dtype as the CSV writes it: fp32, fp16, bf16. */
    public String dtypeLabel() {
        return BenchmarkCase.dtypeLabel(dtype);
    }
}
