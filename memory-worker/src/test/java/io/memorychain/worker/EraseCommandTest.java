package io.memorychain.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code erase}'s command line without a cluster. */
class EraseCommandTest {

    private static EraseCommand.Options parse(String... args) throws UsageException {
        return EraseCommand.parse(List.of(args));
    }

    @Test
    void aDryRunByDefault() throws Exception {
        EraseCommand.Options o = parse("--bootstrap-servers", "k:9092", "--space", "s", "--memory", "m1");

        assertThat(o.apply()).isFalse();
        assertThat(o.memoryId()).isEqualTo("m1");
        assertThat(o.admin()).isEqualTo("ops");
        assertThat(o.timeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(o.topics().events()).isEqualTo("memory.events.v1");
    }

    @Test
    void applyingNeedsAReason() throws Exception {
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k", "--space", "s", "--memory", "m1", "--apply"))
                .hasMessage("--apply needs --reason (kept on the chain)");
        EraseCommand.Options o = parse(
                "--bootstrap-servers",
                "k",
                "--space",
                "s",
                "--memory",
                "m1",
                "--apply",
                "--reason",
                "subject request",
                "--admin",
                "dpo",
                "--timeout",
                "PT5S",
                "--topic-prefix",
                "t.");
        assertThat(o.apply()).isTrue();
        assertThat(o.reason()).isEqualTo("subject request");
        assertThat(o.admin()).isEqualTo("dpo");
        assertThat(o.timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(o.topics().events()).isEqualTo("t.memory.events.v1");
    }

    @Test
    void rejectsMissingOrBadOptionsWithAUsageMessage() {
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k", "--space", "s"))
                .hasMessage("--memory is required");
        assertThatThrownBy(
                        () -> parse("--bootstrap-servers", "k", "--space", "s", "--memory", "m", "--timeout", "soon"))
                .hasMessageContaining("ISO-8601 duration");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k", "--space", "s", "--memory", "m", "--force"))
                .hasMessageContaining("--force");
    }
}
