package io.memorychain.domain.decide;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryRequest;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Given/when/then over the pure write model: {@code given} requests are decided and their events applied to an
 * {@link InMemoryWriteModel} (each must be accepted), {@code when} decides one more request and returns what was
 * decided, without applying it.
 */
final class Scenario {

    static final String SPACE = "acme.planner";
    static final Actor AGENT = actor(ActorType.AGENT, "planner");
    static final Actor ADMIN = actor(ActorType.ADMIN, "root");
    static final Actor SUBAGENT = actor(ActorType.SUBAGENT, "researcher");
    static final Actor WORKER = actor(ActorType.WORKER, "refinement");

    private final Decider decider;
    private final InMemoryWriteModel model = new InMemoryWriteModel();
    private final List<MemoryEvent> events = new ArrayList<>();
    private Instant now = Instant.parse("2026-01-05T10:00:00Z");
    private int requests;

    Scenario(WriteSettings settings) {
        this.decider = new Decider(settings);
    }

    Scenario() {
        this(WriteSettings.defaults());
    }

    static Actor actor(ActorType type, String id) {
        return Actor.newBuilder().setType(type).setId(id).build();
    }

    MemoryRequest.Builder request(Actor actor, Object op) {
        return MemoryRequest.newBuilder()
                .setRequestId("r" + ++requests)
                .setSpace(SPACE)
                .setActor(actor)
                .setExpectedVersion(null)
                .setSessionId(null)
                .setRequestedAt(now)
                .setOp(op);
    }

    /** Decides and applies each request; every one must be accepted. The ids of the memories they named. */
    List<String> given(MemoryRequest... given) {
        List<String> ids = new ArrayList<>();
        for (MemoryRequest request : given) {
            Decision decision = decide(request);
            assertThat(decision).as("given %s", request.getOp()).isNotInstanceOf(Decision.Reject.class);
            List<Decision.Accept> accepts =
                    decision instanceof Decision.AcceptAll all ? all.events() : List.of((Decision.Accept) decision);
            for (Decision.Accept accept : accepts) {
                MemoryEvent event = MemoryEvent.newBuilder()
                        .setSpace(SPACE)
                        .setSeq(events.size() + 1L)
                        .setPrevHash(ByteBuffer.allocate(0))
                        .setHash(ByteBuffer.allocate(0))
                        .setSignature(ByteBuffer.allocate(0))
                        .setKeyId("")
                        .setRequestId(request.getRequestId())
                        .setActor(accept.actor() != null ? accept.actor() : request.getActor())
                        .setOccurredAt(now)
                        .setSessionId(request.getSessionId())
                        .setPayload(accept.payload())
                        .build();
                WriteModelEvolution.apply(event, model);
                events.add(event);
            }
            ids.add(accepts.get(accepts.size() - 1).memoryId());
            now = now.plusSeconds(60);
        }
        return ids;
    }

    /** Applies events decided elsewhere (e.g. under other settings), as if this scenario had decided them. */
    void givenEvents(List<MemoryEvent> decided) {
        for (MemoryEvent event : decided) {
            WriteModelEvolution.apply(event, model);
            events.add(event);
        }
    }

    String given(MemoryRequest request) {
        return given(new MemoryRequest[] {request}).get(0);
    }

    Decision when(MemoryRequest request) {
        return decide(request);
    }

    /** Moves the decision time (the clock of the events decided next). */
    void advance(java.time.Duration duration) {
        now = now.plus(duration);
    }

    Instant now() {
        return now;
    }

    InMemoryWriteModel model() {
        return model;
    }

    List<MemoryEvent> events() {
        return events;
    }

    private Decision decide(MemoryRequest request) {
        return decider.decide(request, events.size() + 1L, model, now);
    }
}
