package io.memorychain.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.avro.RollbackScope;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code rollback}'s command line without a cluster. */
class RollbackCommandTest {

    private static RollbackCommand.Options parse(String... args) throws UsageException {
        return RollbackCommand.parse(List.of(args));
    }

    @Test
    void aDryRunOfTheWholeSpaceByDefault() throws Exception {
        RollbackCommand.Options o = parse("--bootstrap-servers", "k:9092", "--space", "s", "--to-seq", "12");
        assertThat(o.spec().scope()).isEqualTo(RollbackScope.SPACE);
        assertThat(o.spec().toSeq()).isEqualTo(12);
        assertThat(o.apply()).isFalse();
        assertThat(o.admin()).isEqualTo("ops");
        assertThat(o.topics().events()).isEqualTo("memory.events.v1");
    }

    @Test
    void parsesEachScope() throws Exception {
        assertThat(parse(
                                "--bootstrap-servers",
                                "k",
                                "--space",
                                "s",
                                "--to-time",
                                "2026-11-25T06:00:00Z",
                                "--memory",
                                "m1")
                        .spec())
                .satisfies(s -> {
                    assertThat(s.scope()).isEqualTo(RollbackScope.MEMORY);
                    assertThat(s.toTime()).isEqualTo(Instant.parse("2026-11-25T06:00:00Z"));
                });
        assertThat(parse("--bootstrap-servers", "k", "--space", "s", "--session", "r1")
                        .spec()
                        .scope())
                .isEqualTo(RollbackScope.SESSION);
        assertThat(parse("--bootstrap-servers", "k", "--space", "s", "--reflection", "r0000005abcd")
                        .spec())
                .satisfies(s -> {
                    assertThat(s.scope()).isEqualTo(RollbackScope.REFLECTION);
                    assertThat(s.scopeId()).isEqualTo("r0000005abcd");
                });
        RollbackCommand.Options actor = parse(
                "--bootstrap-servers",
                "k",
                "--space",
                "s",
                "--actor",
                "worker:tom",
                "--from-seq",
                "5",
                "--to-seq",
                "9",
                "--reason",
                "bad insights",
                "--apply",
                "--admin",
                "alice");
        assertThat(actor.spec().scope()).isEqualTo(RollbackScope.ACTOR);
        assertThat(actor.spec().toSeq()).isEqualTo(5);
        assertThat(actor.spec().rangeToSeq()).isEqualTo(9);
        assertThat(actor.apply()).isTrue();
        assertThat(actor.reason()).isEqualTo("bad insights");
        assertThat(actor.admin()).isEqualTo("alice");
    }

    @Test
    void rejectsBadCombinationsWithAUsageMessage() {
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k")).hasMessage("--space is required");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k", "--space", "s"))
                .hasMessageContaining("exactly one of to-seq and to-time");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k", "--space", "s", "--to-seq", "x"))
                .hasMessageContaining("--to-seq must be a whole number");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k", "--space", "s", "--to-time", "noon"))
                .hasMessageContaining("--to-time must be an ISO-8601 instant");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k", "--space", "s", "--to-seq", "3", "--apply"))
                .hasMessage("--apply needs --reason (kept on the chain)");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k", "--space", "s", "--memory", "m", "--session", "r"))
                .hasMessageContaining("at most one of");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k", "--space", "s", "--actor", "a"))
                .hasMessageContaining("needs from-seq");
    }
}
