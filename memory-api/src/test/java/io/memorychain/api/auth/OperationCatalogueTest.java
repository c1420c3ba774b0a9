package io.memorychain.api.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.MethodDescriptor;
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
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The operation catalogue covers every REST route, gRPC method and MCP tool, so a new one cannot slip past the role
 * rules with a scope nobody chose.
 */
@MicronautTest(environments = TopologyBackend.ENV)
@Property(name = "micronaut.server.port", value = "-1")
@Property(name = "memory.auth.bootstrap", value = "false")
class OperationCatalogueTest {

    /** Routes outside the catalogue on purpose: served without a key, or outside /v1 and /mcp (no AuthFilter). */
    private static final Set<String> PUBLIC =
            Set.of("GET /v1/tools", "HEAD /v1/tools", "GET /v1/chain/keys", "HEAD /v1/chain/keys");

    @Inject
    Router router;

    @Inject
    MemoryTools tools;

    @Test
    void everyRestRouteUnderV1AndMcpHasAnOperation() {
        List<String> missing = new ArrayList<>();
        List<UriRouteInfo<?, ?>> routes = router.uriRoutes().toList();
        for (UriRouteInfo<?, ?> route : routes) {
            String template = route.getUriMatchTemplate().toString();
            if (!template.startsWith("/v1") && !template.startsWith("/mcp")) {
                continue;
            }
            String method = route.getHttpMethod().name();
            if (PUBLIC.contains(method + " " + template) || route.getHttpMethod() == HttpMethod.OPTIONS) {
                continue;
            }
            String sample = template.replace("{space}", "acme.main")
                    .replace("{+path}", "facts/a.md")
                    .replaceAll("\\{[^}]+}", "m0000001abcd");
            if (Operation.ofRest(method, sample).isEmpty()) {
                missing.add(method + " " + template);
            }
        }
        assertThat(routes).isNotEmpty();
        assertThat(missing).as("routes without an operation").isEmpty();
    }

    @Test
    void everyGrpcMethodHasAnOperationAndEveryOperationNamesARealMethod() {
        Set<String> methods = MemoryServiceGrpc.getServiceDescriptor().getMethods().stream()
                .map(MethodDescriptor::getBareMethodName)
                .collect(Collectors.toSet());

        assertThat(methods)
                .allSatisfy(m -> assertThat(Operation.ofGrpc(m)).as(m).isPresent());
        assertThat(Arrays.stream(Operation.values()).map(Operation::grpcMethod).filter(m -> m != null))
                .allSatisfy(m -> assertThat(methods).contains(m));
    }

    @Test
    void everyMcpToolRunsAnOperationOfItsScope() {
        assertThat(tools.all()).extracting(MemoryTool::operation).doesNotContainNull();
        assertThat(tools.all())
                .filteredOn(t -> t.roles().contains(Role.ADMIN))
                .allSatisfy(
                        t -> assertThat(t.operation().scope()).as(t.name()).isNotEqualTo(AccessRules.Scope.CONTENT));
    }

    @Test
    void governanceAndKeysAreSeparatedFromContentOnEveryTransport() {
        assertThat(Operation.scopeOfRest("POST", "/v1/spaces/a/memories/m1:protect"))
                .isEqualTo(AccessRules.Scope.GOVERNANCE);
        assertThat(Operation.scopeOfRest("POST", "/v1/spaces/a/memories/m1:pin"))
                .isEqualTo(AccessRules.Scope.CONTENT);
        assertThat(Operation.scopeOfRest("GET", "/v1/keys")).isEqualTo(AccessRules.Scope.KEYS);
        assertThat(Operation.scopeOfRest("HEAD", "/v1/keys")).isEqualTo(AccessRules.Scope.KEYS);
        assertThat(Operation.scopeOfRest("GET", "/v1/spaces/a/unknown"))
                .as("fail closed")
                .isEqualTo(AccessRules.Scope.CONTENT);
        assertThat(Operation.scopeOfGrpc("ProtectMemory")).isEqualTo(AccessRules.Scope.GOVERNANCE);
        assertThat(Operation.scopeOfGrpc("RevokeKey")).isEqualTo(AccessRules.Scope.KEYS);
        assertThat(Operation.scopeOfGrpc("NoSuchMethod")).isEqualTo(AccessRules.Scope.CONTENT);
    }
}
