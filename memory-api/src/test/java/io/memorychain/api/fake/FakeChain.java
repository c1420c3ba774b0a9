package io.memorychain.api.fake;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.backend.MemoryChainBackend;
import io.memorychain.api.chain.ChainVerification;
import io.memorychain.api.chain.ChainVerificationResult;
import io.memorychain.api.chain.KafkaChainVerification;
import io.memorychain.avro.ConsolidateMemories;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.DeleteMemory;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryFlag;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.RestoreMemory;
import io.memorychain.avro.SetFlag;
import io.memorychain.avro.Tier;
import io.memorychain.avro.UpdateBlock;
import io.memorychain.avro.UpdateMemory;
import io.memorychain.avro.view.AuditEntry;
import io.memorychain.avro.view.HistoryEntry;
import io.memorychain.events.Topics;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.projector.view.CoreView;
import io.memorychain.projector.view.ListQuery;
import io.memorychain.projector.view.MemoryViews;
import io.memorychain.projector.view.Page;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-memory stand-in for the sequencer and the projection, for HTTP-level tests of the API layer without Kafka.
 * It implements the contract the API relies on (outcome codes, versions, states), not the real chain. Active only in
 * the {@code fake-backend} environment.
 */
@Singleton
@Requires(env = FakeChain.ENV)
@Replaces(MemoryChainBackend.class)
public class FakeChain implements MemoryBackend, MemoryViews {

    public static final String ENV = "fake-backend";
    static final Set<String> LABELS = Set.of("persona", "user_profile", "goals", "knowledge", "critical");

    private final List<MemoryRequest> published = new CopyOnWriteArrayList<>();
    private final Map<String, MemoryOutcome> outcomes = new HashMap<>();
    private final Map<String, TreeMap<String, Memory>> memories = new HashMap<>();
    private final Map<String, List<AuditEntry>> audit = new HashMap<>();
    private final Map<String, List<HistoryEntry>> history = new HashMap<>();
    private final AtomicInteger ids = new AtomicInteger();
    /** When set, the next publish never completes (to exercise timeouts). */
    public volatile boolean stall;

    @jakarta.annotation.PreDestroy
    void stopped() {
        org.slf4j.LoggerFactory.getLogger(FakeChain.class).info("FakeChain closed with the application context");
    }

    public List<MemoryRequest> published() {
        return published;
    }

    @Override
    public synchronized CompletableFuture<MemoryOutcome> publish(MemoryRequest request) {
        published.add(request);
        if (stall) {
            return new CompletableFuture<>();
        }
        MemoryOutcome previous = outcomes.get(request.getRequestId());
        if (previous != null) {
            return CompletableFuture.completedFuture(previous);
        }
        MemoryOutcome outcome;
        try {
            outcome = decide(request);
        } catch (Rejection r) {
            outcome = outcome(request, false, null, null, null, r.code, r.getMessage());
        }
        outcomes.put(request.getRequestId(), outcome);
        return CompletableFuture.completedFuture(outcome);
    }

