package io.memorychain.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.api.auth.Operation;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every operation of the service's catalogue that has a REST route has a method of its name in the client. */
class OperationParityTest {

    /** REST operations left out of the client, and why (none today). */
    static final Map<Operation, String> EXEMPT = Map.of();
    /** Operations without a REST route in the catalogue, and what the client offers for each. */
    static final Map<Operation, String> NO_REST_ROUTE = Map.of(
            Operation.CHAIN_KEYS, "served without a key at GET /v1/chain/keys: chainKeys()",
            Operation.MCP, "the MCP endpoint is for MCP clients; its tools are the REST operations of this client");

    @Test
    void everyRestOperationHasAMethodOfItsName() {
        Set<String> methods = Arrays.stream(MemoryChainClient.class.getMethods())
                .filter(m -> Modifier.isPublic(m.getModifiers()) && !Modifier.isStatic(m.getModifiers()))
                .map(Method::getName)
                .collect(Collectors.toSet());
        List<String> missing = Stream.of(Operation.values())
                .filter(o -> hasRestRoute(o) && !EXEMPT.containsKey(o))
                .map(OperationParityTest::lowerCamel)
                .filter(name -> !methods.contains(name))
                .toList();
        assertThat(missing).as("catalogue operations without a client method").isEmpty();
        assertThat(methods)
                .as("the watch of a space's changes (WATCH_CHANGES, server-sent events)")
                .contains("watchChanges");
        List<Operation> routeless =
                Stream.of(Operation.values()).filter(o -> !hasRestRoute(o)).toList();
        assertThat(NO_REST_ROUTE.keySet())
                .as("operations without a REST route, each with what the client offers")
                .containsExactlyInAnyOrderElementsOf(routeless);
        EXEMPT.forEach((o, why) -> System.out.println("Exempt from the Java client: " + o + ": " + why));
        NO_REST_ROUTE.forEach((o, why) -> System.out.println("No REST route: " + o + ": " + why));
    }

    static boolean hasRestRoute(Operation o) {
        try {
            Field path = Operation.class.getDeclaredField("path");
            path.setAccessible(true);
            return path.get(o) != null;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Operation's route field changed: adapt this test", e);
        }
    }

    static String lowerCamel(Operation o) {
        String[] parts = o.name().toLowerCase(Locale.ROOT).split("_");
        StringBuilder b = new StringBuilder(parts[0]);
        for (int i = 1; i < parts.length; i++) {
            b.append(Character.toUpperCase(parts[i].charAt(0))).append(parts[i].substring(1));
        }
        return b.toString();
    }
}
