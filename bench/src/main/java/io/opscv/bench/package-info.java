/** JMH benchmarks of the 1-D backward and its parts, with the copy baseline the ratios are taken against. */
package io.opscv.bench;
