package io.memorychain.api.rollback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.domain.Evolver;
import io.memorychain.domain.rollback.ChainHistory;
import io.memorychain.domain.rollback.RollbackPlan;
import io.memorychain.domain.rollback.RollbackSpec;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * One rollback plan at a time on an instance: a second dry run waits for the first (it never replays a chain beside
 * it), and one that waits longer than the queue allows gets 503 UNAVAILABLE.
 */
class RollbacksTest {

    private static final RollbackSpec TO_SEQ_0 = RollbackSpec.of(null, null, null, null, 0L, null);

    /** An empty chain whose first read blocks until {@link #finish} is counted down. */
    private static final class BlockingChain implements ChainSource {
        final CountDownLatch firstEntered = new CountDownLatch(1);
        final CountDownLatch finish = new CountDownLatch(1);
        final AtomicInteger reading = new AtomicInteger();
        final AtomicInteger mostAtOnce = new AtomicInteger();
        final AtomicInteger reads = new AtomicInteger();

        @Override
        public long read(String space, Consumer<MemoryEvent> sink, Progress progress) {
            mostAtOnce.accumulateAndGet(reading.incrementAndGet(), Math::max);
            try {
                if (reads.incrementAndGet() == 1) {
                    firstEntered.countDown();
                    assertThat(finish.await(30, TimeUnit.SECONDS)).isTrue();
                }
                return 0;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } finally {
                reading.decrementAndGet();
            }
        }
    }

