package io.memorychain.api.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import io.memorychain.api.error.ErrorCodes;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A hostile MCP client over streamable HTTP ({@code POST /mcp}): malformed JSON, wrong JSON-RPC versions and shapes,
 * unknown methods and tools, arguments that break every tool's input schema (the tools come from {@code tools/list}, so
 * a new tool is fuzzed without anyone listing it), a huge batch and an oversized body. Each answer must be a JSON-RPC
 * error (never -32603 Internal error), or for a tool call a tool error carrying a REST code of a 4xx (never INTERNAL);
 * never a 5xx or a Java exception; and a valid call with the same key still works afterwards.
 */
@SuppressWarnings("unchecked")
public abstract class McpFuzzContract {

    /** JSON-RPC errors a hostile message may get: parse error, invalid request, method not found, invalid params. */
    private static final Set<Integer> CLIENT_ERRORS = Set.of(-32700, -32600, -32601, -32602);

    /** A Java exception or stack frame in an answer. */
    private static final java.util.regex.Pattern LEAK =
            java.util.regex.Pattern.compile("\\b[A-Z]\\w{0,60}Exception\\b|\\bat (io|java|com|reactor)\\.[a-z]+\\.");

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private String key;
    private String space;

    /** The application's base URL (ending in a slash or not). */
    protected abstract String baseUrl();

    protected abstract ApiKeys apiKeys();

    protected abstract JsonMapper json();

    @BeforeEach
    void issueKey() {
        space = "mcpfuzz-" + UUID.randomUUID().toString().substring(0, 8);
        key = apiKeys()
                .issue(
                        new Principal(
                                "agent-mcpfuzz-" + UUID.randomUUID().toString().substring(0, 8),
                                Role.AGENT,
                                "mcpfuzz",
                                List.of(space)),
                        "fuzz")
                .key()
                .toString();
    }

