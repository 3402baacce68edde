package io.opscv.cli;

import io.opscv.runtime.Platform;
import picocli.CommandLine.Option;

/** {@code --soc NAME}, shared by the operator subcommands (a picocli mixin). */
final class SocOption {
    @Option(names = "--soc", paramLabel = "NAME", defaultValue = "cpu",
            description = "Platform: cpu, ascend950, ascend910_93, ascend910b, ascend910, ascend310b, ascend310p "
                    + "(default: ${DEFAULT-VALUE}).")
    String name;

    /** The platform named, or a one-line usage error. */
    Platform platform() {
        return OpscvCli.platform(name, "--soc");
    }
}
