package io.memorychain.projector.projection;

import io.memorychain.avro.Memory;
import io.memorychain.projector.support.StoreKeys;
import java.util.Locale;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The {@link ProjectionTopology#COUNTS} view: how many memories of a space stand in each tier, state, decay status,
 * kind and category, kept up to date by every change the projection applies (one decrement of the memory as it was, one
 * increment as it is), so a dashboard reads a few dozen keys instead of scanning the space. Keys
 * {@code space\0facet\0value}; {@code space\0}{@value #FROM} holds the first seq counted: 1 when the counts cover the
 * whole chain, higher when the view was added to a projection that had already applied earlier events of the space.
 */
final class SpaceCounts {

    /** The facets counted, in the order a page shows them. */
    static final String[] FACETS = {"tier", "state", "decay", "kind", "category"};

    static final String FROM = "~from";
    /** The value counted for memories without a category. */
    static final String NONE = "-";

    private final KeyValueStore<String, Long> store;

    SpaceCounts(KeyValueStore<String, Long> store) {
        this.store = store;
    }

    /** Before the space's event {@code seq} is applied: records where counting began. */
    void begin(String space, long seq) {
        String key = StoreKeys.of(space, FROM);
        if (store.get(key) == null) {
            store.put(key, seq);
        }
    }

    /** A memory changed from {@code before} (null: new) to {@code after}. */
    void change(String space, Memory before, Memory after) {
        for (String facet : FACETS) {
            String was = before == null ? null : value(facet, before);
            String is = value(facet, after);
            if (is.equals(was)) {
                continue;
            }
            if (was != null) {
                add(StoreKeys.of(space, facet, was), -1);
            }
            add(StoreKeys.of(space, facet, is), 1);
        }
    }

    private void add(String key, long delta) {
        Long now = store.get(key);
        long next = (now == null ? 0 : now) + delta;
        if (next <= 0) {
            if (now != null) {
                store.delete(key);
            }
        } else {
            store.put(key, next);
        }
    }

    static String value(String facet, Memory m) {
        return switch (facet) {
            case "tier" -> lower(m.getTier());
            case "state" -> lower(m.getState());
            case "decay" -> m.getDecayStatus() == null ? "active" : lower(m.getDecayStatus());
            case "kind" -> lower(m.getKind());
            case "category" -> m.getCategory() == null || m.getCategory().isBlank() ? NONE : m.getCategory();
            default -> throw new IllegalArgumentException("unknown facet " + facet);
        };
    }

    private static String lower(Enum<?> e) {
        return e == null ? NONE : e.name().toLowerCase(Locale.ROOT);
    }
}
