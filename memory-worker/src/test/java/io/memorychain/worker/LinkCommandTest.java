package io.memorychain.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.embeddings.EmbeddingModel;
import io.memorychain.projector.linker.LinkerSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code link}'s command line without a cluster. */
class LinkCommandTest {

    private static LinkCommand.Options parse(String... args) throws UsageException {
        return LinkCommand.parse(List.of(args));
    }

    @Test
    void defaultsToFiveNeighboursTheMeasuredLinkMinAndTheEmbeddersModel() throws Exception {
        LinkCommand.Options o = parse("--bootstrap-servers", "k:9092");
        assertThat(o.topK()).isEqualTo(5);
        assertThat(o.linkMin()).isEqualTo(LinkerSettings.defaults(o.modelId()).linkMin());
        assertThat(o.applicationId()).isEqualTo("memory-chain-linker");
        assertThat(o.stateDir()).isEqualTo(Path.of("data", "linker"));
        assertThat(o.modelId())
                .isEqualTo(EmbeddingModel.DEFAULT.expectedModelId().orElseThrow())
                .startsWith("e5-small-v2-q@");
        assertThat(o.registry().topic()).isEqualTo("_memory_schemas");
        assertThat(o.topics().requests()).isEqualTo("memory.requests.v1");
    }

    @Test
    void theEmbeddingModelOptionNamesTheConfiguredModelsId() throws Exception {
        assertThat(parse("--bootstrap-servers", "k:9092", "--embedding-model", "e5-small")
                        .modelId())
                .isEqualTo(EmbeddingModel.E5_SMALL.expectedModelId().orElseThrow())
                .startsWith("e5-small-v2-q@");
        assertThat(parse("--bootstrap-servers", "k:9092", "--embedding-model", "bge-small")
                        .modelId())
                .startsWith("bge-small-en-v1.5-q@");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k", "--embedding-model", "gpt"))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("minilm, bge-small, e5-small");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k", "--embedding-model", "minilm", "--model-id", "m"))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("at most one of");
    }

    @Test
    void parsesEveryOption() throws Exception {
        LinkCommand.Options o = parse(
                "--bootstrap-servers=k:9092",
                "--registry-url",
                "http://r:8081",
                "--topic-prefix",
                "t.",
                "--application-id",
                "app",
                "--top-k",
                "3",
                "--link-min",
                "0.8",
                "--state-dir",
                "/tmp/s",
                "--model-id",
                "m");
        assertThat(o.registry().url()).isEqualTo("http://r:8081");
        assertThat(o.topics().events()).isEqualTo("t.memory.events.v1");
        assertThat(o.applicationId()).isEqualTo("app");
        assertThat(o.settings(o.modelId())).isEqualTo(new LinkerSettings(3, 0.8, "m"));
        assertThat(o.stateDir()).isEqualTo(Path.of("/tmp/s"));
    }

    @Test
    void rejectsBadValuesWithAUsageMessage() {
        assertThatThrownBy(() -> parse()).hasMessage("--bootstrap-servers is required");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k", "--top-k", "0"))
                .hasMessageContaining("--top-k must be in 1..100");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k", "--top-k", "five"))
                .hasMessageContaining("--top-k must be a whole number");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k", "--link-min", "1.5"))
                .hasMessageContaining("--link-min must be in (0, 1]");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k", "--registry-url", "u", "--registry-topic", "t"))
                .hasMessageContaining("at most one of");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "k", "--frobnicate"))
                .hasMessageContaining("unknown");
    }

    @Test
    void helpAndUsageErrorsGoThroughWorkerMain() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        WorkerMain main = new WorkerMain(spec -> {
            throw new AssertionError("no registry on a usage error");
        });
        assertThat(main.run(
                        new String[] {"link", "--help"},
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8)))
                .isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("link --bootstrap-servers HOST:PORT");
        assertThat(main.run(
                        new String[] {"link", "--link-min", "x"},
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8)))
                .isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("error: --bootstrap-servers is required")
                .doesNotContain("Exception");
    }
}
