package io.memorychain.console.memories;

import io.memorychain.api.audit.AuditEntryJson;
import io.memorychain.api.audit.AuditLog;
import io.memorychain.api.auth.Operation;
import io.memorychain.api.chain.ChainCheckpoints;
import io.memorychain.api.chain.ChainVerification;
import io.memorychain.api.chain.ChainVerificationResult;
import io.memorychain.api.chain.PublicKeysJson;
import io.memorychain.api.erasure.ErasureProof;
import io.memorychain.api.erasure.Erasures;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.history.AsOfReads;
import io.memorychain.api.memories.HistoryEntryJson;
import io.memorychain.api.memories.Memories;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.api.relations.RelationJson;
import io.memorychain.api.relations.Relations;
import io.memorychain.avro.Memory;
import io.memorychain.console.web.Visit;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What the memory page shows, each part from the application service REST answers it with and only when the key's role
 * may run that operation: the memory (GET memory, admins under a grant), its versions (GET history) as word
 * differences, its relations one and two hops away (GET relations), the provenance of each version (the audit log's
 * hash of its event, the chain's keys, and on request the chain's verification) and, for an erased memory, the erasure
 * proof.
 */
@Singleton
public class MemoryDetails {

    /** Versions shown at most (the newest). */
    static final int MAX_VERSIONS = 50;
    /**
     * Relations shown at most one hop away, and at most two hops away (the page shows a neighbourhood, not the graph).
     */
    static final int MAX_NEIGHBOURS = 25;

    /** A field whose value a version changed. */
    public record FieldChange(String field, String before, String after) {}

    /** One event that touched the memory: its content difference (null when the text did not change) and fields. */
    public record Version(
            HistoryEntryJson entry, Integer version, List<WordDiff.Part> diff, List<FieldChange> fields) {}

    /** A relation edge seen from the memory (hop 1) or from a neighbour (hop 2), with the other end's text. */
    public record Hop(int hop, String via, RelationJson edge, String other, String text) {}

    /** A version's chain coordinates: seq, event hash, signature verified (null: not checked on this load). */
    public record Provenance(long seq, String eventType, String hash, Boolean verified) {}

    /** The memory page: each list null when the role may not see it. */
    public record Details(
            MemoryJson memory,
            boolean tombstone,
            List<Version> versions,
            int olderVersions,
            List<Hop> relations,
            List<Provenance> provenance,
            List<String> keyIds,
            ChainVerificationResult verification,
            ErasureProof proof) {}

    private final Memories memories;
    private final AsOfReads reads;
    private final Relations relations;
    private final AuditLog audit;
    private final ChainVerification chain;
    private final ChainCheckpoints checkpoints;
    private final Erasures erasures;

    public MemoryDetails(
            Memories memories,
            AsOfReads reads,
            Relations relations,
            AuditLog audit,
            ChainVerification chain,
            ChainCheckpoints checkpoints,
            Erasures erasures) {
        this.memories = memories;
        this.reads = reads;
        this.relations = relations;
        this.audit = audit;
        this.chain = chain;
        this.checkpoints = checkpoints;
        this.erasures = erasures;
    }

    /** @param verify whether to verify the space's chain now (the signature column; costs a read of new events) */
    public Details of(Visit visit, String id, boolean verify) {
        visit.authorize(Operation.GET_MEMORY);
        String space = visit.space();
        Memory memory = reads.memory(space, id, visit.actor(), null);
        boolean tombstone = memory.getPurgedAt() != null;
        List<HistoryEntryJson> history = visit.may(Operation.GET_HISTORY)
                ? memories.history(space, id, visit.actor()).stream()
                        .map(HistoryEntryJson::of)
                        .toList()
                : null;
        List<Version> versions = null;
        int older = 0;
        if (history != null) {
            older = Math.max(0, history.size() - MAX_VERSIONS);
            versions = new ArrayList<>();
            for (HistoryEntryJson e : history.subList(older, history.size())) {
                versions.add(version(e));
            }
            java.util.Collections.reverse(versions);
        }
        List<Hop> hops = visit.may(Operation.GET_RELATIONS) ? hops(visit, id) : null;
        ChainVerificationResult verification = verify && visit.may(Operation.VERIFY_CHAIN) ? chain.verify(space) : null;
        List<Provenance> provenance = history != null && visit.may(Operation.LIST_AUDIT)
                ? provenance(visit, history.subList(older, history.size()), verification)
                : null;
        List<String> keyIds = visit.may(Operation.CHAIN_KEYS)
                ? checkpoints.publicKeys().keys().stream()
                        .map(PublicKeysJson.Key::keyId)
                        .toList()
                : List.of();
        ErasureProof proof = tombstone && visit.may(Operation.ERASURE_PROOF) ? proof(space, id) : null;
        return new Details(
                MemoryJson.of(memory), tombstone, versions, older, hops, provenance, keyIds, verification, proof);
    }