    private MemoryOutcome decide(MemoryRequest r) {
        String space = r.getSpace();
        TreeMap<String, Memory> mems = memories.computeIfAbsent(space, s -> new TreeMap<>());
        Instant now = Instant.now();
        Object op = r.getOp();
        if (op instanceof CreateMemory c) {
            Memory m = Memory.newBuilder().setId(nextId()).setSpace(space).setKind(c.getKind()).setTier(c.getTier())
                    .setCategory(c.getCategory()).setContent(c.getContent()).setSummary(c.getSummary()).setTags(c.getTags())
                    .setImportance(c.getImportance()).setConfidence(c.getConfidence()).setSource(c.getSource())
                    .setUserId(c.getUserId()).setAgentId(c.getAgentId()).setRunId(c.getRunId()).setActorId(c.getActorId())
                    .setThreadId(c.getThreadId()).setRole(c.getRole())
                    .setCreatedAt(c.getCreatedAt() == null ? now : c.getCreatedAt()).setUpdatedAt(now).setVersion(1)
                    .setState(MemoryState.ACTIVE).setPinned(c.getPinned()).setContentHash(Integer.toHexString(c.getContent().hashCode()))
                    .build();
            return append(r, "MemoryCreated", null, m);
        }
        if (op instanceof UpdateMemory u) {
            Memory before = existing(r, mems, u.getId());
            requireActive(before);
            Memory.Builder b = Memory.newBuilder(before);
            if (u.getContent() != null) b.setContent(u.getContent());
            if (u.getSummary() != null) b.setSummary(u.getSummary());
            if (u.getTags() != null) b.setTags(u.getTags());
            if (u.getImportance() != null) b.setImportance(u.getImportance());
            if (u.getConfidence() != null) b.setConfidence(u.getConfidence());
            if (u.getCategory() != null) b.setCategory(u.getCategory());
            if (u.getTier() != null) b.setTier(u.getTier());
            return append(r, "MemoryUpdated", before, bump(b, now));
        }
        if (op instanceof DeleteMemory d) {
            Memory before = existing(r, mems, d.getId());
            if (before.getConstitutional()) throw new Rejection("CONSTITUTIONAL", "Memory " + d.getId() + " is constitutional");
            requireActive(before);
            return append(r, "MemoryDeleted", before, bump(Memory.newBuilder(before).setState(MemoryState.SOFT_DELETED), now));
        }
        if (op instanceof RestoreMemory re) {
            Memory before = existing(r, mems, re.getId());
            if (before.getState() != MemoryState.SOFT_DELETED) throw new Rejection("INVALID_STATE", "Not deleted");
            return append(r, "MemoryRestored", before, bump(Memory.newBuilder(before).setState(MemoryState.ACTIVE), now));
        }
        if (op instanceof SetFlag f) {
            Memory before = existing(r, mems, f.getId());
            Memory.Builder b = Memory.newBuilder(before);
            if (f.getFlag() == MemoryFlag.CONSTITUTIONAL) b.setConstitutional(f.getValue()); else b.setPinned(f.getValue());
            String type = (f.getFlag() == MemoryFlag.CONSTITUTIONAL ? (f.getValue() ? "MemoryProtected" : "MemoryUnprotected")
                    : (f.getValue() ? "MemoryPinned" : "MemoryUnpinned"));
            return append(r, type, before, bump(b, now));
        }
        if (op instanceof ConsolidateMemories c) {
            List<Memory> inputs = new ArrayList<>();
            for (String id : c.getIds()) {
                Memory m = Optional.ofNullable(mems.get(id)).orElseThrow(() -> new Rejection("NOT_FOUND", "No memory " + id));
                if (m.getConstitutional()) throw new Rejection("CONSTITUTIONAL", "Memory " + id + " is constitutional");
                requireActive(m);
                inputs.add(m);
            }
            Memory created = Memory.newBuilder(inputs.get(0)).setId(nextId()).setContent(c.getContent()).setSummary(c.getSummary())
                    .setVersion(1).setState(MemoryState.ACTIVE).setSupersedes(c.getIds()).setSupersededBy(null)
                    .setCreatedAt(inputs.stream().map(Memory::getCreatedAt).min(Instant::compareTo).orElse(now)).setUpdatedAt(now)
                    .setPinned(false).setConstitutional(false).build();
            MemoryOutcome outcome = append(r, "MemoriesConsolidated", null, created);
            for (Memory m : inputs) {
                mems.put(m.getId(), bump(Memory.newBuilder(m).setState(MemoryState.SUPERSEDED).setSupersededBy(created.getId()), now));
            }
            return outcome;
        }
        if (op instanceof UpdateBlock ub) {
            if (!LABELS.contains(ub.getLabel())) throw new Rejection("UNKNOWN_BLOCK_LABEL", "Unknown block label " + ub.getLabel());
            Optional<Memory> previous = block(space, ub.getLabel());
            int version = previous.map(p -> p.getVersion() + 1).orElse(1);
            if (r.getExpectedVersion() != null && r.getExpectedVersion() != previous.map(Memory::getVersion).orElse(0)) {
                throw new Rejection("VERSION_CONFLICT", "Block is at version " + previous.map(Memory::getVersion).orElse(0));
            }
            previous.ifPresent(p -> mems.put(p.getId(), Memory.newBuilder(p).setState(MemoryState.SUPERSEDED).build()));
            Memory m = Memory.newBuilder().setId(nextId()).setSpace(space).setKind(MemoryKind.BLOCK)
                    .setTier(ub.getCore() ? Tier.CORE : Tier.WORKING).setBlockLabel(ub.getLabel()).setContent(ub.getContent())
                    .setCreatedAt(now).setUpdatedAt(now).setVersion(version).setState(MemoryState.ACTIVE)
                    .setSupersedes(previous.map(p -> List.of(p.getId())).orElse(List.of()))
                    .setContentHash(Integer.toHexString(ub.getContent().hashCode())).build();
            return append(r, "BlockUpdated", null, m);
        }
        throw new Rejection("INVALID_ARGUMENT", "Unsupported op " + op.getClass().getSimpleName());
    }

    private Memory existing(MemoryRequest r, Map<String, Memory> mems, String id) {
        Memory m = mems.get(id);
        if (m == null) throw new Rejection("NOT_FOUND", "No memory " + id + " in space " + r.getSpace());
        if (r.getExpectedVersion() != null && r.getExpectedVersion() != m.getVersion()) {
            throw new Rejection("VERSION_CONFLICT", "Memory " + id + " is at version " + m.getVersion());
        }
        return m;
    }

    private static void requireActive(Memory m) {
        if (m.getState() != MemoryState.ACTIVE) throw new Rejection("INVALID_STATE", "Memory " + m.getId() + " is " + m.getState());
    }

    private static Memory bump(Memory.Builder b, Instant now) {
        return b.setVersion(b.getVersion() + 1).setUpdatedAt(now).build();
    }

    private String nextId() {
        return String.format("m%06d", ids.incrementAndGet());
    }

