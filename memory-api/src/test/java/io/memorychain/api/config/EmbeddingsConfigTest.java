package io.memorychain.api.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.api.topology.TopologyBackend;
import io.memorychain.embeddings.EmbeddingModel;
import io.micronaut.context.ApplicationContext;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code memory.embeddings.model}: which model embeds memories and queries. */
class EmbeddingsConfigTest {

    @Test
    void miniLmIsTheDefaultAndEachModelIsChosenByName() {
        try (ApplicationContext ctx = ApplicationContext.run(TopologyBackend.ENV)) {
            assertThat(ctx.getBean(EmbeddingsConfig.class).embeddingModel()).isEqualTo(EmbeddingModel.MINILM);
        }
        for (EmbeddingModel model : EmbeddingModel.values()) {
            try (ApplicationContext ctx = ApplicationContext.run(Map.of("memory.embeddings.model", model.configName()),
                    TopologyBackend.ENV)) {
                assertThat(ctx.getBean(EmbeddingsConfig.class).embeddingModel()).isEqualTo(model);
            }
        }
    }

    @Test
    void anUnknownModelNamesThePropertyAndTheAcceptedValues() {
        try (ApplicationContext ctx = ApplicationContext.run(Map.of("memory.embeddings.model", "ada-002"),
                TopologyBackend.ENV)) {
            assertThatThrownBy(() -> ctx.getBean(EmbeddingsConfig.class).embeddingModel())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("memory.embeddings.model").hasMessageContaining("minilm, bge-small, e5-small");
        }
    }
}
