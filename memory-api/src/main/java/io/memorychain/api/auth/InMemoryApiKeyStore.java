package io.memorychain.api.auth;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Keys held in this process only: for the TopologyTestDriver backend, which has no broker. */
final class InMemoryApiKeyStore implements ApiKeyStore {

    private final Map<String, ApiKeyRecord> records = new LinkedHashMap<>();

    @Override
    public synchronized Optional<ApiKeyRecord> find(String keyId) {
        return Optional.ofNullable(records.get(keyId));
    }

    @Override
    public synchronized List<ApiKeyRecord> all() {
        return new ArrayList<>(records.values());
    }

    @Override
    public synchronized void save(ApiKeyRecord record) {
        records.put(record.keyId(), record);
    }

    @Override
    public void close() {}
}
