package io.memorychain.api.backend;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class HeapReleaseTest {

    private static final long MIB = 1L << 20;

    /** An old generation whose collection leaves {@code live} bytes in {@code live / 0.8} committed. */
    private static final class FakeOldGeneration implements HeapRelease.OldGeneration {
        long committed;
        long used;
        long liveAfter;
        long live;
        int collections;

        /** MiB committed, in use, live after the last collection, and live at the next one. */
        FakeOldGeneration(long committed, long used, long liveAfter, long live) {
            this.committed = committed * MIB;
            this.used = used * MIB;
            this.liveAfter = liveAfter * MIB;
            this.live = live * MIB;
        }

        /** Promotions since the last check: {@code mib} more in use and committed. */
        void promote(long mib) {
            used += mib * MIB;
            committed += mib * MIB;
        }

        @Override
        public long committed() {
            return committed;
        }

        @Override
        public long used() {
            return used;
        }

        @Override
        public long liveAfterLastCollection() {
            return liveAfter;
        }

        @Override
        public void collect() {
            collections++;
            liveAfter = live;
            used = live;
            committed = live * 5 / 4;
        }
    }

    @Test
    void dueWhilePromotingPastHalfAgainTheLiveDataAnd32MiB() {
        assertThat(HeapRelease.due(182 * MIB, 100 * MIB, false)).isFalse();
        assertThat(HeapRelease.due(183 * MIB, 100 * MIB, false)).isTrue();
        assertThat(HeapRelease.due(33 * MIB, 0, false)).isTrue();
    }

    @Test
    void dueWhenQuietPastAQuarterMoreThanTheLiveDataAnd16MiB() {
        assertThat(HeapRelease.due(141 * MIB, 100 * MIB, true)).isFalse();
        assertThat(HeapRelease.due(142 * MIB, 100 * MIB, true)).isTrue();
    }

    @Test
    void collectsAnOldGenerationGrownWithGarbageThenLeavesItAlone() {
        FakeOldGeneration old = new FakeOldGeneration(248, 246, 105, 108);
        AtomicLong clock = new AtomicLong();
        try (HeapRelease release = new HeapRelease(old, clock::get)) {
            assertThat(release.check()).isTrue();
            assertThat(old.collections).isEqualTo(1);
            assertThat(old.committed).isEqualTo(135 * MIB);

            clock.addAndGet(HeapRelease.MIN_GAP.toNanos() * 10);
            assertThat(release.check()).isFalse();
            assertThat(old.collections).isEqualTo(1);
        }
    }

    @Test
    void collectsOnceThePromotionsStopEvenBelowTheBusyThreshold() {
        FakeOldGeneration old = new FakeOldGeneration(170, 160, 110, 112);
        AtomicLong clock = new AtomicLong();
        try (HeapRelease release = new HeapRelease(old, clock::get)) {
            assertThat(release.check())
                    .as("first check: promotions not known to have stopped")
                    .isFalse();

            old.promote(8);
            assertThat(release.check()).as("still promoting").isFalse();

            assertThat(release.check()).as("quiet since the last check").isTrue();
            assertThat(old.committed).isEqualTo(140 * MIB);
        }
    }

    @Test
    void collectsAtMostOncePerGapWhileTheOldGenerationKeepsGrowing() {
        FakeOldGeneration old = new FakeOldGeneration(300, 290, 0, 150);
        AtomicLong clock = new AtomicLong();
        try (HeapRelease release = new HeapRelease(old, clock::get)) {
            assertThat(release.check()).isTrue();

            // promotions grew it again before the gap passed
            old.promote(240);
            clock.addAndGet(HeapRelease.MIN_GAP.toNanos() - 1);
            assertThat(release.check()).isFalse();

            clock.addAndGet(1);
            old.promote(10);
            assertThat(release.check()).isTrue();
            assertThat(old.collections).isEqualTo(2);
        }
    }

    @Test
    void findsTheOldGenerationOnlyUnderTheSerialCollector() {
        boolean serial = ManagementFactory.getGarbageCollectorMXBeans().stream()
                .anyMatch(gc -> gc.getName().equals("MarkSweepCompact"));
        assertThat(HeapRelease.serialOldGeneration().isPresent()).isEqualTo(serial);
        HeapRelease.serialOldGeneration()
                .ifPresent(old -> assertThat(old.committed()).isPositive());
    }
}
