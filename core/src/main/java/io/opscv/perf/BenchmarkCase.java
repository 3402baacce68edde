package io.opscv.perf;

import io.opscv.runtime.DataType;

/**
 * One benchmark case of {@code aclnnUpsampleLinear1dBackward} (issue 4's table): the shape, the
 * coordinate arguments, the dtype, whether gradOut is a transposed view, and the target ratio of
 * the operator's time to the time of copying the same bytes. Shared by the JMH module and
 * {@code opscv bench}, so that both measure the same thing.
 *
 * @param name             short name, e.g. {@code up2x}
 * @param transposed       gradOut is the (N, L, C) storage viewed as (N, C, L) (channels last)
 * @param targetRatio      the target op time / copy time; for the tiny call, the target median in microseconds
 * @param tinyCall         the case measures one whole small call, where fixed costs dominate
 */
public record BenchmarkCase(String name, DataType dtype, int n, int c, int lin, int lout, boolean alignCorners,
                            double scales, boolean transposed, double targetRatio, boolean tinyCall) {

    /** Bytes of gradOut (N · C · Lout elements). */
    public long gradOutBytes() {
        return (long) n * c * lout * dtype.byteSize();
    }

    /** Bytes of out (N · C · Lin elements). */
    public long outBytes() {
        return (long) n * c * lin * dtype.byteSize();
    }

    /**
     * Bytes the copy baseline copies: half of what the operator reads and writes, so that the copy
     * (which reads and writes that many) moves as many bytes as the operator.
     */
    public long copyBytes() {
        return (gradOutBytes() + outBytes()) / 2;
    }

    /** The dtype as the CSV writes it: fp32, fp16, bf16. */
    public String dtypeLabel() {
        return dtypeLabel(dtype);
    }

    /** {@code dtype} as the benchmarks' CSVs write it: fp32, fp16, bf16 (else its ACL name). */
    public static String dtypeLabel(DataType dtype) {
        return switch (dtype) {
            case FLOAT -> "fp32";
            case FLOAT16 -> "fp16";
            case BF16 -> "bf16";
            default -> dtype.dtName();
        };
    }
}
