package io.memorychain.projector.projection;

import io.memorychain.avro.MemoryErased;
import io.memorychain.avro.view.AuditEntry;
import io.memorychain.avro.view.HistoryEntry;
import io.memorychain.avro.view.MemoryChange;
import io.memorychain.avro.view.Proposal;
import io.memorychain.avro.view.RefinementEdit;
import io.memorychain.avro.view.RefinementSession;
import io.memorychain.avro.view.Reflection;
import io.memorychain.domain.Purges;
import io.memorychain.events.content.ChainContent;
import io.memorychain.events.content.SealedTexts;
import io.memorychain.projector.support.StoreKeys;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * What an erasure's cascade does to the views (docs/architecture.md §12): the stored proposal, reflection and
 * refinement session of every destroyed subject ({@code MemoryErased.destroyed_subjects}) get the marker in place of
 * the texts the chain seals under the subject ({@link SealedTexts}: the views hold the same records), their audit lines
 * lose their texts, and the refinement edits of a destroyed session lose the erased memory's snapshots. The audit lines
 * of the erased memory's own events lose their reasons, and so do those of the memories consolidated from it (destroyed
 * subjects too). Deterministic: a replay gives the same stores.
 */
final class SubjectErasure {

    private final KeyValueStore<String, Proposal> proposals;
    private final KeyValueStore<String, Proposal> openProposals;
    private final KeyValueStore<String, Reflection> reflections;
    private final KeyValueStore<String, RefinementSession> sessions;
    private final KeyValueStore<String, RefinementEdit> edits;
    private final KeyValueStore<String, AuditEntry> audit;
    private final KeyValueStore<String, HistoryEntry> history;

    SubjectErasure(
            KeyValueStore<String, Proposal> proposals,
            KeyValueStore<String, Proposal> openProposals,
            KeyValueStore<String, Reflection> reflections,
            KeyValueStore<String, RefinementSession> sessions,
            KeyValueStore<String, RefinementEdit> edits,
            KeyValueStore<String, AuditEntry> audit,
            KeyValueStore<String, HistoryEntry> history) {
        this.proposals = proposals;
        this.openProposals = openProposals;
        this.reflections = reflections;
        this.sessions = sessions;
        this.edits = edits;
        this.audit = audit;
        this.history = history;
    }

    /** Applies the erasure at {@code seq} (its own audit line keeps its reason: the proof shows it). */
    void apply(String space, long seq, MemoryErased erased) {
        memoryEvents(space, erased.getMemoryId(), seq);
        for (String subject : erased.getDestroyedSubjects()) {
            if (subject.startsWith(SealedTexts.SESSION_PREFIX)) {
                session(space, subject.substring(SealedTexts.SESSION_PREFIX.length()), erased.getMemoryId());
            } else {
                proposal(space, subject);
                reflection(space, subject);
                memoryEvents(space, subject, seq); // a memory consolidated from it
            }
        }
    }

    /** The audit lines of a memory's own events but the erasure: their reasons were sealed under its key. */
    private void memoryEvents(String space, String memoryId, long erasureSeq) {
        List<Long> seqs = new ArrayList<>();
        try (KeyValueIterator<String, HistoryEntry> it =
                history.prefixScan(StoreKeys.prefix(space, memoryId), new StringSerializer())) {
            it.forEachRemaining(kv -> seqs.add(kv.value.getSeq()));
        }
        for (long memorySeq : seqs) {
            if (memorySeq != erasureSeq) {
                scrubAudit(space, memorySeq);
            }
        }
    }

    private void proposal(String space, String id) {
        String key = StoreKeys.of(space, id);
        Proposal p = proposals.get(key);
        if (p == null) {
            return;
        }
        SealedTexts.scrubView(p);
        proposals.put(key, p);
        if (openProposals.get(key) != null) {
            openProposals.put(key, p);
        }
        scrubAudit(space, p.getSubmittedSeq());
        scrubAudit(space, p.getUpdatedSeq());
    }

    private void reflection(String space, String id) {
        String key = StoreKeys.of(space, id);
        Reflection r = reflections.get(key);
        if (r == null) {
            return;
        }
        SealedTexts.scrubView(r);
        reflections.put(key, r);
        scrubAudit(space, r.getProposedSeq());
        if (r.getDecidedSeq() != null) {
            scrubAudit(space, r.getDecidedSeq());
        }
    }

    private void session(String space, String id, String memoryId) {
        String key = StoreKeys.of(space, id);
        RefinementSession s = sessions.get(key);
        if (s == null) {
            return;
        }
        SealedTexts.scrubView(s);
        sessions.put(key, s);
        scrubAudit(space, s.getStartedSeq());
        if (s.getCompletedSeq() != null) {
            scrubAudit(space, s.getCompletedSeq());
        }
        List<KeyValue<String, RefinementEdit>> found = new ArrayList<>();
        try (KeyValueIterator<String, RefinementEdit> it =
                edits.prefixScan(StoreKeys.prefix(space, id), new StringSerializer())) {
            it.forEachRemaining(found::add);
        }
        for (KeyValue<String, RefinementEdit> kv : found) {
            for (MemoryChange c : kv.value.getChanges()) {
                if (c.getAfter().getId().equals(memoryId)) {
                    Purges.scrub(c.getBefore());
                    Purges.scrub(c.getAfter());
                }
            }
            kv.value.setDescription(withoutTexts(kv.value.getDescription()));
            edits.put(kv.key, kv.value);
        }
    }

    private void scrubAudit(String space, long seq) {
        String key = StoreKeys.of(space, StoreKeys.seq(seq));
        AuditEntry line = audit.get(key);
        if (line != null) {
            String description = withoutTexts(line.getDescription());
            if (!description.equals(line.getDescription())) {
                line.setDescription(description);
                audit.put(key, line);
            }
        }
    }

    /**
     * An audit line without the texts it quoted: cut where the first text starts ({@code ": "} or {@code " ("}, the
     * only places {@code EventDescriptions} quotes texts), then the marker. Idempotent.
     */
    static String withoutTexts(String description) {
        int colon = description.indexOf(": ");
        int paren = description.indexOf(" (");
        int cut = colon < 0 ? paren : paren < 0 ? colon : Math.min(colon, paren);
        String head = cut < 0 ? description : description.substring(0, cut);
        return head.endsWith(" " + ChainContent.ERASED) ? head : head + " " + ChainContent.ERASED;
    }
}
