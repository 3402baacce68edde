package io.opscv.verify;

import io.opscv.runtime.Platform;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The results of checking a case file.
 *
 * @param source           the case file, as given
 * @param platformOverride the platform every case ran as ({@code --platform}), or {@code null}
 * @param results          one per case, in file order
 */
public record CheckRun(String source, Platform platformOverride, List<CaseResult> results) {
    /** Copies {@code results}. */
    public CheckRun {
        results = List.copyOf(results);
    }

    /** Cases with {@code verdict}. */
    public long count(Verdict verdict) {
        return results.stream().filter(r -> r.verdict() == verdict).count();
    }

    /** Whether no case failed or errored. */
    public boolean passed() {
        return results.stream().noneMatch(r -> r.verdict().failed());
    }

    /**
     * One line: counts per verdict; how many refusals were a case's expected status and which platforms refused
     * cases (SPEC §6), how many results were judged against the sizes-only golden of SPEC §6's fallback plan, and
     * which ops were skipped.
     */
    public String summaryLine() {
        StringBuilder line = new StringBuilder();
        line.append(results.size()).append(results.size() == 1 ? " case: " : " cases: ")
                .append(count(Verdict.PASS)).append(" passed, ")
                .append(count(Verdict.FAIL)).append(" failed, ")
                .append(count(Verdict.ERROR)).append(" errors, ")
                .append(count(Verdict.REFUSED)).append(" refused, ")
                .append(count(Verdict.SKIP)).append(" skipped");
        Map<String, Integer> refusing = new TreeMap<>();
        Map<String, Integer> skipped = new TreeMap<>();
        long expected = 0;
        for (CaseResult r : results) {
            if (r.verdict() == Verdict.REFUSED && r.checkCase().expectStatus() != null) {
                expected++;
            } else if (r.verdict() == Verdict.REFUSED) {
                Platform p = r.checkCase().platform() != null ? r.checkCase().platform() : Platform.defaultPlatform();
                refusing.merge(p.cliName(), 1, Integer::sum);
            } else if (r.verdict() == Verdict.SKIP) {
                skipped.merge(r.checkCase().op(), 1, Integer::sum);
            }
        }
        long sizesOnly = results.stream().filter(CaseResult::sizesOnlyGolden).count();
        if (expected > 0 || !refusing.isEmpty()) {
            line.append(" (");
            if (expected > 0) {
                line.append(expected).append(" with the status the case expects");
            }
            if (!refusing.isEmpty()) {
                line.append(expected > 0 ? "; " : "").append("refused by ").append(String.join(", ", refusing.keySet()))
                        .append(" as SPEC §6 says");
            }
            line.append(')');
        }
        if (sizesOnly > 0) {
            long differ = results.stream().filter(r -> r.sizesOnlyGolden() && r.withScales() != Verdict.PASS).count();
            line.append("; ").append(sizesOnly).append(" judged against the sizes-only reference (SPEC §6 fallback plan), ")
                    .append(differ).append(" of them outside the standard against SPEC §1 with the given scales");
        }
        if (!skipped.isEmpty()) {
            line.append(" (operator not in this build: ").append(String.join(", ", skipped.keySet())).append(')');
        }
        return line.toString();
    }
}
