package io.opscv.cli;

import io.opscv.runtime.DataType;

/** The values of {@code --dtype}: the dtype the input file holds (bfloat16 cannot be told from the file). */
enum DtypeOption {
    float32(DataType.FLOAT),
    float16(DataType.FLOAT16),
    bfloat16(DataType.BF16);

    final DataType dataType;

    DtypeOption(DataType dataType) {
        this.dataType = dataType;
    }
}
