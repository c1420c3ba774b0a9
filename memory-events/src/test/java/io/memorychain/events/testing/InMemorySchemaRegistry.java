package io.memorychain.events.testing;

import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.registry.SchemaRegistryException;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;

/** Registry for TopologyTestDriver unit tests only; integration tests use the real registries. */
public final class InMemorySchemaRegistry implements SchemaRegistry {

    private final Map<Schema, Integer> ids = new HashMap<>();
    private final Map<Integer, Schema> schemas = new HashMap<>();

    @Override
    public synchronized int register(String subject, Schema schema) {
        return ids.computeIfAbsent(schema, s -> {
            int id = ids.size() + 1;
            schemas.put(id, s);
            return id;
        });
    }

    @Override
    public synchronized Schema byId(int id) {
        Schema schema = schemas.get(id);
        if (schema == null) {
            throw new SchemaRegistryException("Unknown schema id " + id);
        }
        return schema;
    }

    @Override
    public boolean isCompatible(String subject, Schema schema) {
        return true;
    }
}
