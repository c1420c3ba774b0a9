package io.memorychain.projector.sequencer;

import io.memorychain.avro.Actor;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryErased;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.view.Grant;
import io.memorychain.avro.view.Proposal;
import io.memorychain.avro.view.RefinementSession;
import io.memorychain.avro.view.Reflection;
import io.memorychain.avro.view.SpaceGovernance;
import io.memorychain.domain.Purges;
import io.memorychain.domain.RejectionCode;
import io.memorychain.domain.decide.Decider;
import io.memorychain.domain.decide.Decision;
import io.memorychain.domain.decide.WriteModelEvolution;
import io.memorychain.domain.decide.WriteModelStore;
import io.memorychain.events.chain.ChainSealer;
import io.memorychain.events.content.SealedTexts;
import io.memorychain.events.registry.SchemaRegistryUnavailableException;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.projector.support.ChainHead;
import io.memorychain.projector.support.DeadLetters;
import io.memorychain.projector.support.StoreKeys;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides one request at a time: dedupes by request id, validates against the write model, appends the sealed event to
 * the space's chain and emits the outcome. Records that cannot be decoded, and requests the decider cannot handle, go
 * to the dead-letter topic with their coordinates; the partition keeps flowing.
 */
final class SequencerProcessor implements Processor<byte[], byte[], Object, Object> {

    private static final Logger log = LoggerFactory.getLogger(SequencerProcessor.class);
    private static final ByteBuffer EMPTY = ByteBuffer.wrap(new byte[0]);

    private final AvroWireSerde<MemoryRequest> requestSerde;
    private final Decider decider;
    private final ChainSealer sealer;
    private final ChainKeyDecider chainKeys;
    private final Clock clock;
    private final long requestIdRetentionMs;
    private final io.memorychain.events.content.MasterKey contentKey;
    private ContentEncryptor encryptor;
    private SubjectStore subjects;

    private ProcessorContext<Object, Object> context;
    private KeyValueStore<String, ChainHead> heads;
    private KeyValueStore<String, Memory> memories;
    private KeyValueStore<String, String> blocks;
    private KeyValueStore<String, String> relations;
    private KeyValueStore<String, Proposal> proposals;
    private KeyValueStore<String, RefinementSession> refinements;
    private KeyValueStore<String, Reflection> reflections;
    private KeyValueStore<String, Grant> grants;
    private KeyValueStore<String, SpaceGovernance> governance;
    private WindowStore<String, MemoryOutcome> requests;
    private WriteModelStore writeModel;

    SequencerProcessor(
            AvroWireSerde<MemoryRequest> requestSerde,
            Decider decider,
            ChainSealer sealer,
            Clock clock,
            java.time.Duration requestIdRetention,
            io.memorychain.events.content.MasterKey contentKey) {
        this.requestSerde = requestSerde;
        this.decider = decider;
        this.sealer = sealer;
        this.chainKeys = new ChainKeyDecider(sealer.keys());
        this.clock = clock;
        this.requestIdRetentionMs = requestIdRetention.toMillis();
        this.contentKey = contentKey;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        this.heads = context.getStateStore(SequencerTopology.HEADS_STORE);
        this.memories = context.getStateStore(SequencerTopology.MEMORIES_STORE);
        this.blocks = context.getStateStore(SequencerTopology.BLOCKS_STORE);
        this.requests = context.getStateStore(SequencerTopology.REQUESTS_STORE);
        this.relations = context.getStateStore(SequencerTopology.RELATIONS_STORE);
        this.proposals = context.getStateStore(SequencerTopology.PROPOSALS_STORE);
        this.refinements = context.getStateStore(SequencerTopology.REFINEMENTS_STORE);
        this.reflections = context.getStateStore(SequencerTopology.REFLECTIONS_STORE);
        this.grants = context.getStateStore(SequencerTopology.GRANTS_STORE);
        this.governance = context.getStateStore(SequencerTopology.GOVERNANCE_STORE);
        this.writeModel = new StoreWriteModel();
        this.encryptor = new ContentEncryptor(contentKey, context.getStateStore(SequencerTopology.KEYS_STORE));
        this.subjects = new SubjectStore(context.getStateStore(SequencerTopology.SUBJECTS_STORE));
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        RecordMetadata source = context.recordMetadata().orElseThrow();
        MemoryRequest request;
        try {
            request = decode(record);
        } catch (SchemaRegistryUnavailableException e) {
            throw e; // not the record's fault: fail the task, the thread is replaced and the record retried
        } catch (RuntimeException e) {
            log.warn(
                    "Undecodable request at {}: {}; moved to the dead-letter topic",
                    DeadLetters.coordinates(source),
                    e.toString());
            deadLetter(record, source, "decode", e);
            return;
        }
        String dedupeKey = StoreKeys.of(request.getSpace(), request.getRequestId());
        MemoryOutcome previous = previousOutcome(dedupeKey, record.timestamp());
        if (previous != null) {
            emitOutcome(previous, record.timestamp());
            return;
        }
        ChainHead head = heads.get(request.getSpace());
        if (head == null) {
            head = ChainHead.GENESIS;
        }
        Instant now = latest(clock.instant(), head.occurredAt());
        MemoryOutcome outcome;
        try {
            Decision decision = ChainKeyDecider.handles(request)
                    ? chainKeys.decide(request, head)
                    : decider.decide(request, head.seq() + 1, writeModel, now);
            if (decision instanceof Decision.Reject reject) {
                outcome = outcome(request, now)
                        .setAccepted(false)
                        .setCode(reject.code().name())
                        .setMessage(reject.message())
                        .build();
            } else {
                List<Decision.Accept> accepts =
                        decision instanceof Decision.AcceptAll all ? all.events() : List.of((Decision.Accept) decision);
                for (Decision.Accept accept : accepts) {
                    head = append(request, head, now, accept);
                }
                Decision.Accept last = accepts.get(accepts.size() - 1);
                outcome = outcome(request, now)
                        .setAccepted(true)
                        .setSeq(head.seq())
                        .setMemoryId(last.memoryId())
                        .setVersion(last.memoryId() == null ? null : last.version())
                        .build();
            }
        } catch (RuntimeException e) {
            DeadLetters.rethrowIfStoreFailure(e);
            log.error(
                    "Sequencer failed on request {} of space {} at {}; moved to the dead-letter topic",
                    request.getRequestId(),
                    request.getSpace(),
                    DeadLetters.coordinates(source),
                    e);
            deadLetter(record, source, "decide", e);
            outcome = outcome(request, now)
                    .setAccepted(false)
                    .setCode(RejectionCode.INTERNAL.name())
                    .setMessage("the request could not be processed and was set aside at "
                            + DeadLetters.coordinates(source))
                    .build();
        }
        requests.put(dedupeKey, outcome, record.timestamp());
        emitOutcome(outcome, now.toEpochMilli());
    }

