package io.memorychain.api.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.api.error.ErrorCodes;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A hostile MCP client of the stdio launcher ({@link StdioBridge}, run in this JVM on pipes): broken framing (a message
 * split over lines, half a message, garbage, invalid UTF-8, a line over the size limit), a huge batch, wrong versions
 * and ids, unknown methods and tools, misshapen tool calls. Each line gets exactly one answer, a JSON-RPC error (never
 * -32603 Internal error) or a tool error with a REST code of a 4xx, and the session goes on: a valid call afterwards is
 * answered.
 */
@SuppressWarnings("unchecked")
public abstract class StdioFuzzContract {

    private static final Set<Integer> CLIENT_ERRORS = Set.of(-32700, -32600, -32601, -32602);

    /** The URL of the application's HTTP server. */
    protected abstract String url();

    /** A key of an agent confined to one space. */
    protected abstract String agentKey();

    protected abstract JsonMapper json();

    @Test
    void everyBadLineGetsAJsonRpcErrorAndTheSessionGoesOn() throws Exception {
        BlockingQueue<String> answers = new LinkedBlockingQueue<>();
        PipedInputStream bridgeIn = new PipedInputStream(1 << 20);
        PipedOutputStream client = new PipedOutputStream(bridgeIn);
        try (StdioBridge.Bridge bridge = StdioBridge.serve(url(), agentKey(), bridgeIn, lines(answers))) {
            assertThat(bridge.tools()).as("tools served").isPositive();
            send(
                    client,
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                            + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"fuzzer\",\"version\":\"1\"}}}");
            assertThat(answer(answers)).containsKey("result");
            send(client, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");

            StringBuilder batch = new StringBuilder("[");
            for (int i = 0; i < 5_000; i++) {
                batch.append(i == 0 ? "" : ",")
                        .append("{\"jsonrpc\":\"2.0\",\"id\":")
                        .append(1000 + i)
                        .append(",\"method\":\"tools/list\"}");
            }
            List<byte[]> hostile = new ArrayList<>();
            for (String line : List.of(
                    "garbage",
                    "{",
                    "{\"jsonrpc\":\"2.0\",",
                    "\"id\":2,\"method\":\"tools/list\"}",
                    "}",
                    "null",
                    "[]",
                    "42",
                    batch.append(']').toString(),
                    "{\"jsonrpc\":\"1.0\",\"id\":3,\"method\":\"tools/list\"}",
                    "{\"id\":4,\"method\":\"tools/list\"}",
                    "{\"jsonrpc\":\"2.0\",\"id\":{\"x\":1},\"method\":\"tools/list\"}",
                    "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":7}",
                    "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"no/such/method\"}",
                    "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"no_such_tool\"}}",
                    "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":\"memory_commit\","
                            + "\"arguments\":\"content\"}}",
                    "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":\"memory_commit\"}",
                    "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/call\",\"params\":{\"name\":\"memory_commit\","
                            + "\"arguments\":{\"content\":42,\"importance\":\"high\"}}}",
                    "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/call\",\"params\":{\"name\":\"memory_list\","
                            + "\"arguments\":{\"space\":\"../elsewhere\"}}}",
                    "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"tools/list\"}" + "x".repeat(9 << 20))) {
                hostile.add(line.getBytes(StandardCharsets.UTF_8));
            }
            hostile.add(new byte[] {'{', '"', (byte) 0xc3, (byte) 0x28, '"', ':', '1', '}'});
            List<String> violations = new ArrayList<>();
            for (byte[] line : hostile) {
                client.write(line);
                client.write('\n');
                client.flush();
                String what = abbreviate(new String(line, StandardCharsets.UTF_8));
                Map<String, Object> answer = answer(answers);
                if (answer == null) {
                    violations.add(what + " -> no answer");
                } else {
                    judge(answer)
                            .ifPresent(v ->
                                    violations.add(what + " -> " + abbreviate(answer.toString()) + " (" + v + ")"));
                }
            }
            assertThat(violations).isEmpty();
            assertThat(answers).as("one answer a line").isEmpty();

            send(client, "{\"jsonrpc\":\"2.0\",\"id\":100,\"method\":\"tools/list\"}");
            Map<String, Object> tools = answer(answers);
            assertThat(tools).as("the session goes on").containsKey("result");
            assertThat((List<?>) ((Map<String, Object>) tools.get("result")).get("tools"))
                    .isNotEmpty();
            send(
                    client,
                    "{\"jsonrpc\":\"2.0\",\"id\":101,\"method\":\"tools/call\",\"params\":{\"name\":"
                            + "\"memory_commit\",\"arguments\":{\"content\":\"still here after the fuzz\"}}}");
            Map<String, Object> committed =
                    (Map<String, Object>) answer(answers).get("result");
            assertThat(committed).containsEntry("isError", false);
        } finally {
            client.close();
        }
    }

    private static void send(OutputStream client, String line) throws IOException {
        client.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        client.flush();
    }

    private Map<String, Object> answer(BlockingQueue<String> answers) throws InterruptedException, IOException {
        String line = answers.poll(60, TimeUnit.SECONDS);
        return line == null ? null : json().readValue(line, Argument.mapOf(String.class, Object.class));
    }

    private java.util.Optional<String> judge(Map<String, Object> answer) {
        if (answer.get("error") instanceof Map<?, ?> error) {
            return error.get("code") instanceof Number code && CLIENT_ERRORS.contains(code.intValue())
                    ? java.util.Optional.empty()
                    : java.util.Optional.of("not a client error code");
        }
        if (answer.get("result") instanceof Map<?, ?> result && Boolean.TRUE.equals(result.get("isError"))) {
            String text = (String) ((Map<String, Object>) ((List<Object>) result.get("content")).get(0)).get("text");
            try {
                String code = (String) json().readValue(text, Argument.mapOf(String.class, Object.class))
                        .get("code");
                return code != null && ErrorCodes.statusOf(code).getCode() < 500
                        ? java.util.Optional.empty()
                        : java.util.Optional.of("a tool error with code " + code);
            } catch (IOException | RuntimeException e) {
                return java.util.Optional.of("a tool error without a code");
            }
        }
        return java.util.Optional.of("neither a JSON-RPC error nor a tool error");
    }

    /** An output that queues each line written to it. */
    private static OutputStream lines(BlockingQueue<String> queue) {
        return new OutputStream() {
            private final java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();

            @Override
            public synchronized void write(int b) {
                if (b == '\n') {
                    queue.add(line.toString(StandardCharsets.UTF_8));
                    line.reset();
                } else {
                    line.write(b);
                }
            }
        };
    }

    private static String abbreviate(String s) {
        String printable = s.replaceAll("\\p{Cntrl}", "?");
        return printable.length() > 120 ? printable.substring(0, 120) + "...(" + s.length() + " chars)" : printable;
    }
}
