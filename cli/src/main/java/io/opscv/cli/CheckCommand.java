package io.opscv.cli;

import io.opscv.runtime.Platform;
import io.opscv.verify.CaseFiles;
import io.opscv.verify.CheckCase;
import io.opscv.verify.CheckRun;
import io.opscv.verify.Checker;
import io.opscv.verify.HtmlReport;
import io.opscv.verify.SummaryTable;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "check", mixinStandardHelpOptions = true,
        description = {
            "Verify operators on the cases of a JSON case file: this project's format (explicit cases and seeded sweeps) or an "
                    + "upstream ATK file (a JSON array of cases with 'aclnn_name'); see docs/VERIFICATION.md.",
            "Each case runs through the two-phase API (or, with an 'actual' file, judges a result produced elsewhere) and is "
                    + "compared with its golden: the file's expected values, else the float64 reference. Verdicts follow the "
                    + "per-element criterion of golden/README.md, and the upstream MERE/MARE standard for all-ones inputs.",
            "Progress goes to stderr, the summary table to stdout."
        },
        footer = {"", "Exit codes: 0 every case passed, or was refused as it must be (REFUSED: the status the case expects, or a product "
                + "rule of SPEC section 6), or was skipped; 2 bad argument or case file; 4 a case failed or could not be judged."})
final class CheckCommand implements Callable<Integer> {
    /** Exit code when a case failed or could not be judged. */
    static final int EXIT_CASES_FAILED = 4;

    @ParentCommand
    OpscvCli parent;

    @Parameters(index = "0", paramLabel = "FILE.json", description = "The case file.")
    Path caseFile;

    @Option(names = "--platform", paramLabel = "NAME",
            description = "Run every case as this platform: cpu, ascend950, ascend910_93, ascend910b, ascend910, ascend310b, "
                    + "ascend310p (default: each case's 'platform', else cpu).")
    String platformName;

    @Option(names = "--report", paramLabel = "DIR", description = "Also write an HTML report, DIR/index.html.")
    Path reportDir;

    @Option(names = "--actual", paramLabel = "DIR",
            description = "For an ATK file: judge the hardware results in DIR (DIR/<id>.npy per case, encoded like the "
                    + "operator's output) by each case's standard instead of running the operators.")
    Path actualDir;

    @Override
    public Integer call() throws Exception {
        Platform platform = platformName == null ? null : OpscvCli.platform(platformName, "--platform");
        List<CheckCase> cases = actualDir == null ? CaseFiles.read(caseFile) : CaseFiles.readWithResults(caseFile, actualDir);
        parent.err().println("check: " + cases.size() + " cases from " + caseFile);
        CheckRun run = Checker.check(caseFile.toString(), cases, platform, line -> parent.err().println("check: " + line));
        parent.out().print(SummaryTable.format(run));
        if (reportDir != null) {
            Path page = HtmlReport.write(run, reportDir);
            parent.err().println("check: report written to " + page);
        }
        return run.passed() ? OpscvCli.EXIT_OK : EXIT_CASES_FAILED;
    }
}
