package io.memorychain.events.content;

import io.memorychain.avro.MemoriesConsolidated;
import io.memorychain.avro.MemoryDeleted;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryExpired;
import io.memorychain.avro.MemoryPurged;
import io.memorychain.avro.ProposalResolved;
import io.memorychain.avro.ProposalSubmitted;
import io.memorychain.avro.RefinementCompleted;
import io.memorychain.avro.RefinementStarted;
import io.memorychain.avro.ReflectionDecided;
import io.memorychain.avro.ReflectionProposed;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;

/**
 * The one table of the chain's free texts that live outside memory snapshots and are sealed under a subject's data key
 * (docs/architecture.md §4 "Encrypted texts", §12 erasure): for each payload type, its subject and the text fields
 * sealed under it. The sequencer's encryptor and every reader ({@link ChainContent}) walk this table, so no reader can
 * forget a site; {@code SealedTextsTest} walks the schemas and fails when a free-text field of a payload is neither
 * sealed here nor listed in {@link #PLAIN}.
 *
 * <p>Subjects share the memories' key space ({@code memory.keys.v1}, record key space NUL subject id): memory ids
 * ({@code m...}), proposal ids ({@code p...}) and reflection ids ({@code r...}) never collide ({@code MemoryIds}); a
 * refinement session's subject is {@code session/<session id>} because session ids are free text.
 *
 * <p>A path names a field of the payload, then of the records inside it ({@code proposal.content}); a list of records
 * applies the rest of the path to each ({@code reflection.changes.content}); a list of strings seals each string
 * ({@code proposal.tags}). Nulls stay null.
 */
public final class SealedTexts {

    /** The prefix of a refinement session's subject id. */
    public static final String SESSION_PREFIX = "session/";

    /** One payload type's sealed texts: the subject they are sealed under and their paths. */
    public record Site(
            Class<? extends SpecificRecord> payload, Function<MemoryEvent, String> subject, List<String> paths) {}

    /** Applies a transformation to one sealed text; returns what the field holds afterwards. */
    @FunctionalInterface
    public interface TextMapper {
        String map(String subject, String text);
    }

    private static final List<String> CHANGE_TEXTS = List.of("reason", "content", "summary", "tags");

    private static final Map<Class<?>, Site> SITES = new LinkedHashMap<>();

    static {
        site(
                ProposalSubmitted.class,
                e -> ((ProposalSubmitted) e.getPayload()).getProposalId(),
                "proposal.content",
                "proposal.summary",
                "proposal.tags",
                "proposal.entities",
                "proposal.trigger");
        site(ProposalResolved.class, e -> ((ProposalResolved) e.getPayload()).getProposalId(), "reason");
        List<String> reflection = new ArrayList<>(List.of(
                "reflection.priorities",
                "reflection.guidance",
                "reflection.evolution_insights",
                "reflection.contradictions",
                "reflection.questions",
                "reflection.summary"));
        CHANGE_TEXTS.forEach(t -> reflection.add("reflection.changes." + t));
        site(
                ReflectionProposed.class,
                e -> ((ReflectionProposed) e.getPayload()).getReflectionId(),
                reflection.toArray(String[]::new));
        List<String> decided = new ArrayList<>(List.of("reason"));
        CHANGE_TEXTS.forEach(t -> decided.add("edited_changes." + t));
        site(
                ReflectionDecided.class,
                e -> ((ReflectionDecided) e.getPayload()).getReflectionId(),
                decided.toArray(String[]::new));
        site(RefinementStarted.class, e -> session(((RefinementStarted) e.getPayload()).getSessionId()), "reason");
        site(
                RefinementCompleted.class,
                e -> session(((RefinementCompleted) e.getPayload()).getSessionId()),
                "summary",
                "agent_summary");
        site(MemoryDeleted.class, e -> ((MemoryDeleted) e.getPayload()).getMemoryId(), "reason");
        site(MemoryExpired.class, e -> ((MemoryExpired) e.getPayload()).getMemoryId(), "reason");
        site(MemoryPurged.class, e -> ((MemoryPurged) e.getPayload()).getMemoryId(), "reason");
        site(
                MemoriesConsolidated.class,
                e -> ((MemoriesConsolidated) e.getPayload()).getCreated().getId(),
                "reason");
    }

