/**
 * The sweep of {@code opscv bench --sweep} (internal): seeded distributions of the shapes users bring
 * ({@link io.opscv.perf.sweep.Linear1dDistribution}, {@link io.opscv.perf.sweep.Bilinear2dDistribution}),
 * the fixture that runs a case through the public two-phase API, the runner that times it against a copy
 * of the same bytes, and the summary (median, 90th percentile, worst). How to use it: {@code docs/KERNELS.md}.
 */
package io.opscv.perf.sweep;