    /**
     * The outcome of an earlier request with this id, if it was seen within the retention around this record's time.
     */
    private MemoryOutcome previousOutcome(String dedupeKey, long timestamp) {
        try (WindowStoreIterator<MemoryOutcome> seen = requests.fetch(
                dedupeKey, Math.max(0, timestamp - requestIdRetentionMs), timestamp + requestIdRetentionMs)) {
            return seen.hasNext() ? seen.next().value : null;
        }
    }

    private MemoryRequest decode(Record<byte[], byte[]> record) {
        if (record.key() == null || record.value() == null) {
            throw new IllegalArgumentException("request records need a key (the space) and a value");
        }
        String key = new String(record.key(), StandardCharsets.UTF_8);
        MemoryRequest request =
                requestSerde.deserialize(context.recordMetadata().orElseThrow().topic(), record.value());
        if (!key.equals(request.getSpace())) {
            throw new IllegalArgumentException(
                    "record key '" + key + "' differs from the request's space '" + request.getSpace() + "'");
        }
        return request;
    }

    /**
     * Completes an erasure with its cascade, encrypts the event's texts (docs/architecture.md §12), seals it, applies
     * the plain event to the write model and the cascade's links, moves the head, and forwards the data keys it needs
     * and then the event; the new head.
     */
    private ChainHead append(MemoryRequest request, ChainHead head, Instant now, Decision.Accept accept) {
        Actor actor = accept.actor() != null ? accept.actor() : request.getActor();
        if (accept.payload() instanceof MemoryErased erased) {
            // the cascade (docs/architecture.md §12): the subjects whose texts carry the memory's content go with it
            // (a memory erased on its own before is not destroyed again)
            erased.setDestroyedSubjects(subjects.cascade(request.getSpace(), erased.getMemoryId()).stream()
                    .filter(subject -> !Purges.isErased(writeModel.memory(request.getSpace(), subject)))
                    .toList());
        }
        MemoryEvent event = MemoryEvent.newBuilder()
                .setSpace(request.getSpace())
                .setSeq(head.seq() + 1)
                .setPrevHash(ByteBuffer.wrap(head.hash()))
                .setHash(EMPTY.duplicate())
                .setSignature(EMPTY.duplicate())
                .setKeyId("")
                .setRequestId(request.getRequestId())
                .setActor(actor)
                .setOccurredAt(now)
                .setSessionId(request.getSessionId())
                .setPayload(accept.payload())
                .build();
        String space = request.getSpace();
        MemoryEvent onChain = encryptor.onChain(
                event,
                key -> context.forward(
                        new Record<>(
                                io.memorychain.events.content.DataKeyRing.recordKey(key.getSpace(), key.getMemoryId()),
                                key,
                                now.toEpochMilli()),
                        SequencerTopology.KEYS_SINK));
        // signed by the space's key until now: a rotation too, by the key it replaces (docs/architecture.md §4)
        sealer.seal(onChain, head.signingKeyId());
        WriteModelEvolution.apply(event, writeModel);
        subjects.apply(event);
        if (event.getPayload() instanceof MemoryErased erased) {
            scrubSubjects(request.getSpace(), erased.getDestroyedSubjects());
        }
        byte[] hash = new byte[onChain.getHash().remaining()];
        onChain.getHash().duplicate().get(hash);
        ChainHead next = head.next(onChain.getSeq(), hash, now);
        if (event.getPayload() instanceof io.memorychain.avro.SigningKeyRotated rotated) {
            next = next.rotated(rotated.getPreviousKeyId(), rotated.getNewKeyId());
        }
        heads.put(space, next);
        context.forward(new Record<>(space, onChain, now.toEpochMilli()), SequencerTopology.EVENTS_SINK);
        return next;
    }