    @Test
    void malformedAndMisshapenJsonRpcIsAJsonRpcErrorAndTheSessionSurvives() {
        List<String> bodies = new ArrayList<>(List.of(
                "",
                "{",
                "}",
                "null",
                "42",
                "\"tools/list\"",
                "[]",
                "[1,2]",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}}}",
                "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"tools/list\"}",
                "{\"jsonrpc\":2.0,\"id\":1,\"method\":\"tools/list\"}",
                "{\"id\":1,\"method\":\"tools/list\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":5}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":null}",
                "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"tools/list\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":[1],\"method\":\"tools/list\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":\"all\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":[1,2]}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"no/such/method\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/list\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/get\",\"params\":{\"name\":\"x\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":\"hello\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":7}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":\"memory_list\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":[\"memory_list\"]}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":null}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":42}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"no_such_tool\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"memory_list\","
                        + "\"arguments\":\"space\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"memory_list\","
                        + "\"arguments\":[1]}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"memory_list\","
                        + "\"arguments\":{\"space\":{\"$ne\":1}}}}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/nonsense\",\"params\":5}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":\"x\"}}",
                "[".repeat(100_000) + "]".repeat(100_000),
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"cursor\":\""
                        + "c".repeat(1_000_000) + "\"}}"));
        List<String> violations = new ArrayList<>();
        for (String body : bodies) {
            judge(body, post(body.getBytes(StandardCharsets.UTF_8))).ifPresent(violations::add);
            judge("(invalid UTF-8) " + body, post(concat(body.getBytes(StandardCharsets.UTF_8), new byte[] {
                        (byte) 0xc3, (byte) 0x28
                    })))
                    .ifPresent(violations::add);
        }
        assertThat(violations).isEmpty();
        assertThat(toolsList()).isNotEmpty();
    }

    @Test
    void aHugeBatchAndAnOversizedBodyAreRefusedAndTheSessionSurvives() {
        StringBuilder batch = new StringBuilder("[");
        for (int i = 0; i < 20_000; i++) {
            batch.append(i == 0 ? "" : ",")
                    .append("{\"jsonrpc\":\"2.0\",\"id\":")
                    .append(i)
                    .append(",\"method\":\"tools/list\"}");
        }
        batch.append(']');
        List<String> violations = new ArrayList<>();
        judge("a batch of 20,000 requests", post(batch.toString().getBytes(StandardCharsets.UTF_8)))
                .ifPresent(violations::add);
        String oversized = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"memory_commit\",\"arguments\":{\"content\":\"" + "o".repeat(6 << 20) + "\"}}}";
        judge("a 6 MiB body", post(oversized.getBytes(StandardCharsets.UTF_8))).ifPresent(violations::add);
        assertThat(violations).isEmpty();
        assertThat(toolsList()).isNotEmpty();
    }

    @Test
    void argumentsThatBreakEveryToolsSchemaAreRefusedWithRestCodes() {
        List<String> violations = new ArrayList<>();
        int calls = 0;
        for (Map<String, Object> tool : toolsList()) {
            String name = (String) tool.get("name");
            Map<String, Object> schema = (Map<String, Object>) tool.get("inputSchema");
            Map<String, Object> properties = schema == null || schema.get("properties") == null
                    ? Map.of()
                    : (Map<String, Object>) schema.get("properties");
            for (Map<String, Object> arguments : hostileArguments(properties)) {
                calls++;
                String body = toolCall(name, arguments);
                judge(name + " " + abbreviate(String.valueOf(arguments)), post(body.getBytes(StandardCharsets.UTF_8)))
                        .ifPresent(violations::add);
            }
        }
        assertThat(calls).as("tools fuzzed").isGreaterThan(100);
        assertThat(violations).isEmpty();
        assertThat(toolsList()).isNotEmpty();
    }

    /** Arguments that break a tool's schema: each property mistyped, null, huge, plus unknown and nested junk. */
    private List<Map<String, Object>> hostileArguments(Map<String, Object> properties) {
        List<Map<String, Object>> out = new ArrayList<>();
        out.add(Map.of());
        out.add(Map.of("no_such_argument", "x"));
        out.add(Map.of("space", space, "\u0000", List.of(Map.of("a", List.of()))));
        Map<String, Object> allWrong = new LinkedHashMap<>();
        Map<String, Object> allHuge = new LinkedHashMap<>();
        for (Map.Entry<String, Object> p : properties.entrySet()) {
            String type = String.valueOf(((Map<String, Object>) p.getValue()).get("type"));
            for (Object wrong : wrongValues(type)) {
                Map<String, Object> args = new LinkedHashMap<>();
                if (!p.getKey().equals("space")) {
                    args.put("space", space);
                }
                args.put(p.getKey(), wrong);
                out.add(args);
            }
            allWrong.put(p.getKey(), wrongValues(type).get(0));
            allHuge.put(
                    p.getKey(),
                    switch (type) {
                        case "string" -> p.getKey().equals("space") ? space : "h".repeat(300_000);
                        case "array" -> java.util.Collections.nCopies(20_000, "item");
                        case "integer", "number" -> Long.MAX_VALUE;
                        default -> Map.of("deep", java.util.Collections.nCopies(5_000, Map.of("k", "v")));
                    });
        }
        out.add(allWrong);
        out.add(allHuge);
        return out;
    }

    private static List<Object> wrongValues(String type) {
        List<Object> values = new ArrayList<>();
        switch (type) {
            case "string" -> values.addAll(List.of(42, List.of("a"), Map.of("a", 1), true));
            case "integer" -> values.addAll(List.of("seven", 1.5, -1, Long.MIN_VALUE, 1e300, List.of(1)));
            case "number" -> values.addAll(List.of("seven", true, -1e308, List.of(1)));
            case "boolean" -> values.addAll(List.of("true", 1, List.of()));
            case "array" -> values.addAll(List.of("a", 5, Map.of("0", "a"), List.of(List.of(1), Map.of())));
            default -> values.addAll(List.of("{}", 3, List.of(1, "two")));
        }
        java.util.Collections.addAll(values, (Object) null);
        return values;
    }

    // ---------------------------------------------------------------- calls and their judgement

    private record Answer(int status, String body) {}

    private Answer post(byte[] body) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl().replaceAll("/$", "") + "/mcp"))
                .timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * What is wrong with an answer to a hostile message, if anything: a 5xx, a body that is not JSON, a JSON-RPC
     * Internal error, a tool error with a 5xx code, a Java exception in the text.
     */
    private java.util.Optional<String> judge(String what, Answer a) {
        String where = abbreviate(what) + " -> " + a.status() + " " + abbreviate(a.body());
        if (a.status() >= 500) {
            return java.util.Optional.of(where + " (a 5xx)");
        }
        if (LEAK.matcher(a.body()).find()) {
            return java.util.Optional.of(where + " (a Java exception leaks)");
        }
        if (a.status() == 202 && a.body().isEmpty()) {
            return java.util.Optional.empty(); // a notification or a response: nothing to answer
        }
        Object parsed;
        try {
            parsed = json().readValue(a.body(), Argument.OBJECT_ARGUMENT);
        } catch (IOException | RuntimeException e) {
            return java.util.Optional.of(where + " (not JSON)");
        }
        if (!(parsed instanceof Map<?, ?> response)) {
            return java.util.Optional.of(where + " (not a JSON-RPC response)");
        }
        if (response.get("error") instanceof Map<?, ?> error) {
            if (!(error.get("code") instanceof Number code) || !CLIENT_ERRORS.contains(code.intValue())) {
                return java.util.Optional.of(where + " (not a client error code)");
            }
            return java.util.Optional.empty();
        }
        if (response.get("code") instanceof String restCode) { // refused by the HTTP layer (e.g. TOO_LARGE)
            return java.util.Optional.of(where + " (a REST error body " + restCode + ", not JSON-RPC)");
        }
        if (response.get("result") instanceof Map<?, ?> result && Boolean.TRUE.equals(result.get("isError"))) {
            String text = (String) ((Map<String, Object>) ((List<Object>) result.get("content")).get(0)).get("text");
            try {
                Map<String, Object> refusal = json().readValue(text, Argument.mapOf(String.class, Object.class));
                String code = (String) refusal.get("code");
                if (code == null || ErrorCodes.statusOf(code).getCode() >= 500) {
                    return java.util.Optional.of(where + " (a tool error with code " + code + ")");
                }
            } catch (IOException | RuntimeException e) {
                return java.util.Optional.of(where + " (a tool error without a code)");
            }
        }
        return java.util.Optional.empty();
    }

    private List<Map<String, Object>> toolsList() {
        Answer a = post(
                "{\"jsonrpc\":\"2.0\",\"id\":\"list\",\"method\":\"tools/list\"}".getBytes(StandardCharsets.UTF_8));
        assertThat(a.status()).as(a.body()).isEqualTo(200);
        try {
            Map<String, Object> response = json().readValue(a.body(), Argument.mapOf(String.class, Object.class));
            return (List<Map<String, Object>>) ((Map<String, Object>) response.get("result")).get("tools");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String toolCall(String name, Map<String, Object> arguments) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("name", name);
        params.put("arguments", arguments);
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("jsonrpc", "2.0");
        message.put("id", UUID.randomUUID().toString());
        message.put("method", "tools/call");
        message.put("params", params);
        try {
            return json().writeValueAsString(message);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    static String abbreviate(String s) {
        if (s == null) {
            return "(none)";
        }
        String printable = s.replaceAll("\\p{Cntrl}", "?");
        return printable.length() > 160 ? printable.substring(0, 160) + "...(" + s.length() + " chars)" : printable;
    }
}
