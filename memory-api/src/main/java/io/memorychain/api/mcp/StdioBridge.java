package io.memorychain.api.mcp;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.PrintStream;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;

/**
 * The stdio launcher for desktop agent clients that start an MCP server as a process: it serves, on stdin/stdout,
 * the tools of a running Memory Chain, forwarding every call to its {@code /mcp} endpoint with the given key (so the
 * key's role, spaces and actor apply exactly as over HTTP). Logs go to stderr; stdout carries only the protocol.
 *
 * <pre>java -cp memory-server-runner.jar io.memorychain.api.mcp.StdioBridge [--url http://localhost:8080] [--key KEY]</pre>
 * Defaults: {@code MEMORY_URL} (else http://localhost:8080) and {@code MEMORY_API_KEY}.
 */
public final class StdioBridge {

    private StdioBridge() {
    }

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
        McpSyncClient remote = McpClient.sync(HttpClientStreamableHttpTransport.builder(url).endpoint("/mcp")
                        .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + key))
                        .build())
                .requestTimeout(Duration.ofMinutes(2))
                .build();
        McpSchema.InitializeResult init = remote.initialize();
        List<McpServerFeatures.SyncToolSpecification> tools = remote.listTools().tools().stream()
                .map(t -> new McpServerFeatures.SyncToolSpecification(t, (exchange, request) -> remote.callTool(request)))
                .toList();
        McpServer.sync(new StdioServerTransportProvider(McpJsonDefaults.getMapper(), System.in, protocol))
                .serverInfo(init.serverInfo())
                .instructions(init.instructions())
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .tools(tools)
                .build();
        System.err.println("memory-chain stdio: serving " + tools.size() + " tools of " + url);
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
