package io.opscv.cli;

import io.opscv.examples.UpsampleLinear1dBackwardSample;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(name = "example", mixinStandardHelpOptions = true,
        description = "Run the upstream sample program of aclnnUpsampleLinear1dBackward (SPEC section 8): "
                + "gradOut [1, 2, 3] -> out of length 6, alignCorners true, scales 0.5. "
                + "Prints six 'result[i] is: %%f' lines (1, 0, 1, 1, 0, 3).")
final class ExampleCommand implements Callable<Integer> {
    @ParentCommand
    OpscvCli parent;

    @Override
    public Integer call() {
        UpsampleLinear1dBackwardSample.run(parent.out());
        return OpscvCli.EXIT_OK;
    }
}
