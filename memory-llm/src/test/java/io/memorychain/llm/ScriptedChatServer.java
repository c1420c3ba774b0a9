package io.memorychain.llm;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A real HTTP server on 127.0.0.1 (ephemeral port) speaking the chat-completions protocol with scripted replies, one
 * per request in order; it records every request it gets. A {@link #hang()} reply holds its handler until
 * {@link #close()} releases it, so a test can make the client time out without sleeping.
 */
public final class ScriptedChatServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A request as received. */
    public record Received(String method, String path, Map<String, List<String>> headers, String body) {

        public String header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().get(0))
                    .findFirst()
                    .orElse(null);
        }
    }

    /** A scripted reply; {@code hang} holds the handler until the server closes. */
    public record Reply(int status, Map<String, String> headers, String body, boolean hang) {}

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final Deque<Reply> script = new ArrayDeque<>();
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);

    public ScriptedChatServer() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    /** {@code http://127.0.0.1:PORT/v1}, the base URL a client is configured with. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    public ScriptedChatServer reply(Reply reply) {
        synchronized (script) {
            script.addLast(reply);
        }
        return this;
    }

    /** 200 with a chat completion whose message content is {@code content}. */
    public ScriptedChatServer replyContent(String content, long promptTokens, long completionTokens) {
        return reply(new Reply(
                200,
                Map.of("Content-Type", "application/json"),
                completion(content, "scripted-model", promptTokens, completionTokens),
                false));
    }

    public ScriptedChatServer replyStatus(int status, Map<String, String> headers, String body) {
        return reply(new Reply(status, headers, body, false));
    }

    public ScriptedChatServer hang() {
        return reply(new Reply(200, Map.of(), "", true));
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    public static String completion(String content, String model, long promptTokens, long completionTokens) {
        ObjectNode root = JSON.createObjectNode();
        root.put("id", "chatcmpl-1")
                .put("object", "chat.completion")
                .put("created", 1_700_000_000L)
                .put("model", model);
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("index", 0).put("finish_reason", "stop");
        choice.putObject("message").put("role", "assistant").put("content", content);
        root.putObject("usage")
                .put("prompt_tokens", promptTokens)
                .put("completion_tokens", completionTokens)
                .put("total_tokens", promptTokens + completionTokens);
        return root.toString();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange;
                InputStream in = exchange.getRequestBody()) {
            String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            received.add(new Received(
                    exchange.getRequestMethod(),
                    exchange.getRequestURI().getPath(),
                    Map.copyOf(exchange.getRequestHeaders()),
                    body));
            Reply reply;
            synchronized (script) {
                reply = script.pollFirst();
            }
            if (reply == null) {
                reply = new Reply(500, Map.of(), "{\"error\":\"no scripted reply left\"}", false);
            }
            if (reply.hang()) {
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return; // the client gave up long ago: close without a reply
            }
            reply.headers()
                    .forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
            byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(reply.status(), bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        }
    }

    @Override
    public void close() {
        release.countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
