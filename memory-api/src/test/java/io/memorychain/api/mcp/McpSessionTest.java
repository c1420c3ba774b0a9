package io.memorychain.api.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import io.memorychain.api.topology.TopologyBackend;
import io.micronaut.context.annotation.Property;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.annotation.Client;
import io.micronaut.json.JsonMapper;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Agents' view of the system: the official MCP Java SDK client, over streamable HTTP ({@code /mcp}) and over stdio (the
 * {@link StdioBridge} launched as a process, as desktop clients do), on the real HTTP stack with the real topologies
 * ({@link TopologyBackend}).
 */
@MicronautTest(environments = TopologyBackend.ENV)
@Property(name = "micronaut.server.port", value = "-1")
@Property(name = "memory.auth.bootstrap", value = "false")
@Property(name = "memory.write-timeout", value = "5s")
@SuppressWarnings("unchecked") // the tools' answers are read as JSON maps
class McpSessionTest {

    /** The committed copy of GET /v1/tools (regenerate: copy target/openai-tools.json after a failure). */
    private static final Path TOOLS_FILE = Path.of("..", "docs", "openai-tools.json");

    @Inject
    EmbeddedServer server;

    @Inject
    ApiKeys keys;

    @Inject
    JsonMapper json;

    @Inject
    @Client("/")
    HttpClient http;

