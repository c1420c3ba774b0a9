package io.memorychain.projector.sequencer;

import io.memorychain.avro.MemoryErased;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.events.content.SubjectLinks;
import io.memorychain.projector.support.StoreKeys;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The erasure cascade's links in the sequencer's own store ({@link SequencerTopology#SUBJECTS_STORE},
 * docs/architecture.md §12): for each memory, the subjects whose sealed texts carry its content ({@link SubjectLinks}),
 * and the subjects already erased. Kept from the events as they are appended, so it is a pure function of the chain
 * ({@link SubjectLinks#replay} computes the same from the chain alone).
 */
final class SubjectStore {

    /** The part of the key under which a space's erased subjects are kept (no memory id starts with a control char). */
    static final String ERASED = "\u0001erased";

    private static final String SEP = String.valueOf(StoreKeys.SEP);

    private final KeyValueStore<String, String> store;

    SubjectStore(KeyValueStore<String, String> store) {
        this.store = store;
    }

    /**
     * The subjects linked to the memory, and to the memories among those subjects in turn (a memory consolidated from
     * it, and what that one was consolidated into), that are not erased yet, breadth first in link order: what its
     * erasure destroys with it.
     */
    List<String> cascade(String space, String memoryId) {
        Set<String> reached = new LinkedHashSet<>();
        ArrayDeque<String> next = new ArrayDeque<>(List.of(memoryId));
        while (!next.isEmpty()) {
            for (String subject : links(space, next.removeFirst())) {
                if (!subject.equals(memoryId) && reached.add(subject)) {
                    next.addLast(subject); // only memories have links of their own
                }
            }
        }
        List<String> out = new ArrayList<>();
        for (String subject : reached) {
            if (store.get(StoreKeys.of(space, ERASED, subject)) == null) {
                out.add(subject);
            }
        }
        return out;
    }

    /** The subjects linked to the memory, in link order. */
    Set<String> links(String space, String memoryId) {
        String value = store.get(StoreKeys.of(space, memoryId));
        return value == null ? new LinkedHashSet<>() : new LinkedHashSet<>(Arrays.asList(value.split(SEP)));
    }

    /** Whether the subject was erased by an earlier erasure. */
    boolean erased(String space, String subject) {
        return store.get(StoreKeys.of(space, ERASED, subject)) != null;
    }

    /** Applies an appended event: its links, and the subjects an erasure erased. */
    void apply(MemoryEvent event) {
        String space = event.getSpace();
        if (event.getPayload() instanceof MemoryErased erased) {
            for (String subject : erased.getDestroyedSubjects()) {
                store.put(StoreKeys.of(space, ERASED, subject), Long.toString(event.getSeq()));
            }
        }
        for (SubjectLinks.Link link : SubjectLinks.of(event)) {
            Set<String> subjects = links(space, link.memoryId());
            if (subjects.add(link.subject())) {
                store.put(StoreKeys.of(space, link.memoryId()), String.join(SEP, subjects));
            }
        }
    }
}
