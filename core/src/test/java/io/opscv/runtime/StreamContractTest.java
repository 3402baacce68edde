package io.opscv.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Stream's javadoc states its contract (ordering, thread safety, what synchronize reports, what close
 * does) and no machine measurements; the clauses StreamSchedulingTest does not already cover are checked
 * here against the behaviour.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StreamContractTest {
    private static final Path SOURCE = Path.of("src/main/java/io/opscv/runtime/Stream.java");

    /** Every javadoc comment of the file (a measurement in any of them would be API documentation). */
    private static String javadoc() throws IOException {
        Matcher m = Pattern.compile("/\\*\\*(.*?)\\*/", Pattern.DOTALL).matcher(Files.readString(SOURCE));
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            sb.append(m.group(1)).append('\n');
        }
        return sb.toString();
    }

    @Test
    void theJavadocStatesTheContractAndNoMeasurements() throws IOException {
        String doc = javadoc();
        for (String clause : new String[] {"Ordering.", "Where tasks run.", "Thread safety.", "Failures.", "Close."}) {
            assertTrue(doc.contains("<b>" + clause + "</b>"), "missing contract clause " + clause);
        }
        Matcher figure = Pattern.compile("\\d+(\\.\\d+)?\\s*(µs|us|ms|ns|GHz)\\b|Zen|median|host took").matcher(doc);
        assertFalse(figure.find(), () -> "a measurement in Stream's javadoc: " + figure.group());
    }

    @Test
    void closeReportsNoFailureAndALaterSynchronizeStillDoes() {
        try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0)) {
            Stream stream = device.createStream();
            AtomicInteger after = new AtomicInteger();
            stream.launch(() -> {
                throw AclnnException.invalid("first");
            });
            stream.launch(() -> {
                throw AclnnException.invalid("second");
            });
            stream.launch(after::incrementAndGet);
            stream.close();
            assertEquals(1, after.get(), "the tasks after a failed one still run");
            AclnnException e = assertThrows(AclnnException.class, stream::synchronize);
            assertEquals("first", e.getMessage());
            stream.synchronize();
        }
    }

    @Test
    void closeFromATaskOfTheSameStreamReturnsAndTheQueueStillDrains() {
        try (AclRuntime acl = AclRuntime.init(); Device device = acl.setDevice(0)) {
            Stream stream = device.createStream();
            AtomicInteger done = new AtomicInteger();
            java.util.concurrent.CountDownLatch queued = new java.util.concurrent.CountDownLatch(1);
            // The closing task waits until the next task is queued, so that the close always finds it queued.
            stream.launch(() -> {
                try {
                    queued.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                stream.close();
            });
            stream.launch(done::incrementAndGet);
            queued.countDown();
            stream.close();
            assertEquals(1, done.get());
            assertFalse(stream.isOpen());
        }
    }
}