    private static void awaitParked(Thread thread) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (thread.getState() != Thread.State.TIMED_WAITING) {
            assertThat(System.nanoTime()).as("the second plan waits").isLessThan(deadline);
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    @Test
    void aSecondPlanWaitsForTheFirstInsteadOfReplayingBesideIt() throws Exception {
        BlockingChain chain = new BlockingChain();
        Rollbacks rollbacks = new Rollbacks(chain, null, null, Duration.ofSeconds(30));
        CompletableFuture<RollbackPlan> first = CompletableFuture.supplyAsync(() -> rollbacks.plan("s", TO_SEQ_0));
        assertThat(chain.firstEntered.await(30, TimeUnit.SECONDS)).isTrue();

        CompletableFuture<RollbackPlan> second = new CompletableFuture<>();
        Thread waiting = new Thread(() -> {
            try {
                second.complete(rollbacks.plan("s", TO_SEQ_0));
            } catch (RuntimeException e) {
                second.completeExceptionally(e);
            }
        });
        waiting.start();
        awaitParked(waiting);
        assertThat(chain.reads).as("the second has not started reading").hasValue(1);

        chain.finish.countDown();
        assertThat(first.get(30, TimeUnit.SECONDS).isEmpty()).isTrue();
        assertThat(second.get(30, TimeUnit.SECONDS).isEmpty()).isTrue();
        assertThat(chain.reads).hasValue(2);
        assertThat(chain.mostAtOnce).hasValue(1);
    }

    @Test
    void aPlanThatWaitsLongerThanTheQueueAllowsIsUnavailable() throws Exception {
        BlockingChain chain = new BlockingChain();
        Rollbacks rollbacks = new Rollbacks(chain, null, null, Duration.ofMillis(50));
        CompletableFuture<RollbackPlan> first = CompletableFuture.supplyAsync(() -> rollbacks.plan("s", TO_SEQ_0));
        assertThat(chain.firstEntered.await(30, TimeUnit.SECONDS)).isTrue();

        assertThatThrownBy(() -> rollbacks.plan("s", TO_SEQ_0)).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCodes.UNAVAILABLE);
            assertThat(e.status().getCode()).isEqualTo(503);
            assertThat(e.getMessage()).contains("another rollback plan");
        });

        chain.finish.countDown();
        assertThat(first.get(30, TimeUnit.SECONDS).isEmpty()).isTrue();
        assertThat(rollbacks.plan("s", TO_SEQ_0).isEmpty())
                .as("the turn was given back")
                .isTrue();
    }

    /** An empty chain that counts its reads. */
    private static final class CountingChain implements ChainSource {
        final AtomicInteger reads = new AtomicInteger();

        @Override
        public long read(String space, Consumer<MemoryEvent> sink, Progress progress) {
            reads.incrementAndGet();
            return 0;
        }
    }

    /** A space of {@code head} events whose history fails to list them when {@code outOfStep}. */
    private static ChainHistory history(long head, boolean outOfStep) {
        return new ChainHistory() {
            @Override
            public long head() {
                return head;
            }

            @Override
            public Step step(long seq) {
                throw new IllegalStateException("no audit entry for seq " + seq);
            }

            @Override
            public void steps(long afterSeq, Consumer<Step> visit) {
                if (outOfStep) {
                    throw new IllegalStateException("the audit view skips a seq");
                }
            }

            @Override
            public Memory memoryAt(String id, long seq) {
                return null;
            }

            @Override
            public Evolver.Edge edgeAt(String fromId, String toId, long seq) {
                return null;
            }
        };
    }

    @Test
    void aSpaceWhoseViewsHoldItsHistoryIsPlannedWithoutReadingTheChainAndOtherwiseByReplay() {
        AtomicInteger reads = new AtomicInteger();
        ChainHistory[] views = {history(3, false)};
        ChainSource chain = new ChainSource() {
            @Override
            public Optional<ChainHistory> history(String space) {
                return Optional.ofNullable(views[0]);
            }

            @Override
            public long read(String space, Consumer<MemoryEvent> sink, Progress progress) {
                reads.incrementAndGet();
                return 0;
            }
        };
        Rollbacks rollbacks = new Rollbacks(chain, null, null, Duration.ofSeconds(30));

        assertThat(rollbacks.plan("s", TO_SEQ_0).headSeq()).isEqualTo(3);
        assertThat(reads).as("planned from the views").hasValue(0);

        views[0] = history(3, true);
        assertThat(rollbacks.plan("s", TO_SEQ_0).headSeq())
                .as("the replayed empty chain")
                .isZero();
        assertThat(reads).as("views out of step: replayed").hasValue(1);

        views[0] = null;
        rollbacks.plan("s", TO_SEQ_0);
        assertThat(reads).as("no history in the views: replayed").hasValue(2);
        views[0] = history(3, false);
        assertThatThrownBy(() -> rollbacks.plan("s", RollbackSpec.session("s1")))
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCodes.NOT_FOUND));
        assertThat(reads).as("a session's start is found in the chain").hasValue(3);
    }

    @Test
    void anApplyNamingTheDryRunsDigestReusesItsPlanInsteadOfReplayingTheChain() {
        CountingChain chain = new CountingChain();
        AtomicLong clock = new AtomicLong();
        Rollbacks rollbacks = new Rollbacks(chain, null, null, Duration.ofSeconds(30), clock::get);
        RollbackPlan dryRun = rollbacks.plan("s", TO_SEQ_0);

        assertThat(rollbacks.planToApply("s", TO_SEQ_0, dryRun.digest())).isSameAs(dryRun);
        assertThat(chain.reads).as("no second replay").hasValue(1);

        assertThat(rollbacks.planToApply("s", TO_SEQ_0, null)).isNotSameAs(dryRun);
        assertThat(rollbacks.planToApply("s", TO_SEQ_0, "another digest")).isNotSameAs(dryRun);
        assertThat(rollbacks.planToApply("t", TO_SEQ_0, dryRun.digest()).space())
                .isEqualTo("t");
        assertThat(chain.reads)
                .as("without the digest, with another, in another space: planned again")
                .hasValue(4);
    }

    @Test
    void aDryRunOlderThanTheReuseWindowOrPushedOutIsPlannedAgain() {
        CountingChain chain = new CountingChain();
        AtomicLong clock = new AtomicLong();
        Rollbacks rollbacks = new Rollbacks(chain, null, null, Duration.ofSeconds(30), clock::get);
        RollbackPlan dryRun = rollbacks.plan("s", TO_SEQ_0);
        clock.addAndGet(Rollbacks.PLAN_REUSE.toNanos());
        assertThat(rollbacks.planToApply("s", TO_SEQ_0, dryRun.digest())).isNotSameAs(dryRun);

        RollbackPlan again = rollbacks.plan("s", TO_SEQ_0);
        for (int i = 0; i < Rollbacks.REUSED_PLANS; i++) {
            rollbacks.plan("other-" + i, TO_SEQ_0);
        }
        int reads = chain.reads.get();
        assertThat(rollbacks.planToApply("s", TO_SEQ_0, again.digest())).isNotSameAs(again);
        assertThat(chain.reads).hasValue(reads + 1);
    }
}