    @Test
    void anAgentCommitsRecallsUpdatesABlockConsolidatesAndForgetsWithConfirmation() throws IOException {
        String space = "mcp-" + UUID.randomUUID().toString().substring(0, 8);
        try (McpSyncClient agent = client(httpTransport(key(Role.AGENT, "ana", space)))) {
            agent.initialize();
            assertThat(agent.listTools().tools())
                    .extracting(McpSchema.Tool::name)
                    .contains(
                            "memory_commit",
                            "memory_recall",
                            "memory_query",
                            "memory_rethink",
                            "block_get",
                            "block_update",
                            "core_memory",
                            "memory_forget",
                            "memory_list",
                            "memory_read",
                            "memory_write",
                            "memory_patch",
                            "memory_append");

            String tea = id(ok(
                    agent,
                    "memory_commit",
                    Map.of(
                            "content",
                            "Ana drinks green tea every morning",
                            "category",
                            "preferences",
                            "importance",
                            4)));
            String oolong = id(ok(agent, "memory_commit", Map.of("content", "Ana also likes oolong tea")));
            ok(agent, "memory_commit", Map.of("content", "Ana's sister lives in Lisbon", "kind", "semantic"));

            Map<String, Object> recalled =
                    ok(agent, "memory_recall", Map.of("query", "what does Ana drink?", "max_results", 2));
            assertThat(ids(recalled)).contains(tea);
            Map<String, Object> filtered = ok(
                    agent,
                    "memory_query",
                    Map.of(
                            "query",
                            "tea",
                            "top_k",
                            5,
                            "filters",
                            Map.of(
                                    "AND",
                                    List.of(
                                            Map.of("importance", Map.of("gte", 4)),
                                            Map.of("NOT", Map.of("kind", "episodic"))))));
            assertThat(ids(filtered)).containsExactly(tea);
            assertThat(error(
                            agent,
                            "memory_query",
                            Map.of("query", "tea", "filters", Map.of("importance", Map.of("between", List.of(1, 3))))))
                    .containsEntry("code", "INVALID_FILTER");

            ok(agent, "block_update", Map.of("label", "persona", "content", "I am Ana's careful assistant."));
            assertThat((String) ok(agent, "core_memory", Map.of()).get("text"))
                    .contains("I am Ana's careful assistant.");
            assertThat(ok(agent, "block_get", Map.of("label", "persona"))).containsEntry("version", 1);

            Map<String, Object> merged = ok(
                    agent,
                    "memory_rethink",
                    Map.of(
                            "ids",
                            List.of(tea, oolong),
                            "content",
                            "Ana drinks tea: green in the morning, oolong too",
                            "reason",
                            "one preference"));
            String mergedId = id(merged);

            Map<String, Object> listed = ok(agent, "memory_forget", Map.of("query", "Ana's sister"));
            assertThat(listed).containsEntry("confirmed", false);
            String sister = (String) ((List<Map<String, Object>>) listed.get("matches"))
                    .stream()
                            .filter(m -> ((String) m.get("text")).contains("Lisbon"))
                            .findFirst()
                            .orElseThrow()
                            .get("id");
            assertThat(state(space, sister)).as("listing forgets nothing").isEqualTo("active");
            Map<String, Object> forgotten = ok(
                    agent,
                    "memory_forget",
                    Map.of("confirm", true, "ids", List.of(sister), "reason", "the user asked"));
            assertThat(forgotten).containsEntry("confirmed", true);
            assertThat(state(space, sister)).isEqualTo("soft_deleted");

            assertThat((String) ok(agent, "memory_read", Map.of("path", "facts/preferences.md"))
                            .get("text"))
                    .contains(mergedId)
                    .doesNotContain("Lisbon");
            // the agent's persona edit is followed by its critical-change alert, by system:audit (§21)
            assertThat(audit(space))
                    .filteredOn(e -> !"CriticalChangeAlerted".equals(e.get("event_type")))
                    .extracting(e -> e.get("actor"))
                    .containsOnly(Map.of("type", "agent", "id", "ana"));
            assertThat(audit(space))
                    .filteredOn(e -> "CriticalChangeAlerted".equals(e.get("event_type")))
                    .extracting(e -> e.get("actor"))
                    .containsExactly(Map.of("type", "system", "id", "audit"));
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void memoryMessageRemembersAndForgetsWithAConfirmationTokenThroughTheMessageService() {
        String space = "mcp-" + UUID.randomUUID().toString().substring(0, 8);
        try (McpSyncClient agent = client(httpTransport(key(Role.AGENT, "ana", space)))) {
            agent.initialize();
            Map<String, Object> remembered =
                    ok(agent, "memory_message", Map.of("message", "Remember that Ana's boiler is serviced every May"));
            assertThat(remembered).containsEntry("trigger", "remember");
            String boiler = (String) ((List<Map<String, Object>>) remembered.get("stored"))
                    .get(0)
                    .get("id");
            Map<String, Object> forget = ok(agent, "memory_message", Map.of("message", "Forget about the boiler"));
            Map<String, Object> confirmation = (Map<String, Object>) forget.get("confirmation");
            assertThat((List<String>) confirmation.get("memory_ids")).contains(boiler);
            assertThat(state(space, boiler)).isEqualTo("active");
            assertThat(ok(agent, "memory_message", Map.of("confirm_token", confirmation.get("token"))))
                    .containsEntry("forgotten", List.of(boiler));
            assertThat(state(space, boiler)).isEqualTo("soft_deleted");
        }
    }

    @Test
    void anAgentRefinesItsCoreInASessionConsolidating20MemoriesInto3AndProtecting2() {
        String space = "mcp-" + UUID.randomUUID().toString().substring(0, 8);
        try (McpSyncClient agent = client(httpTransport(key(Role.AGENT, "ana", space)));
                McpSyncClient admin = client(httpTransport(key(Role.ADMIN, "ops", space)))) {
            agent.initialize();
            admin.initialize();
            List<List<String>> groups =
                    List.of(new java.util.ArrayList<>(), new java.util.ArrayList<>(), new java.util.ArrayList<>());
            String[] topics = {"tea", "travel", "work"};
            for (int i = 0; i < 20; i++) {
                groups.get(i % 3)
                        .add(id(ok(
                                agent,
                                "memory_commit",
                                Map.of(
                                        "tier",
                                        "core",
                                        "content",
                                        "Ana note " + i + " about " + topics[i % 3] + ": detail number " + i))));
            }
            String lawA =
                    id(ok(agent, "memory_commit", Map.of("tier", "core", "content", "Never share Ana's address")));
            String lawB = id(
                    ok(agent, "memory_commit", Map.of("tier", "core", "content", "Always answer Ana in Portuguese")));
            assertThat(error(agent, "protect_memory", Map.of("id", lawA)))
                    .as("no session yet")
                    .containsEntry("code", "NOT_IN_REFINEMENT");
            assertThat(error(agent, "refinement_start", Map.of()))
                    .as("admins start sessions")
                    .containsEntry("code", "ROLE_NOT_ALLOWED");

            ok(admin, "refinement_start", Map.of("target_tokens", 100, "reason", "weekly"));
            Map<String, Object> session = ok(agent, "refinement_session", Map.of());
            assertThat((List<?>) session.get("ledger")).hasSize(22);
            assertThat(((List<Map<String, Object>>) ok(agent, "search_memories", Map.of("query", "travel"))
                            .get("items")))
                    .extracting(m -> m.get("id"))
                    .containsExactlyInAnyOrderElementsOf(groups.get(1));

            List<String> oneBad = List.of(groups.get(0).get(0), "m-no-such-memory");
            error(agent, "consolidate_memories", Map.of("ids", oneBad, "new_content", "never written"));
            assertThat(state(space, groups.get(0).get(0)))
                    .as("a consolidation with a bad id changes nothing")
                    .isEqualTo("active");
            for (int g = 0; g < 3; g++) {
                ok(
                        agent,
                        "consolidate_memories",
                        Map.of(
                                "ids",
                                groups.get(g),
                                "new_content",
                                "Ana's " + topics[g] + " notes, condensed",
                                "reason",
                                "one law per topic"));
            }
            ok(agent, "protect_memory", Map.of("id", lawA));
            ok(agent, "protect_memory", Map.of("id", lawB));
            assertThat(error(agent, "delete_memory", Map.of("id", lawA))).containsEntry("code", "CONSTITUTIONAL");

            Map<String, Object> done =
                    ok(agent, "complete_refinement", Map.of("summary", "One law per topic; two rules protected."));
            assertThat(json(done)).contains("Compressed 20 -> 3", "protected 2 constitutional memories");
            assertThat(error(agent, "protect_memory", Map.of("id", lawA)))
                    .as("the session is over")
                    .containsEntry("code", "NOT_IN_REFINEMENT");
            assertThat(audit(space))
                    .extracting(e -> e.get("event_type"))
                    .contains("RefinementStarted", "RefinementCompleted");
        }
    }

    @Test
    void aSubAgentProposesAndTheMainAgentCommitsTheProposal() {
        String space = "mcp-" + UUID.randomUUID().toString().substring(0, 8);
        try (McpSyncClient agent = client(httpTransport(key(Role.AGENT, "ana", space)));
                McpSyncClient researcher = client(httpTransport(key(Role.SUBAGENT, "researcher", space)))) {
            agent.initialize();
            researcher.initialize();
            Map<String, Object> proposed = ok(
                    researcher,
                    "memory_propose",
                    Map.of(
                            "content",
                            "Ana prefers academic sources over blog posts",
                            "kind",
                            "semantic",
                            "trigger",
                            "auto-detect"));
            String proposal = (String) ((Map<String, Object>) proposed.get("proposal")).get("id");
            assertThat(error(researcher, "proposals_review", Map.of("action", "list")))
                    .containsEntry("code", "ROLE_NOT_ALLOWED");
            assertThat((List<Map<String, Object>>) ok(agent, "proposals_review", Map.of("action", "list"))
                            .get("items"))
                    .extracting(p -> p.get("id"))
                    .containsExactly(proposal);
            Map<String, Object> committed = ok(
                    agent,
                    "proposals_review",
                    Map.of("action", "commit", "id", proposal, "reason", "useful", "importance", 4));
            String memory = id(committed);
            assertThat(state(space, memory)).isEqualTo("active");
            assertThat(audit(space))
                    .extracting(e -> e.get("actor"))
                    .contains(
                            Map.of("type", "subagent", "id", "researcher"),
                            Map.of("type", "agent", "id", "commit-from:researcher"));
            assertThat(error(agent, "proposals_review", Map.of("action", "reject", "id", proposal)))
                    .containsEntry("code", "ALREADY_RESOLVED");
        }
    }

    @Inject
    io.memorychain.api.topology.TopologyBackend chain;

    @Test
    void theAgentRequestsAReflectionAndRelaysTheUsersPartialApproval() {
        String space = "mcp-" + UUID.randomUUID().toString().substring(0, 8);
        try (McpSyncClient agent = client(httpTransport(key(Role.AGENT, "ana", space)))) {
            agent.initialize();
            String fact = id(ok(agent, "memory_commit", Map.of("content", "Launch is on Thursday")));
            Map<String, Object> requested =
                    ok(agent, "reflection_review", Map.of("action", "request", "reason", "reflect on your memories"));
            assertThat(((Number) requested.get("seq")).longValue()).isEqualTo(2L);
            io.memorychain.avro.ReflectionDocument doc = io.memorychain.avro.ReflectionDocument.newBuilder()
                    .setTrigger(io.memorychain.avro.ReflectionTrigger.MANUAL)
                    .setNumber(1)
                    .setFromSeq(1)
                    .setToSeq(2)
                    .setSummary("# Reflection #1")
                    .setChanges(List.of(
                            io.memorychain.avro.ReflectionChange.newBuilder()
                                    .setChangeId("c1")
                                    .setReason("seen twice")
                                    .setType(io.memorychain.avro.ReflectionChangeType.CREATE_MEMORY)
                                    .setContent("Ana decides launch dates")
                                    .build(),
                            io.memorychain.avro.ReflectionChange.newBuilder()
                                    .setChangeId("c2")
                                    .setReason("moved")
                                    .setType(io.memorychain.avro.ReflectionChangeType.UPDATE_MEMORY)
                                    .setMemoryId(fact)
                                    .setContent("Launch is on Friday")
                                    .build()))
                    .build();
            String id = chain.publish(io.memorychain.events.Requests.proposeReflection(
                                    space,
                                    io.memorychain.events.Requests.actor(
                                            io.memorychain.avro.ActorType.WORKER, "reflect"),
                                    doc)
                            .build())
                    .join()
                    .getMemoryId();
            assertThat((List<Map<String, Object>>)
                            ok(agent, "reflection_review", Map.of("action", "list", "status", "pending"))
                                    .get("items"))
                    .extracting(r -> r.get("id"))
                    .containsExactly(id);
            assertThat(error(
                            agent,
                            "reflection_review",
                            Map.of("action", "decide", "id", id, "decision", "partial", "change_ids", List.of("c7"))))
                    .containsEntry("code", "INVALID_ARGUMENT");

            Map<String, Object> decided = ok(
                    agent,
                    "reflection_review",
                    Map.of(
                            "action",
                            "decide",
                            "id",
                            id,
                            "decision",
                            "partial",
                            "change_ids",
                            List.of("c2"),
                            "reason",
                            "the user kept only the date"));
            assertThat(decided)
                    .containsEntry("status", "partially_approved")
                    .containsEntry("applied_change_ids", List.of("c2"));
            assertThat(audit(space))
                    .extracting(e -> e.get("event_type"))
                    .containsExactly(
                            "MemoryCreated",
                            "ReflectionRequested",
                            "ReflectionProposed",
                            "ReflectionDecided",
                            "MemoryUpdated");
            assertThat(error(agent, "reflection_review", Map.of("action", "decide", "id", id, "decision", "reject")))
                    .containsEntry("code", "ALREADY_RESOLVED");
        }
    }

    @Test
    void writeToolsAreIdempotentAndVersionCheckedAsOverRest() {
        String space = "mcp-" + UUID.randomUUID().toString().substring(0, 8);
        try (McpSyncClient agent = client(httpTransport(key(Role.AGENT, "ana", space)))) {
            agent.initialize();
            Map<String, Object> commit = Map.of("content", "Ana's train leaves at 9", "idempotency_key", "commit-1");
            String first = id(ok(agent, "memory_commit", commit));
            String retried = id(ok(agent, "memory_commit", commit));
            assertThat(retried).as("a retry with the same key applies once").isEqualTo(first);

            ok(agent, "block_update", Map.of("label", "goals", "content", "Plan the trip"));
            ok(
                    agent,
                    "block_update",
                    Map.of("label", "goals", "content", "Plan the trip, then book", "expected_version", 1));
            assertThat(error(
                            agent, "block_update", Map.of("label", "goals", "content", "stale", "expected_version", 1)))
                    .containsEntry("code", "VERSION_CONFLICT");
            McpSchema.CallToolResult mistyped = agent.callTool(new McpSchema.CallToolRequest(
                    "block_update", Map.of("label", "goals", "content", "x", "expected_version", "one"), null));
            assertThat(mistyped.isError()).isTrue();
            assertThat(text(mistyped)).contains("expected_version");
            McpSchema.CallToolResult versionedCreate = agent.callTool(new McpSchema.CallToolRequest(
                    "memory_commit", Map.of("content", "x", "expected_version", 1), null));
            assertThat(versionedCreate.isError())
                    .as("a create names no version: refused, not ignored")
                    .isTrue();
            assertThat(text(versionedCreate)).contains("expected_version");
            assertThat(audit(space))
                    .extracting(e -> e.get("event_type"))
                    .containsExactlyInAnyOrder("MemoryCreated", "BlockUpdated", "BlockUpdated");
        }
    }

    @Test
    void toolCallsAreRefusedWithTheRestCodes() {
        String space = "mcp-" + UUID.randomUUID().toString().substring(0, 8);
        try (McpSyncClient agent = client(httpTransport(key(Role.AGENT, "ana", space)));
                McpSyncClient sub = client(httpTransport(key(Role.SUBAGENT, "researcher", space)))) {
            agent.initialize();
            sub.initialize();
            assertThat(error(agent, "memory_commit", Map.of("space", "someone-else", "content", "x")))
                    .containsEntry("code", "SPACE_NOT_ALLOWED");
            assertThat(error(agent, "memory_commit", Map.of("content", " "))).containsEntry("code", "INVALID_ARGUMENT");
            McpSchema.CallToolResult mistyped = agent.callTool(
                    new McpSchema.CallToolRequest("memory_commit", Map.of("content", "x", "importance", "very"), null));
            assertThat(mistyped.isError()).isTrue();
            assertThat(text(mistyped)).as("checked against the tool's schema").contains("importance");
            assertThat(error(agent, "memory_forget", Map.of("confirm", true)))
                    .containsEntry("code", "INVALID_ARGUMENT");
            assertThat(error(sub, "memory_commit", Map.of("content", "sub-agents propose")))
                    .containsEntry("code", "ROLE_NOT_ALLOWED");
            assertThat(audit(space)).isEmpty();
        }
        assertThatThrownBy(() -> client(httpTransport("mc_0123456789ab_" + "A".repeat(43)))
                        .initialize())
                .as("a wrong key cannot even initialize")
                .isNotNull();
    }

    @Test
    void theStdioLauncherServesTheSameToolsAsTheHttpEndpoint() {
        String space = "mcp-" + UUID.randomUUID().toString().substring(0, 8);
        String key = key(Role.AGENT, "ana", space);
        ServerParameters launcher = ServerParameters.builder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString())
                .args(
                        "-cp",
                        System.getProperty("java.class.path"),
                        StdioBridge.class.getName(),
                        "--url",
                        server.getURL().toString(),
                        "--key",
                        key)
                .build();
        try (McpSyncClient viaHttp = client(httpTransport(key));
                McpSyncClient viaStdio = client(new StdioClientTransport(launcher, McpJsonDefaults.getMapper()))) {
            viaHttp.initialize();
            viaStdio.initialize();
            assertThat(viaStdio.listTools().tools())
                    .isEqualTo(viaHttp.listTools().tools());
            String id = id(ok(viaStdio, "memory_commit", Map.of("content", "Committed through stdio")));
            assertThat(state(space, id)).isEqualTo("active");
            assertThat(error(viaStdio, "memory_commit", Map.of("space", "elsewhere", "content", "x")))
                    .containsEntry("code", "SPACE_NOT_ALLOWED");
        }
    }

    @Test
    void theOpenAiToolDefinitionsComeFromTheMcpToolsAndMatchTheCommittedFile() throws IOException {
        Map<String, Object> served =
                http.toBlocking().retrieve(HttpRequest.GET("/v1/tools"), Argument.mapOf(String.class, Object.class));
        List<Map<String, Object>> functions = (List<Map<String, Object>>) served.get("tools");
        try (McpSyncClient agent = client(httpTransport(key(Role.AGENT, "ana", "any")))) {
            agent.initialize();
            List<McpSchema.Tool> mcp = agent.listTools().tools();
            assertThat(functions).hasSameSizeAs(mcp);
            for (int i = 0; i < mcp.size(); i++) {
                Map<String, Object> f = (Map<String, Object>) functions.get(i).get("function");
                assertThat(functions.get(i)).containsEntry("type", "function");
                assertThat(f)
                        .containsEntry("name", mcp.get(i).name())
                        .containsEntry("description", mcp.get(i).description());
                assertThat(json.writeValueAsString(f.get("parameters")))
                        .isEqualTo(json.writeValueAsString(json.readValue(
                                McpJsonDefaults.getMapper()
                                        .writeValueAsString(mcp.get(i).inputSchema()),
                                Object.class)));
            }
        }
        com.fasterxml.jackson.databind.ObjectMapper pretty = new com.fasterxml.jackson.databind.ObjectMapper();
        String generated = pretty.writerWithDefaultPrettyPrinter()
                .writeValueAsString(pretty.readTree(json.writeValueAsString(served)));
        Path target = Path.of("target", "openai-tools.json");
        Files.writeString(target, generated);
        assertThat(Files.readString(TOOLS_FILE).strip())
                .as("docs/openai-tools.json is stale: copy " + target.toAbsolutePath())
                .isEqualTo(generated);
    }

    // ---------------------------------------------------------------- helpers

    private String key(Role role, String agent, String space) {
        return keys.issue(
                        new Principal(
                                agent + "-" + UUID.randomUUID().toString().substring(0, 6),
                                role,
                                agent,
                                List.of(space)),
                        "test")
                .key()
                .toString();
    }

    private McpClientTransport httpTransport(String key) {
        return HttpClientStreamableHttpTransport.builder(server.getURL().toString())
                .endpoint("/mcp")
                .requestBuilder(java.net.http.HttpRequest.newBuilder().header("Authorization", "Bearer " + key))
                .build();
    }

    private static McpSyncClient client(McpClientTransport transport) {
        return McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60)).build();
    }

    private Map<String, Object> ok(McpSyncClient client, String tool, Map<String, Object> args) {
        McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest(tool, args, null));
        assertThat(result.isError()).as(tool + ": " + text(result)).isFalse();
        return parse(text(result));
    }

    private Map<String, Object> error(McpSyncClient client, String tool, Map<String, Object> args) {
        McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest(tool, args, null));
        assertThat(result.isError()).as(tool + ": " + text(result)).isTrue();
        return parse(text(result));
    }

    private static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    private Map<String, Object> parse(String text) {
        try {
            return json.readValue(text, Argument.mapOf(String.class, Object.class));
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    private String json(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static String id(Map<String, Object> written) {
        return (String) ((Map<String, Object>) written.get("memory")).get("id");
    }

    private static List<String> ids(Map<String, Object> answer) {
        return ((List<Map<String, Object>>) answer.get("items"))
                .stream().map(i -> (String) i.get("id")).toList();
    }

    private String state(String space, String id) {
        return (String) http.toBlocking()
                .retrieve(
                        HttpRequest.GET("/v1/spaces/" + space + "/memories/" + id)
                                .bearerAuth(key(Role.AGENT, "reader", space)),
                        Map.class)
                .get("state");
    }

    private List<Map<String, Object>> audit(String space) {
        return (List<Map<String, Object>>) http.toBlocking()
                .retrieve(
                        HttpRequest.GET("/v1/spaces/" + space + "/audit").bearerAuth(key(Role.AGENT, "reader", space)),
                        Map.class)
                .get("items");
    }

    /** Hostile lines on the stdio launcher, on this same application. */
    @org.junit.jupiter.api.Nested
    class StdioFuzz extends StdioFuzzContract {

        @Override
        protected String url() {
            return server.getURL().toString();
        }

        @Override
        protected String agentKey() {
            return key(
                    Role.AGENT,
                    "fuzzer",
                    "stdio-" + UUID.randomUUID().toString().substring(0, 8));
        }

        @Override
        protected JsonMapper json() {
            return json;
        }
    }
}
