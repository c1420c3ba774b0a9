package io.memorychain.console.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import io.memorychain.console.ConsoleConfig;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ConsoleSessionsTest {

    private static final Principal ANA = new Principal("ana", Role.USER, "ana", List.of("home"));

    /** A clock the test moves. */
    private static final class Hands extends Clock {
        private Instant now = Instant.parse("2026-11-28T10:00:00Z");

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private static ConsoleConfig config(Duration idle, int max) {
        ConsoleConfig c = new ConsoleConfig();
        c.setIdleTimeout(idle);
        c.setMaxSessions(max);
        return c;
    }

    @Test
    void aSessionEndsAfterTheIdleTimeoutUnusedAndUseKeepsItAlive() {
        Hands clock = new Hands();
        ConsoleSessions sessions = new ConsoleSessions(config(Duration.ofMinutes(15), 10), clock);
        ConsoleSession s = sessions.open("mc_key", ANA);

        clock.now = clock.now.plus(Duration.ofMinutes(14));
        assertThat(sessions.find(s.id())).contains(s);
        sessions.touch(s, ANA);
        clock.now = clock.now.plus(Duration.ofMinutes(14));
        assertThat(sessions.find(s.id())).as("used 14 minutes ago").contains(s);
        clock.now = clock.now.plus(Duration.ofMinutes(2));
        assertThat(sessions.find(s.id())).as("unused for 16 minutes").isEmpty();
        assertThat(sessions.size()).isZero();
    }

    @Test
    void sessionsAreBoundedAndTheLeastRecentlyUsedEndsFirst() {
        Hands clock = new Hands();
        ConsoleSessions sessions = new ConsoleSessions(config(Duration.ofHours(1), 2), clock);
        ConsoleSession first = sessions.open("k1", ANA);
        clock.now = clock.now.plusSeconds(1);
        ConsoleSession second = sessions.open("k2", ANA);
        clock.now = clock.now.plusSeconds(1);
        sessions.touch(first, ANA);
        clock.now = clock.now.plusSeconds(1);
        ConsoleSession third = sessions.open("k3", ANA);

        assertThat(sessions.size()).isEqualTo(2);
        assertThat(sessions.find(second.id())).isEmpty();
        assertThat(sessions.find(first.id())).isPresent();
        assertThat(sessions.find(third.id())).isPresent();
    }

    @Test
    void idsAndCsrfTokensAreDistinct256BitTokens() {
        ConsoleSessions sessions = new ConsoleSessions(config(Duration.ofMinutes(15), 1_000));
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            ConsoleSession s = sessions.open("k", ANA);
            assertThat(s.id()).hasSize(43).matches("[A-Za-z0-9_-]+");
            assertThat(s.csrf()).hasSize(43).isNotEqualTo(s.id());
            assertThat(seen.add(s.id())).isTrue();
            assertThat(seen.add(s.csrf())).isTrue();
        }
    }

    @Test
    void aFlashMessageIsShownOnce() {
        ConsoleSession s = new ConsoleSessions(config(Duration.ofMinutes(15), 10)).open("k", ANA);
        s.flash(new ConsoleSession.Flash("Approved", false, null));
        assertThat(s.takeFlash()).isEqualTo(new ConsoleSession.Flash("Approved", false, null));
        assertThat(s.takeFlash()).isNull();
    }
}