    private ErasureProof proof(String space, String id) {
        try {
            return erasures.proof(space, id);
        } catch (ApiException e) {
            if (ErrorCodes.INVALID_STATE.equals(e.code())) {
                return null; // purged, not erased: no proof to show
            }
            throw e;
        }
    }

    static Version version(HistoryEntryJson e) {
        MemoryJson before = e.before();
        MemoryJson after = e.after();
        List<WordDiff.Part> diff = null;
        String oldText = before == null ? null : before.content();
        String newText = after == null ? null : after.content();
        if (!Objects.equals(oldText, newText)) {
            diff = WordDiff.of(oldText, newText);
        }
        List<FieldChange> fields = new ArrayList<>();
        Map<String, String> was = fields(before);
        Map<String, String> now = fields(after);
        for (String field : now.keySet()) {
            if (!Objects.equals(was.get(field), now.get(field))) {
                fields.add(new FieldChange(field, was.get(field), now.get(field)));
            }
        }
        return new Version(e, after == null ? null : after.version(), diff, fields);
    }

    /** The metadata a version may change, as shown (content has its own difference). */
    private static Map<String, String> fields(MemoryJson m) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("state", m == null ? null : m.state());
        f.put("summary", m == null ? null : m.summary());
        f.put("category", m == null ? null : m.category());
        f.put("tags", m == null ? null : String.join(", ", m.tags()));
        f.put("importance", m == null ? null : String.valueOf(m.importance()));
        f.put("kind", m == null ? null : m.kind());
        f.put("tier", m == null ? null : m.tier());
        f.put("decay stage", m == null ? null : m.decayStatus());
        f.put("pinned", m == null ? null : String.valueOf(m.pinned()));
        f.put("protected", m == null ? null : String.valueOf(m.constitutional()));
        f.put("superseded by", m == null ? null : m.supersededBy());
        return f;
    }

    private List<Hop> hops(Visit visit, String id) {
        String space = visit.space();
        List<Hop> hops = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>(List.of(id));
        List<String> firsts = new ArrayList<>();
        for (RelationJson edge : relations.of(space, id).relations().stream()
                .limit(MAX_NEIGHBOURS)
                .toList()) {
            String other = id.equals(edge.fromId()) ? edge.toId() : edge.fromId();
            hops.add(new Hop(1, null, edge, other, text(visit, other)));
            if (seen.add(other)) {
                firsts.add(other);
            }
        }
        int second = 0;
        for (String first : firsts) {
            for (RelationJson edge : relations.of(space, first).relations().stream()
                    .limit(MAX_NEIGHBOURS)
                    .toList()) {
                String other = first.equals(edge.fromId()) ? edge.toId() : edge.fromId();
                if (second == MAX_NEIGHBOURS) {
                    return hops; // as many two hops away as one hop away: a page, not the graph
                }
                if (seen.add(other)) {
                    hops.add(new Hop(2, first, edge, other, text(visit, other)));
                    second++;
                }
            }
        }
        return hops;
    }

    /** The start of a related memory's text as this reader may read it, or null. */
    private String text(Visit visit, String id) {
        if (visit.admin()) {
            return null; // no content: a grant covers the memory read, not its neighbours
        }
        try {
            Memory m = memories.get(visit.space(), id, visit.actor());
            String text = m.getSummary() != null ? m.getSummary() : m.getContent();
            return text.length() <= 120 ? text : text.substring(0, 119) + "…";
        } catch (ApiException e) {
            return null;
        }
    }

    private List<Provenance> provenance(
            Visit visit, List<HistoryEntryJson> history, ChainVerificationResult verification) {
        List<Provenance> rows = new ArrayList<>();
        for (HistoryEntryJson e : history) {
            List<AuditEntryJson> at =
                    audit.page(visit.space(), visit.actor(), e.seq() - 1, 1).items();
            String hash = at.isEmpty() || at.get(0).seq() != e.seq()
                    ? null
                    : at.get(0).hash();
            Boolean verified = verification == null
                    ? null
                    : verification.ok() || verification.firstBadSeq() != null && e.seq() < verification.firstBadSeq();
            rows.add(new Provenance(e.seq(), e.eventType(), hash, verified));
        }
        java.util.Collections.reverse(rows);
        return rows;
    }
}
