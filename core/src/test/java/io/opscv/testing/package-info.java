/** Test utilities shared by the modules' tests (published in opscv-core's test-jar). */
package io.opscv.testing;
