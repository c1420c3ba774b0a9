package io.memorychain.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.api.auth.Operation;
import io.memorychain.api.error.ErrorCodes;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every operation of the catalogue with a REST route has a method in each client, named after it (CREATE_MEMORY:
 * {@code create_memory} in Python, {@code createMemory} in TypeScript and Java), or an exemption with its reason; every
 * error code of the service has its error class in each client.
 */
class ClientParityTest {

    private static final Logger log = LoggerFactory.getLogger(ClientParityTest.class);

    static Stream<ClientSources> clients() {
        Path root = ClientSources.repoRoot();
        Stream<ClientSources> polyglot = Stream.of(ClientSources.python(root), ClientSources.typescript(root));
        return Files.isDirectory(root.resolve("memory-client"))
                ? Stream.concat(Stream.of(ClientSources.java(root)), polyglot)
                : polyglot;
    }

    /** The operations a REST route reaches (the catalogue's private route, read by reflection). */
    static List<Operation> restOperations() {
        try {
            Field method = Operation.class.getDeclaredField("httpMethod");
            method.setAccessible(true);
            List<Operation> out = new ArrayList<>();
            for (Operation o : Operation.values()) {
                if (method.get(o) != null) {
                    out.add(o);
                }
            }
            return out;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Operation no longer has its httpMethod field: update this test", e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void everyRestOperationHasAMethodOrAnExemptionWithItsReason(ClientSources client) {
        List<Operation> rest = restOperations();
        assertThat(rest).as("the catalogue's REST operations").hasSizeGreaterThan(60);
        List<String> missing = rest.stream()
                .map(Operation::name)
                .filter(op -> !client.methods().contains(client.methodName().apply(op)))
                .filter(op -> !client.exemptions().containsKey(op))
                .toList();
        assertThat(missing)
                .as(
                        "%s client: operations without a method (%s) or an exemption",
                        client.name(), missing.stream().map(client.methodName()).toList())
                .isEmpty();
        client.exemptions().forEach((op, reason) -> log.info("{} client exempts {}: {}", client.name(), op, reason));
        assertThat(client.exemptions())
                .as("exemptions have reasons")
                .allSatisfy((op, reason) -> assertThat(reason).isNotBlank());
        Set<String> known =
                Arrays.stream(Operation.values()).map(Operation::name).collect(Collectors.toSet());
        assertThat(client.exemptions().keySet())
                .as("exemptions name operations of the catalogue")
                .isSubsetOf(known);
        Set<String> restNames = rest.stream().map(Operation::name).collect(Collectors.toSet());
        assertThat(client.exemptions().keySet().stream()
                        .filter(restNames::contains)
                        .filter(op ->
                                client.methods().contains(client.methodName().apply(op))))
                .as("an exempted REST operation has no method")
                .isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void everyOperationWithoutARestRouteIsExemptedOrServedAnotherWay(ClientSources client) {
        Set<Operation> rest = Set.copyOf(restOperations());
        List<String> other = Arrays.stream(Operation.values())
                .filter(o -> !rest.contains(o))
                .map(Operation::name)
                .filter(op -> !client.exemptions().containsKey(op))
                .filter(op -> !client.methods().contains(client.methodName().apply(op)))
                .toList();
        // CHAIN_KEYS is served over REST outside the catalogue's routes (GET /v1/chain/keys, no key): a method covers
        // it
        assertThat(other)
                .as("%s client: operations without a REST route, neither covered nor exempted", client.name())
                .isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void everyErrorCodeOfTheServiceHasItsErrorClass(ClientSources client) throws IllegalAccessException {
        Set<String> codes = new TreeSet<>();
        for (Field f : ErrorCodes.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                codes.add((String) f.get(null));
            }
        }
        assertThat(codes).hasSizeGreaterThan(30);
        assertThat(client.errorCodes())
                .as("%s client's error classes", client.name())
                .containsAll(codes);
    }
}
