package io.memorychain.events.content;

/** Where readers find memories' data keys: {@link DataKeyRing} over the key topic, or a map in tests. */
@FunctionalInterface
public interface DataKeys {

    /** The memory's key, live or destroyed; null when none is known (never encrypted, or a broken invariant). */
    DataKey find(String space, String memoryId);
}