    private MemoryOutcome append(MemoryRequest r, String type, Memory before, Memory after) {
        List<AuditEntry> log = audit.computeIfAbsent(r.getSpace(), s -> new ArrayList<>());
        long seq = log.size() + 1;
        memories.get(r.getSpace()).put(after.getId(), after);
        log.add(AuditEntry.newBuilder().setSeq(seq).setEventType(type).setRequestId(r.getRequestId()).setActor(r.getActor())
                .setOccurredAt(Instant.now()).setMemoryIds(List.of(after.getId())).setDescription(type + " " + after.getId())
                .setHash(String.format("%064x", seq)).build());
        history.computeIfAbsent(r.getSpace() + "/" + after.getId(), k -> new ArrayList<>()).add(HistoryEntry.newBuilder()
                .setSeq(seq).setEventType(type).setRequestId(r.getRequestId()).setActor(r.getActor()).setOccurredAt(Instant.now())
                .setBefore(before).setAfter(after).build());
        return outcome(r, true, seq, after.getId(), after.getVersion(), null, null);
    }

    private static MemoryOutcome outcome(MemoryRequest r, boolean accepted, Long seq, String id, Integer version, String code,
                                         String message) {
        return MemoryOutcome.newBuilder().setRequestId(r.getRequestId()).setSpace(r.getSpace()).setAccepted(accepted)
                .setSeq(seq).setMemoryId(id).setVersion(version).setCode(code).setMessage(message)
                .setOccurredAt(Instant.now()).build();
    }

    @Override
    public MemoryViews views() {
        return this;
    }

    @Override
    public String bootstrapServers() {
        return "fake:0";
    }

    @Override
    public Topics topics() {
        return Topics.defaults();
    }

    @Override
    public SchemaRegistry registry() {
        throw new UnsupportedOperationException("no registry in the fake");
    }

    @Override
    public io.memorychain.events.chain.KeyRing publicKeys() {
        return io.memorychain.events.chain.ChainKeys.generate().publicRing();
    }

    @Override
    public synchronized Optional<Memory> memory(String space, String id) {
        return Optional.ofNullable(memories.getOrDefault(space, new TreeMap<>()).get(id));
    }

    @Override
    public synchronized Page<Memory> list(String space, ListQuery q) {
        MemoryState state = q.state() == null ? MemoryState.ACTIVE : q.state();
        List<Memory> all = memories.getOrDefault(space, new TreeMap<>()).values().stream()
                .filter(m -> q.after() == null || m.getId().compareTo(q.after()) > 0)
                .filter(m -> m.getState() == state)
                .filter(m -> q.kind() == null || m.getKind() == q.kind())
                .filter(m -> q.category() == null || q.category().equals(m.getCategory()))
                .toList();
        List<Memory> page = all.stream().limit(q.limit()).toList();
        return new Page<>(page, all.size() > q.limit() ? page.get(page.size() - 1).getId() : null);
    }

    @Override
    public synchronized Optional<Memory> block(String space, String label) {
        return memories.getOrDefault(space, new TreeMap<>()).values().stream()
                .filter(m -> label.equals(m.getBlockLabel()) && m.getState() == MemoryState.ACTIVE).findFirst();
    }

    @Override
    public synchronized CoreView core(String space) {
        List<Memory> core = memories.getOrDefault(space, new TreeMap<>()).values().stream()
                .filter(m -> m.getState() == MemoryState.ACTIVE && m.getTier() == Tier.CORE).toList();
        StringBuilder text = new StringBuilder();
        core.forEach(m -> text.append("## ").append(m.getBlockLabel() == null ? "core" : m.getBlockLabel()).append('\n')
                .append(m.getContent()).append('\n'));
        return new CoreView(text.toString(), text.length() / 4, core);
    }

    @Override
    public synchronized List<HistoryEntry> history(String space, String id) {
        return List.copyOf(history.getOrDefault(space + "/" + id, List.of()));
    }

    @Override
    public synchronized List<AuditEntry> audit(String space, long afterSeq, int limit) {
        return audit.getOrDefault(space, List.of()).stream().filter(e -> e.getSeq() > afterSeq).limit(limit).toList();
    }

    @Override
    public synchronized long appliedSeq(String space) {
        return audit.getOrDefault(space, List.of()).size();
    }

    @Override
    public boolean awaitApplied(String space, long seq, Duration timeout) {
        return appliedSeq(space) >= seq;
    }

    /** Chain verification over the fake audit log. */
    @Singleton
    @Requires(env = ENV)
    @Replaces(KafkaChainVerification.class)
    public static class FakeVerification implements ChainVerification {
        private final FakeChain chain;

        public FakeVerification(FakeChain chain) {
            this.chain = chain;
        }

        @Override
        public ChainVerificationResult verify(String space) {
            return ChainVerificationResult.ok(chain.appliedSeq(space));
        }
    }

    private static final class Rejection extends RuntimeException {
        final String code;

        Rejection(String code, String message) {
            super(message, null, false, false);
            this.code = code;
        }
    }
}