    /**
     * Free-text fields of payloads that stay plain on purpose ({@code Payload.path} -> why). Ids ({@code id},
     * {@code *_id}, {@code *_ids}), memory snapshots (sealed by the memory's own key) and enums are not listed.
     */
    public static final Map<String, String> PLAIN = Map.ofEntries(
            Map.entry("MemoryErased.reason", "the proof of erasure shows it"),
            Map.entry("MemoryErased.destroyed_subjects", "subject ids"),
            Map.entry("BlockUpdated.label", "a block label"),
            Map.entry("MemoriesLinked.relation_type", "an edge type"),
            Map.entry("MemoriesUnlinked.relation_type", "an edge type"),
            Map.entry("DuplicatesRemoved.removed.duplicate_of", "a memory id"),
            Map.entry("DuplicatesRemoved.removed.content_hash", "a hash (listed as not reached in §12)"),
            Map.entry("ProposalSubmitted.proposal.category", "a category label"),
            Map.entry("ProposalResolved.conflicts_with", "proposal and memory ids"),
            Map.entry("RollbackApplied.reason", "an admin's reason about a scope, not one memory's text"),
            Map.entry("RollbackApplied.plan_digest", "a hash"),
            Map.entry("ReflectionRequested.reason", "asked before any reflection exists: no subject yet"),
            Map.entry("ReflectionProposed.reflection.trigger_detail", "a thread id, period, count or request id"),
            Map.entry("ReflectionProposed.reflection.model", "a model name"),
            Map.entry("ReflectionProposed.reflection.changes.label", "a block label"),
            Map.entry("ReflectionProposed.reflection.changes.category", "a category label"),
            Map.entry("ReflectionProposed.reflection.changes.relation_type", "an edge type"),
            Map.entry("ReflectionDecided.edited_changes.label", "a block label"),
            Map.entry("ReflectionDecided.edited_changes.category", "a category label"),
            Map.entry("ReflectionDecided.edited_changes.relation_type", "an edge type"),
            Map.entry("AccessGrantRequested.grantee", "a principal"),
            Map.entry("AccessGrantRequested.purpose", "grant purposes: out of scope (§12)"),
            Map.entry("AccessRevoked.reason", "grants: out of scope (§12)"),
            Map.entry("GrantedContentRead.operation", "an operation name"),
            Map.entry("GrantedContentRead.detail", "grants: out of scope (§12)"),
            Map.entry("ProfileFieldSet.field", "profile: out of scope (§12)"),
            Map.entry("ProfileFieldSet.value", "profile: out of scope (§12)"),
            Map.entry("ProfileFieldSet.previous", "profile: out of scope (§12)"),
            Map.entry("ProfileFieldSet.signals.source", "profile: out of scope (§12)"),
            Map.entry("ProfileSignalRecorded.field", "profile: out of scope (§12)"),
            Map.entry("ProfileSignalRecorded.value", "profile: out of scope (§12)"),
            Map.entry("ProfileSignalRecorded.signal.source", "profile: out of scope (§12)"),
            Map.entry("ProfileSignalRecorded.reason", "profile: out of scope (§12)"),
            Map.entry("ConsentRequested.field", "consent: out of scope (§12)"),
            Map.entry("ConsentRequested.value", "consent: out of scope (§12)"),
            Map.entry("ConsentRequested.previous", "consent: out of scope (§12)"),
            Map.entry("ConsentRequested.source", "consent: out of scope (§12)"),
            Map.entry("ConsentRequested.reason", "consent: out of scope (§12)"),
            Map.entry("ConsentResolved.field", "consent: out of scope (§12)"),
            Map.entry("ConsentResolved.reason", "consent: out of scope (§12)"),
            Map.entry("CriticalChangeAlerted.label", "a block label"),
            Map.entry("AlertAcknowledged.reason", "about an alert, not a memory's text"),
            Map.entry("SigningKeyRotated.reason", "about the chain's signing key, not a memory's text"),
            Map.entry("SigningKeyCompromised.reason", "about the chain's signing key, not a memory's text"));

    private SealedTexts() {}

    private static void site(
            Class<? extends SpecificRecord> payload, Function<MemoryEvent, String> subject, String... paths) {
        SITES.put(payload, new Site(payload, subject, List.of(paths)));
    }

    /** Every site, in table order. */
    public static List<Site> sites() {
        return List.copyOf(SITES.values());
    }