    /**
     * The write model's copies of the destroyed subjects' texts get the marker too (docs/architecture.md §12): the
     * stored proposal, reflection and open refinement session; their later decisions only need ids and counts.
     */
    private void scrubSubjects(String space, List<String> destroyed) {
        for (String subject : destroyed) {
            if (subject.startsWith(SealedTexts.SESSION_PREFIX)) {
                RefinementSession open = refinements.get(space);
                if (open != null && subject.equals(SealedTexts.session(open.getSessionId()))) {
                    SealedTexts.scrubView(open);
                    refinements.put(space, open);
                }
                continue;
            }
            String key = StoreKeys.of(space, subject);
            Proposal proposal = proposals.get(key);
            if (proposal != null) {
                SealedTexts.scrubView(proposal);
                proposals.put(key, proposal);
            }
            Reflection reflection = reflections.get(key);
            if (reflection != null) {
                SealedTexts.scrubView(reflection);
                reflections.put(key, reflection);
            }
        }
    }

    private static MemoryOutcome.Builder outcome(MemoryRequest request, Instant now) {
        return MemoryOutcome.newBuilder()
                .setRequestId(request.getRequestId())
                .setSpace(request.getSpace())
                .setOccurredAt(now);
    }

    private void emitOutcome(MemoryOutcome outcome, long timestamp) {
        context.forward(new Record<>(outcome.getRequestId(), outcome, timestamp), SequencerTopology.OUTCOMES_SINK);
    }

    private void deadLetter(Record<byte[], byte[]> record, RecordMetadata source, String stage, Throwable error) {
        context.forward(DeadLetters.record(record, source, stage, error), SequencerTopology.DLQ_SINK);
    }

    private static Instant latest(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    /** The write model in the sequencer's RocksDB stores (changelogged, so it survives a task move). */
    private final class StoreWriteModel implements WriteModelStore {

        @Override
        public Memory memory(String space, String id) {
            return memories.get(StoreKeys.of(space, id));
        }

        @Override
        public String activeBlock(String space, String label) {
            return blocks.get(StoreKeys.of(space, label));
        }

        @Override
        public String relation(String space, String fromId, String toId) {
            return relations.get(StoreKeys.of(space, fromId, toId));
        }

        @Override
        public Proposal proposal(String space, String id) {
            return proposals.get(StoreKeys.of(space, id));
        }

        @Override
        public List<Memory> memories(String space) {
            List<Memory> all = new ArrayList<>();
            try (KeyValueIterator<String, Memory> it =
                    memories.prefixScan(StoreKeys.prefix(space), new StringSerializer())) {
                it.forEachRemaining(kv -> all.add(kv.value));
            }
            return all;
        }

        @Override
        public Reflection reflection(String space, String id) {
            return reflections.get(StoreKeys.of(space, id));
        }

        @Override
        public void putReflection(String space, Reflection reflection) {
            reflections.put(StoreKeys.of(space, reflection.getId()), reflection);
        }

        @Override
        public Grant grant(String space, String id) {
            return grants.get(StoreKeys.of(space, id));
        }

        @Override
        public void putGrant(String space, Grant grant) {
            grants.put(StoreKeys.of(space, grant.getId()), grant);
        }

        @Override
        public SpaceGovernance governance(String space) {
            return governance.get(space);
        }

        @Override
        public void putGovernance(String space, SpaceGovernance value) {
            governance.put(space, value);
        }

        @Override
        public RefinementSession openRefinement(String space) {
            return refinements.get(space);
        }

        @Override
        public void putMemory(String space, Memory memory) {
            memories.put(StoreKeys.of(space, memory.getId()), memory);
        }

        @Override
        public void putActiveBlock(String space, String label, String memoryId) {
            blocks.put(StoreKeys.of(space, label), memoryId);
        }

        @Override
        public void putRelation(String space, String fromId, String toId, String type) {
            relations.put(StoreKeys.of(space, fromId, toId), type);
        }

        @Override
        public void deleteRelation(String space, String fromId, String toId) {
            relations.delete(StoreKeys.of(space, fromId, toId));
        }

        @Override
        public void putProposal(String space, Proposal proposal) {
            proposals.put(StoreKeys.of(space, proposal.getId()), proposal);
        }

        @Override
        public void putOpenRefinement(String space, RefinementSession session) {
            if (session == null) {
                refinements.delete(space);
            } else {
                refinements.put(space, session);
            }
        }
    }
}
