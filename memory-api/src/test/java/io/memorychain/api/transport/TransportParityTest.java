package io.memorychain.api.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.MethodDescriptor;
import io.grpc.ServerMethodDefinition;
import io.memorychain.api.auth.Carriage;
import io.memorychain.api.auth.Operation;
import io.memorychain.api.grpc.MemoryGrpcService;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.mcp.MemoryTool;
import io.memorychain.api.mcp.MemoryTools;
import io.memorychain.api.topology.TopologyBackend;
import io.micronaut.context.annotation.Property;
import io.micronaut.http.HttpMethod;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.web.router.Router;
import io.micronaut.web.router.UriRouteInfo;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every operation on every transport, by construction: the {@link Operation} catalogue names, for each operation, its
 * REST route, its gRPC method and its MCP tools, or why a transport does not carry it. This test holds the three
 * transports to it both ways: an operation a transport lacks without a reason fails, and so does a route, method or
 * tool the catalogue does not list. It prints the exemptions.
 */
@MicronautTest(environments = TopologyBackend.ENV)
@Property(name = "micronaut.server.port", value = "-1")
@Property(name = "grpc.server.port", value = "0")
@Property(name = "memory.auth.bootstrap", value = "false")
class TransportParityTest {

    /** REST routes that are no operation: served without a key (the catalogue's CHAIN_KEYS says so). */
    private static final Set<String> PUBLIC = Set.of("GET /v1/tools", "GET /v1/chain/keys");

    @Inject
    Router router;

    @Inject
    MemoryTools tools;

    @Inject
    MemoryGrpcService grpc;

    @Test
    void everyOperationIsCarriedByEveryTransportOrSaysWhyNot() {
        Map<String, List<String>> exemptions = new TreeMap<>();
        for (Operation o : Operation.values()) {
            for (Map.Entry<String, Carriage> t : carriages(o).entrySet()) {
                Carriage c = t.getValue();
                if (!c.carried()) {
                    assertThat(c.exemption()).as(o + " on " + t.getKey()).isNotBlank();
                    exemptions
                            .computeIfAbsent(t.getKey(), k -> new ArrayList<>())
                            .add(o + ": " + c.exemption());
                }
            }
        }
        StringBuilder printed = new StringBuilder("Operations a transport does not carry, and why:\n");
        exemptions.forEach((transport, list) -> {
            printed.append("  ")
                    .append(transport)
                    .append(" (")
                    .append(list.size())
                    .append(")\n");
            list.forEach(line -> printed.append("    ").append(line).append('\n'));
        });
        System.out.print(printed);
        assertThat(exemptions.get("gRPC"))
                .as("gRPC carries every operation but the MCP endpoint")
                .containsExactly("MCP: " + Operation.MCP.grpc().exemption());
    }

    @Test
    void theRestRoutesAreExactlyTheCataloguedOnes() {
        Set<Operation> routed = new TreeSet<>();
        List<String> unknown = new ArrayList<>();
        for (UriRouteInfo<?, ?> route : router.uriRoutes().toList()) {
            String template = route.getUriMatchTemplate().toString();
            String method = route.getHttpMethod().name();
            if (!template.startsWith("/v1")
                    || route.getHttpMethod() == HttpMethod.OPTIONS
                    || route.getHttpMethod() == HttpMethod.HEAD
                    || PUBLIC.contains(method + " " + template)) {
                continue;
            }
            String sample = template.replace("{space}", "acme.main")
                    .replace("{+path}", "facts/a.md")
                    .replaceAll("\\{[^}]+}", "m0000001abcd");
            Operation.ofRest(method, sample).ifPresentOrElse(routed::add, () -> unknown.add(method + " " + template));
        }
        assertThat(unknown).as("REST routes the catalogue does not list").isEmpty();
        assertThat(Arrays.stream(Operation.values()).filter(o -> o.rest().carried()))
                .as("catalogued REST routes no controller serves")
                .allSatisfy(o -> assertThat(routed).contains(o));
    }

    @Test
    void theGrpcMethodsAreExactlyTheCataloguedOnesAndEachIsBound() {
        Set<String> declared = MemoryServiceGrpc.getServiceDescriptor().getMethods().stream()
                .map(MethodDescriptor::getBareMethodName)
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> catalogued = Arrays.stream(Operation.values())
                .filter(o -> o.grpc().carried())
                .flatMap(o -> o.grpc().names().stream())
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(declared).as("gRPC methods vs the catalogue").isEqualTo(catalogued);

        // the service binds every declared method (ServerServiceDefinition refuses to build otherwise)
        Set<String> bound = grpc.bindService().getMethods().stream()
                .map(ServerMethodDefinition::getMethodDescriptor)
                .map(MethodDescriptor::getBareMethodName)
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(bound).isEqualTo(declared);
    }

    @Test
    void theMcpToolsAreExactlyTheCataloguedOnesAndEachChecksAnOperationThatListsIt() {
        Map<String, MemoryTool> byName =
                tools.all().stream().collect(Collectors.toMap(MemoryTool::name, Function.identity()));
        Set<String> catalogued = Arrays.stream(Operation.values())
                .filter(o -> o.mcp().carried())
                .flatMap(o -> o.mcp().names().stream())
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(new TreeSet<>(byName.keySet()))
                .as("MCP tools vs the catalogue")
                .isEqualTo(catalogued);
        assertThat(tools.all())
                .allSatisfy(t ->
                        assertThat(t.operation().mcp().names()).as(t.name()).contains(t.name()));
    }

    @Test
    void aCarriageIsNamesOrAReasonNeverBothOrNeither() {
        assertThat(new Carriage(List.of("Query"), null).carried()).isTrue();
        assertThat(new Carriage(List.of(), "why").carried()).isFalse();
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> new Carriage(List.of(), null)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> new Carriage(List.of("Query"), "why")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static Map<String, Carriage> carriages(Operation o) {
        Map<String, Carriage> byTransport = new TreeMap<>();
        byTransport.put("REST", o.rest());
        byTransport.put("gRPC", o.grpc());
        byTransport.put("MCP", o.mcp());
        return byTransport;
    }
}
