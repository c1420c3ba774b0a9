package io.memorychain.projector.projection;

import static io.memorychain.projector.ChainHarness.AGENT;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.events.Requests;
import io.memorychain.projector.ChainHarness;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The projection records, for every record it reads from the two inputs that write the search index, the record's
 * offset in its logged position store and in the index, whatever happens to the record (projected, skipped as a replay,
 * dead-lettered): the position a restarted task compares with the index's commit (docs/architecture.md §6).
 */
class IndexPositionTest {

    private static final String SPACE = "pos";
    private final ChainHarness h = new ChainHarness();

    @AfterEach
    void close() {
        h.close();
    }

    private Map<String, Long> stored() {
        Map<String, Long> at = new HashMap<>();
        try (KeyValueIterator<String, Long> all = h.indexPositionStore().all()) {
            all.forEachRemaining((KeyValue<String, Long> kv) -> at.put(kv.key, kv.value));
        }
        return at;
    }

    private Map<String, Long> indexed() {
        return h.indexes.get(0).orElseThrow().position();
    }

    @Test
    void everyEventAndEmbeddingRecordAdvancesTheStoreAndTheIndexTogether() {
        assertThat(stored()).isEmpty();
        h.submit(Requests.create(SPACE, AGENT, "The user adopted a kitten named Miso"));
        h.submit(Requests.create(SPACE, AGENT, "Invoice INV-117 was paid late"));
        assertThat(stored()).isEqualTo(Map.of("events", 1L)).isEqualTo(indexed());

        h.replayIntoProjection(h.chain().get(0)); // skipped: already applied
        assertThat(stored()).isEqualTo(Map.of("events", 2L)).isEqualTo(indexed());

        byte[] key = SPACE.getBytes(StandardCharsets.UTF_8);
        h.pipeRawEvent(key, new byte[] {1, 2, 3}); // undecodable: dead-lettered
        h.pipeRawEmbedding(key, new byte[] {4, 5});
        assertThat(h.projectionDeadLetters()).hasSize(2);
        assertThat(stored()).isEqualTo(Map.of("events", 3L, "embeddings", 0L)).isEqualTo(indexed());

        h.submit(Requests.create(SPACE, AGENT, "The VPN drops every evening"));
        assertThat(stored()).isEqualTo(Map.of("events", 4L, "embeddings", 0L)).isEqualTo(indexed());
    }
}
