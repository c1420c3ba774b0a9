package io.memorychain.api.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.memories.ConsolidateBody;
import io.memorychain.api.memories.CreateMemoryBody;
import io.memorychain.api.memories.MemoryRequests;
import io.memorychain.api.memories.UpdateMemoryBody;
import io.memorychain.api.request.InputRules;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Request decoding as REST, gRPC (whose messages become the same bodies) and MCP do it: JSON into the body records with
 * the strict deserializers, then into the sequencer's requests ({@link MemoryRequests}). The first byte picks the body,
 * the rest is its JSON. Every input decodes and maps, or is refused as a 400: unreadable JSON or an
 * {@link ApiException}; nothing else escapes.
 */
class RequestDecodingFuzzTest {

    private static final MemoryRequests REQUESTS = new MemoryRequests(new InputRules(2_000, 10));

    @Test
    void theFuzzedDecodingIsTheStrictOneOfTheService() {
        assertThat(FuzzJson.read("{\"content\": 42}", CreateMemoryBody.class))
                .as("a number is not text")
                .isNull();
        assertThat(FuzzJson.read("{\"content\": \"x\", \"nope\": 1}", CreateMemoryBody.class))
                .as("unknown fields are refused")
                .isNull();
        assertThat(FuzzJson.read("{\"content\": \"x\"}", CreateMemoryBody.class))
                .isNotNull();
    }

    @FuzzTest(maxDuration = "2m")
    void decode(byte[] data) {
        if (data.length == 0) {
            return;
        }
        String json = FuzzJson.text(Arrays.copyOfRange(data, 1, data.length));
        try {
            switch (Math.floorMod(data[0], 3)) {
                case 0 -> {
                    CreateMemoryBody body = FuzzJson.read(json, CreateMemoryBody.class);
                    if (body != null) {
                        REQUESTS.create(body);
                    }
                }
                case 1 -> {
                    UpdateMemoryBody body = FuzzJson.read(json, UpdateMemoryBody.class);
                    if (body != null) {
                        REQUESTS.update("s1-1", body);
                    }
                }
                default -> {
                    ConsolidateBody body = FuzzJson.read(json, ConsolidateBody.class);
                    if (body != null) {
                        REQUESTS.consolidate("s1", body);
                    }
                }
            }
        } catch (ApiException refused) {
            // 400 with its code
        }
    }
}
