/**
 * The verification harness behind {@code opscv check}: case files (explicit cases, seeded sweeps, upstream's
 * ATK files), the per-element criterion and the upstream MERE/MARE standard, verdicts, and the HTML report.
 */
package io.opscv.verify;
