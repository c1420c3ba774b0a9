package io.memorychain.api.mcp;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;

/**
 * The stdio launcher for desktop agent clients that start an MCP server as a process: it serves, on stdin/stdout, the
 * tools of a running Memory Chain, forwarding every call to its {@code /mcp} endpoint with the given key (so the key's
 * role, spaces and actor apply exactly as over HTTP). Logs go to stderr; stdout carries only the protocol.
 *
 * <p>Each line of stdin passes {@link JsonRpcGate} before the MCP server sees it: a line that is not one well-formed
 * JSON-RPC message (broken framing, a batch, a wrong version, a line over {@value #MAX_LINE} bytes) is answered with a
 * JSON-RPC error and the session goes on (the SDK's stdio transport would end the session on the first bad line).
 *
 * <pre>java -cp memory-server-runner.jar io.memorychain.api.mcp.StdioBridge [--url http://localhost:8080] [--key KEY]
 * </pre>
 *
 * Defaults: {@code MEMORY_URL} (else http://localhost:8080) and {@code MEMORY_API_KEY}.
 */
public final class StdioBridge {

    /** The longest line passed on (the SDK's own limit is 16 MiB; a longer line would end its session). */
    static final int MAX_LINE = 8 << 20;

    private StdioBridge() {}

    public static void main(String[] args) {
        // stdout carries only the protocol: anything else that prints (logging, its status lines) goes to stderr
        PrintStream protocol = System.out;
        System.setOut(System.err);
        System.setProperty("memorychain.log.target", "System.err");
        System.setProperty("logback.statusListenerClass", "ch.qos.logback.core.status.NopStatusListener");
        String url = option(args, "--url", System.getenv().getOrDefault("MEMORY_URL", "http://localhost:8080"));
        String key = option(args, "--key", System.getenv("MEMORY_API_KEY"));
        if (key == null || key.isBlank()) {
            System.err.println("memory-chain stdio: an API key is required (--key or MEMORY_API_KEY)");
            System.exit(2);
        }
        Bridge bridge = serve(url, key, System.in, protocol);
        System.err.println("memory-chain stdio: serving " + bridge.tools() + " tools of " + url);
    }

    /** A running bridge: its MCP server on the streams, the client of the remote {@code /mcp}, its gate thread. */
    record Bridge(McpSyncServer server, McpSyncClient remote, int tools, Thread gate) implements AutoCloseable {
        @Override
        public void close() {
            gate.interrupt();
            server.closeGracefully();
            remote.closeGracefully();
        }
    }

    /**
     * Serves the tools of the Memory Chain at {@code url} with {@code key} on {@code in} (one JSON-RPC message a line)
     * and {@code out} until {@code in} ends or the bridge is closed.
     */
    static Bridge serve(String url, String key, InputStream in, OutputStream out) {
        McpSyncClient remote = McpClient.sync(HttpClientStreamableHttpTransport.builder(url)
                        .endpoint("/mcp")
                        .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + key))
                        .build())
                .requestTimeout(Duration.ofMinutes(2))
                .build();
        McpSchema.InitializeResult init = remote.initialize();
        List<McpServerFeatures.SyncToolSpecification> tools = remote.listTools().tools().stream()
                .map(t ->
                        new McpServerFeatures.SyncToolSpecification(t, (exchange, request) -> remote.callTool(request)))
                .toList();
        McpJsonMapper mapper = McpJsonDefaults.getMapper();
        LineOutput lines = new LineOutput(out);
        PipedInputStream passed = new PipedInputStream(1 << 16);
        PipedOutputStream feed;
        try {
            feed = new PipedOutputStream(passed);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        McpSyncServer server = McpServer.sync(new StdioServerTransportProvider(mapper, passed, lines))
                .serverInfo(init.serverInfo())
                .instructions(init.instructions())
                .capabilities(
                        McpSchema.ServerCapabilities.builder().tools(false).build())
                .validateToolInputs(false) // the service checks them and refuses with its codes (McpServerBeans)
                .tools(tools)
                .build();
        Thread gate = new Thread(() -> pass(in, feed, lines, mapper), "mcp-stdio-gate");
        gate.setDaemon(true);
        gate.start();
        return new Bridge(server, remote, tools.size(), gate);
    }

    /** Passes each well-formed line on to the MCP server and answers every other one; ends the feed when in ends. */
    private static void pass(InputStream in, PipedOutputStream feed, LineOutput out, McpJsonMapper mapper) {
        try (feed) {
            StdioLines reader = new StdioLines(in, MAX_LINE);
            StdioLines.Line line;
            while ((line = reader.next()) != null) {
                JsonRpcGate.Verdict verdict = line.tooLong()
                        ? new JsonRpcGate.Refused(JsonRpcGate.error(
                                null,
                                JsonRpcGate.INVALID_REQUEST,
                                "Invalid Request: a message is at most " + MAX_LINE + " bytes"))
                        : line.text().isBlank() ? null : JsonRpcGate.check(mapper, line.text());
                if (verdict instanceof JsonRpcGate.Refused refused) {
                    out.line(mapper.writeValueAsString(refused.error()));
                } else if (verdict != null) {
                    feed.write((line.text() + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    feed.flush();
                }
            }
        } catch (IOException e) {
            System.err.println("memory-chain stdio: input ended: " + e.getMessage());
        }
    }

    private static String option(String[] args, String name, String fallback) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        return fallback;
    }
}