    /**
     * The texts of the stored views built from the same records (the view {@code Proposal}, {@code Reflection} and
     * {@code RefinementSession} of the projection and of the sequencer's write model): the sealed paths of their
     * events, by view type.
     */
    private static final Map<Class<?>, List<String>> VIEWS = Map.of(
            io.memorychain.avro.view.Proposal.class,
                    concat(paths(ProposalSubmitted.class), paths(ProposalResolved.class)),
            io.memorychain.avro.view.Reflection.class,
                    concat(
                            paths(ReflectionProposed.class).stream()
                                    .map(p -> p.replaceFirst("^reflection\\.", "document."))
                                    .toList(),
                            paths(ReflectionDecided.class)),
            io.memorychain.avro.view.RefinementSession.class,
                    concat(paths(RefinementStarted.class), paths(RefinementCompleted.class)));

    /**
     * Replaces, in place, the texts a stored view holds from its subject's sealed texts by {@link ChainContent#ERASED}
     * (what a destroyed subject's views show, docs/architecture.md §12); false for a record of another type.
     */
    public static boolean scrubView(SpecificRecord view) {
        List<String> paths = view == null ? null : VIEWS.get(view.getClass());
        if (paths == null) {
            return false;
        }
        map(view, paths, t -> ChainContent.ERASED);
        return true;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return List.copyOf(out);
    }

    /** The sealed paths of a payload type (empty: none). */
    public static List<String> paths(Class<? extends SpecificRecord> payload) {
        Site site = SITES.get(payload);
        return site == null ? List.of() : site.paths();
    }

    /** The site of the event's payload type, or null when none of its texts is sealed. */
    public static Site site(MemoryEvent event) {
        return event == null || event.getPayload() == null
                ? null
                : SITES.get(event.getPayload().getClass());
    }

    /** The subject id of a refinement session. */
    public static String session(String sessionId) {
        return SESSION_PREFIX + sessionId;
    }

    /** Whether the event has a sealed site with at least one non-null text. */
    public static boolean hasTexts(MemoryEvent event) {
        return anyText(event, text -> true);
    }

    /**
     * Replaces every sealed text of the event's payload, in place, by {@code mapper.map(subject, text)}; an event
     * without a site is left alone.
     */
    public static void map(MemoryEvent event, TextMapper mapper) {
        Site site = site(event);
        if (site == null) {
            return;
        }
        String subject = site.subject().apply(event);
        for (String path : site.paths()) {
            walk(event.getPayload(), path.split("\\."), 0, text -> mapper.map(subject, text));
        }
    }

    /**
     * Replaces the texts at the paths of a record (a payload, or a view built from the same records) in place; what the
     * views use to scrub a destroyed subject's texts.
     */
    public static void map(Object record, List<String> paths, Function<String, String> mapper) {
        for (String path : paths) {
            walk(record, path.split("\\."), 0, mapper);
        }
    }

    /** Whether any sealed text of the event is encrypted. */
    public static boolean hasEncryptedText(MemoryEvent event) {
        return anyText(event, ContentCipher::isEncrypted);
    }

    private static boolean anyText(MemoryEvent event, java.util.function.Predicate<String> test) {
        Site site = site(event);
        if (site == null) {
            return false;
        }
        boolean[] any = {false};
        for (String path : site.paths()) {
            walk(event.getPayload(), path.split("\\."), 0, text -> {
                any[0] |= test.test(text);
                return text;
            });
        }
        return any[0];
    }

    @SuppressWarnings("unchecked")
    private static void walk(Object value, String[] path, int at, Function<String, String> mapper) {
        if (!(value instanceof SpecificRecord record)) {
            return;
        }
        Schema.Field field = record.getSchema().getField(path[at]);
        if (field == null) {
            throw new IllegalStateException(
                    "no field " + path[at] + " in " + record.getSchema().getName());
        }
        Object child = record.get(field.pos());
        if (child == null) {
            return;
        }
        boolean last = at == path.length - 1;
        if (child instanceof List<?> list) {
            if (last) {
                List<String> mapped = new ArrayList<>(list.size());
                for (Object item : list) {
                    mapped.add(item == null ? null : mapper.apply(item.toString()));
                }
                record.put(field.pos(), mapped);
            } else {
                for (Object item : (List<Object>) list) {
                    walk(item, path, at + 1, mapper);
                }
            }
        } else if (last) {
            record.put(field.pos(), mapper.apply(child.toString()));
        } else {
            walk(child, path, at + 1, mapper);
        }
    }
}
