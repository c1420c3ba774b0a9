package io.memorychain.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.jobs.ChainJob;
import io.memorychain.jobs.tom.TomSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tom}'s command line without a cluster. */
class TomCommandTest {

    @TempDir
    Path dir;

    private static TomCommand.Options parse(Map<String, String> env, String... args) throws UsageException {
        return TomCommand.parse(List.of(args), env);
    }

    @Test
    void defaultsToItsOwnGroupLatestStartThreeItemsAndA24HourCooldown() throws Exception {
        TomCommand.Options o = parse(Map.of(), "--bootstrap-servers", "k:9092");

        assertThat(o.groupId()).isEqualTo("memory-chain-tom");
        assertThat(o.instanceId()).isEqualTo("0");
        assertThat(o.worker().transactionalId()).isEqualTo("memory-chain-tom-0");
        assertThat(o.startFrom()).isEqualTo(ChainJob.StartFrom.LATEST);
        assertThat(o.settings()).isEqualTo(TomSettings.defaults());
        assertThat(o.settings().cooldown()).isEqualTo(Duration.ofHours(24));
        assertThat(o.settings().maxTokens()).isEqualTo(220);
        assertThat(o.llm().defaults().configured()).isFalse();
        assertThat(o.topics().events()).isEqualTo("memory.events.v1");
    }

    @Test
    void readsTheModelFromTheEnvironmentThenTheFileThenTheFlags() throws Exception {
        Path file = dir.resolve("llm.properties");
        Files.writeString(
                file,
                "memory.llm.model=file-model\nmemory.llm.daily-token-budget=5000\n"
                        + "memory.llm.agents.space-7.model=agent-model\n");
        Map<String, String> env = Map.of(
                "MEMORY_LLM_BASE_URL",
                "http://127.0.0.1:11434/v1",
                "MEMORY_LLM_MODEL",
                "env-model",
                "MEMORY_LLM_API_KEY",
                "sk-env");

        TomCommand.Options fromEnv = parse(env, "--bootstrap-servers", "k");
        TomCommand.Options fromFile = parse(env, "--bootstrap-servers", "k", "--llm-config", file.toString());
        TomCommand.Options fromFlags = parse(
                env,
                "--bootstrap-servers",
                "k",
                "--llm-config",
                file.toString(),
                "--llm-model",
                "flag-model",
                "--start-from",
                "earliest",
                "--min-items",
                "5",
                "--cooldown",
                "PT1H");

        assertThat(fromEnv.llm().defaults().model()).isEqualTo("env-model");
        assertThat(fromEnv.llm().defaults().apiKey()).isEqualTo("sk-env");
        assertThat(fromFile.llm().defaults().model()).isEqualTo("file-model");
        assertThat(fromFile.llm().defaults().dailyTokenBudget()).isEqualTo(5000);
        assertThat(fromFile.llm().forAgent("space-7").model()).isEqualTo("agent-model");
        assertThat(fromFlags.llm().defaults().model()).isEqualTo("flag-model");
        assertThat(fromFlags.startFrom()).isEqualTo(ChainJob.StartFrom.EARLIEST);
        assertThat(fromFlags.settings()).isEqualTo(new TomSettings(5, Duration.ofHours(1), 220));
    }

    @Test
    void rejectsBadValuesWithAUsageMessage() {
        assertThatThrownBy(() -> parse(Map.of())).hasMessage("--bootstrap-servers is required");
        assertThatThrownBy(() -> parse(Map.of(), "--bootstrap-servers", "k", "--start-from", "middle"))
                .hasMessageContaining("--start-from must be latest or earliest");
        assertThatThrownBy(() -> parse(Map.of(), "--bootstrap-servers", "k", "--min-items", "0"))
                .hasMessageContaining("--min-items must be in 1..100");
        assertThatThrownBy(() -> parse(Map.of(), "--bootstrap-servers", "k", "--cooldown", "daily"))
                .hasMessageContaining("--cooldown must be an ISO-8601 duration");
        assertThatThrownBy(() -> parse(Map.of(), "--bootstrap-servers", "k", "--llm-base-url", "http://h/v1"))
                .hasMessageContaining("memory.llm.model is required");
        assertThatThrownBy(() -> parse(Map.of(), "--bootstrap-servers", "k", "--llm-config", "/nonexistent/x"))
                .hasMessageContaining("cannot read --llm-config");
    }

    @Test
    void withNoModelLogsSkippedAndExitsWithoutOpeningTheRegistry() throws Exception {
        List<RegistrySpec> opened = new ArrayList<>();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int status = TomCommand.run(
                parse(Map.of(), "--bootstrap-servers", "127.0.0.1:1"),
                spec -> {
                    opened.add(spec);
                    throw new UnsupportedOperationException("no registry in this test");
                },
                new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(status).isZero();
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("tom: skipped: no model");
        assertThat(opened).isEmpty();
    }

    @Test
    void hasItsHelp() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = new WorkerMain(spec -> {
                    throw new UnsupportedOperationException();
                })
                .run(
                        new String[] {"tom", "--help"},
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

        assertThat(status).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("tom --bootstrap-servers HOST:PORT")
                .contains("--cooldown");
    }
}
