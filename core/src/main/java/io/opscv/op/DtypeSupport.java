package io.opscv.op;

import io.opscv.runtime.DataType;
import io.opscv.runtime.Platform;
import java.util.List;

/** The dtypes the upsample family accepts on each platform (SPEC §6), in upstream's listing order. */
public final class DtypeSupport {
    private static final List<DataType> ALL = List.of(DataType.FLOAT16, DataType.FLOAT, DataType.BF16);
    private static final List<DataType> NO_BF16 = List.of(DataType.FLOAT16, DataType.FLOAT);

    private DtypeSupport() {}

    /**
     * The support list; {@link Platform#ASCEND910} (the training series) has no BF16.
     *
     * @param platform the product
     * @return the dtypes its upsample operators accept, in upstream's order
     */
    public static List<DataType> of(Platform platform) {
        return platform == Platform.ASCEND910 ? NO_BF16 : ALL;
    }

    /**
     * DAV_2201 (A2/A3) runs BF16 only when no interpolation is needed, i.e. gradOut's shape equals
     * inputSize (SPEC §6).
     *
     * @param platform the product
     * @return whether BF16 needs gradOut's shape to equal inputSize there
     */
    public static boolean bf16NeedsEqualShapes(Platform platform) {
        return platform.arch() == Platform.Arch.DAV_2201;
    }
}
