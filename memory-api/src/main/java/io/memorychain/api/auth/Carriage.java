package io.memorychain.api.auth;

import java.util.List;
import java.util.Objects;

/**
 * How one transport carries an {@link Operation}: under one or more names (a REST route, a gRPC method, MCP tools), or
 * not at all, for a stated reason. The catalogue gives each operation one per transport, so a transport that lacks an
 * operation says why ({@code TransportParityTest} prints every exemption).
 *
 * @param names the route ({@code "POST S/memories"}), method or tool names; empty when exempt
 * @param exemption why the transport does not carry the operation; null when it does
 */
public record Carriage(List<String> names, String exemption) {

    public Carriage {
        names = List.copyOf(names);
        if (names.isEmpty() == (exemption == null)) {
            throw new IllegalArgumentException("a carriage has names or an exemption, not both or neither");
        }
    }

    static Carriage by(String... names) {
        return new Carriage(List.of(names), null);
    }

    static Carriage exempt(String reason) {
        return new Carriage(List.of(), Objects.requireNonNull(reason));
    }

    /** Whether the transport carries the operation. */
    public boolean carried() {
        return exemption == null;
    }

    /** The one name (a route or a method), or null when exempt. */
    String single() {
        if (names.size() > 1) {
            throw new IllegalStateException("more than one name: " + names);
        }
        return names.isEmpty() ? null : names.get(0);
    }
}
