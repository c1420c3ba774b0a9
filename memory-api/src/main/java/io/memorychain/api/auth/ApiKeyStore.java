package io.memorychain.api.auth;

import java.util.List;
import java.util.Optional;

/** Where key records live. Implementations are thread-safe. */
public interface ApiKeyStore extends AutoCloseable {

    /** The record of a key id (revoked ones included), seeing records other instances saved. */
    Optional<ApiKeyRecord> find(String keyId);

    /** Every record, oldest first. */
    List<ApiKeyRecord> all();

    /** Stores (or replaces) a record durably before returning. */
    void save(ApiKeyRecord record);

    @Override
    void close();
}
