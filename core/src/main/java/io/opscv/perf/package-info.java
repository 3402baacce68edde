/** Internal: the benchmark cases and fixtures the CLI's {@code bench} and the JMH benchmarks share. */
package io.opscv.perf;
