package io.memorychain.projector.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class AppliedSeqTrackerTest {

    private final AppliedSeqTracker tracker = new AppliedSeqTracker();

    @Test
    void aWaiterIsWokenByItsSpaceOnlyAndReturnsOnceTheViewsReachItsSeq() throws Exception {
        AtomicLong appliedInA = new AtomicLong(3);
        AtomicInteger reads = new AtomicInteger();
        AtomicBoolean result = new AtomicBoolean();
        Thread waiter = new Thread(() -> {
            try {
                result.set(tracker.await(
                        "a",
                        () -> {
                            reads.incrementAndGet();
                            return appliedInA.get();
                        },
                        5,
                        TimeUnit.SECONDS.toNanos(30)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        waiter.start();

        for (int seq = 1; seq <= 20; seq++) {
            awaitState(waiter, Thread.State.TIMED_WAITING);
            int before = reads.get();
            tracker.applied("b", seq); // another space's event: a woken waiter of "a" would read its views again
            long window = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(25);
            while (reads.get() == before && System.nanoTime() < window) {
                Thread.onSpinWait(); // a bounded window in which nothing must happen
            }
        }
        assertThat(reads.get())
                .as("reads of a's applied seq while 20 events of b were applied")
                .isLessThan(3);

        appliedInA.set(5);
        tracker.applied("a", 5);
        waiter.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(waiter.isAlive()).isFalse();
        assertThat(result).isTrue();
        assertThat(tracker.spacesWaiting()).isZero();
    }

    @Test
    void aWaitEndsFalseAtItsTimeoutAndLeavesNoMonitorBehind() throws Exception {
        assertThat(tracker.await("a", () -> 1, 2, TimeUnit.MILLISECONDS.toNanos(20)))
                .isFalse();
        assertThat(tracker.await("a", () -> 2, 2, TimeUnit.MILLISECONDS.toNanos(20)))
                .isTrue();
        assertThat(tracker.spacesWaiting()).isZero();
    }

    @Test
    void observersAreToldOfEveryAppliedEvent() {
        List<String> seen = new ArrayList<>();
        tracker.observe((space, seq) -> seen.add(space + "#" + seq));
        tracker.applied("a", 1);
        tracker.applied("b", 7);
        assertThat(seen).containsExactly("a#1", "b#7");
    }

    private static void awaitState(Thread thread, Thread.State state) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (thread.getState() != state) {
            assertThat(System.nanoTime())
                    .as("the waiter was " + state + " within 30 s")
                    .isLessThan(deadline);
            Thread.onSpinWait();
        }
    }
}
