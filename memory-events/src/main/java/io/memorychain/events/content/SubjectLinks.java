package io.memorychain.events.content;

import io.memorychain.avro.MemoriesConsolidated;
import io.memorychain.avro.MemoryErased;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.ProposalDecision;
import io.memorychain.avro.ProposalResolved;
import io.memorychain.avro.RefinementCompleted;
import io.memorychain.avro.ReflectionChange;
import io.memorychain.avro.ReflectionDecided;
import io.memorychain.avro.ReflectionProposed;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;

/**
 * Which subjects' sealed texts carry a memory's content (docs/architecture.md §12, erasure cascade), as a pure function
 * of the chain: erasing the memory destroys their keys too. A memory is linked to the proposal it was committed from,
 * to every reflection whose episodes, changes (proposed or edited) or applied memories name it, to every refinement
 * session that changed it (an event carrying the session id, or the session's completion: journal and protected
 * memories), and to the memory it was consolidated into (whose text was written from its inputs'; that memory's own
 * links make the cascade go on, to what it was consolidated into in turn). Only ids are read, which are plain on the
 * chain, so the links can be computed from the encrypted chain as well as from the plain events.
 */
public final class SubjectLinks {

    /** One link: the memory's erasure also erases the subject. */
    public record Link(String memoryId, String subject) {}

    private SubjectLinks() {}

    /** The links an event adds, in a stable order (no duplicates). */
    public static List<Link> of(MemoryEvent event) {
        Set<Link> out = new LinkedHashSet<>();
        Object p = event.getPayload();
        if (p instanceof ProposalResolved r && r.getDecision() == ProposalDecision.COMMIT && r.getMemoryId() != null) {
            out.add(new Link(r.getMemoryId(), r.getProposalId()));
        } else if (p instanceof ReflectionProposed r) {
            String subject = r.getReflectionId();
            r.getReflection().getEpisodeIds().forEach(id -> out.add(new Link(id, subject)));
            r.getReflection().getChanges().forEach(c -> changeLinks(c, subject, out));
        } else if (p instanceof ReflectionDecided r) {
            String subject = r.getReflectionId();
            r.getMemoryIds().forEach(id -> out.add(new Link(id, subject)));
            r.getEditedChanges().forEach(c -> changeLinks(c, subject, out));
        } else if (p instanceof MemoriesConsolidated c) {
            String subject = c.getCreated().getId();
            c.getSupersededIds().forEach(id -> out.add(new Link(id, subject)));
        } else if (p instanceof RefinementCompleted r) {
            String subject = SealedTexts.session(r.getSessionId());
            out.add(new Link(r.getJournal().getId(), subject));
            r.getProtectedIds().forEach(id -> out.add(new Link(id, subject)));
        }
        if (event.getSessionId() != null && !(p instanceof MemoryErased)) {
            String subject = SealedTexts.session(event.getSessionId());
            memoriesNamed(p).forEach(id -> out.add(new Link(id, subject)));
        }
        return List.copyOf(out);
    }

    /**
     * The links and erased subjects of a whole chain, replayed: memory id -> its subjects (in link order), and under
     * the key {@code ""} the subjects erased so far (from {@code MemoryErased.destroyed_subjects}). What the
     * sequencer's store must equal after the same events (a test compares them).
     */
    public static Map<String, Set<String>> replay(Iterable<MemoryEvent> events) {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        for (MemoryEvent event : events) {
            if (event.getPayload() instanceof MemoryErased erased) {
                out.computeIfAbsent("", k -> new LinkedHashSet<>()).addAll(erased.getDestroyedSubjects());
            }
            for (Link link : of(event)) {
                out.computeIfAbsent(link.memoryId(), k -> new LinkedHashSet<>()).add(link.subject());
            }
        }
        return out;
    }

    private static void changeLinks(ReflectionChange c, String subject, Set<Link> out) {
        if (c.getMemoryId() != null) {
            out.add(new Link(c.getMemoryId(), subject));
        }
        if (c.getToId() != null) {
            out.add(new Link(c.getToId(), subject));
        }
    }

    /** The memories a payload names: its snapshots, and its {@code memory_id}, {@code superseded_ids} fields. */
    private static List<String> memoriesNamed(Object payload) {
        List<String> ids = new ArrayList<>();
        ChainContent.forEachMemory(payload, m -> ids.add(m.getId()));
        if (payload instanceof SpecificRecord record) {
            Schema.Field field = record.getSchema().getField("memory_id");
            if (field != null && record.get(field.pos()) != null) {
                ids.add(record.get(field.pos()).toString());
            }
        }
        if (payload instanceof MemoriesConsolidated c) {
            ids.addAll(c.getSupersededIds());
        }
        return ids;
    }
}
