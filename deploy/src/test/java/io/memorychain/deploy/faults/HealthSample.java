package io.memorychain.deploy.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** One answer of an instance's {@code /health}: HTTP status (0: no answer) and body. */
record HealthSample(int status, String body) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Answered 200 with status UP. */
    boolean up() {
        return status == 200 && "UP".equals(json().path("status").asText());
    }

    /** Answered, and said it is not UP (DOWN or any other status), rather than not answering at all. */
    boolean saysNotUp() {
        return status != 0 && !up() && json().has("status");
    }

    /**
     * Why it is not UP, as the body says: each indicator whose status is not UP with its details, e.g.
     * {@code kafkaStreams DOWN {"sequencer":"PENDING_ERROR",...}}; empty when the body names none.
     */
    String reason() {
        List<String> reasons = new ArrayList<>();
        JsonNode details = json().path("details");
        for (Map.Entry<String, JsonNode> e : details.properties()) {
            String s = e.getValue().path("status").asText();
            if (!s.isEmpty() && !"UP".equals(s)) {
                reasons.add(e.getKey() + " " + s + " " + e.getValue().path("details"));
            }
        }
        return String.join("; ", reasons);
    }

    private JsonNode json() {
        try {
            return JSON.readTree(body);
        } catch (java.io.IOException e) {
            return JSON.createObjectNode();
        }
    }
}
