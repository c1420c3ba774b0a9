package io.memorychain.projector.retrieval.eval;

import io.memorychain.avro.ActorType;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.events.Requests;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.retrieval.eval.Locomo.Conversation;
import io.memorychain.projector.retrieval.eval.Locomo.Turn;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * LoCoMo conversations written through the real chain (sequencer, embedder and projection on TopologyTestDriver): each
 * conversation its own space, every turn one episodic memory ({@link Turn#content()}) written by its speaker (actor and
 * user id) in the thread of its session ("session-K"), at its session's date-time plus one second per turn (the harness
 * clock, so created_at keeps the order of the turns). Keeps the turn of every memory id.
 */
public final class LocomoChain {

    private final Map<String, String> turnById = new HashMap<>();
    private final Map<String, List<String>> idsBySpace = new HashMap<>();
    private Instant last = Instant.EPOCH;

    public LocomoChain(ChainHarness h, List<Conversation> conversations) {
        for (Conversation c : conversations) {
            Instant previousSession = null;
            int inSession = 0;
            for (Turn t : c.turns()) {
                inSession = t.at().equals(previousSession) ? inSession + 1 : 0;
                previousSession = t.at();
                h.now = t.at().plusSeconds(inSession);
                var actor = Requests.actor(ActorType.USER, t.speaker());
                MemoryOutcome o = h.submit(Requests.create(
                        c.space(),
                        actor,
                        CreateMemory.newBuilder()
                                .setKind(MemoryKind.EPISODIC)
                                .setContent(t.content())
                                .setUserId(t.speaker())
                                .setActorId(t.speaker())
                                .setThreadId("session-" + t.session())
                                .build()));
                if (!o.getAccepted()) {
                    throw new IllegalStateException(
                            "turn " + c.id() + "/" + t.diaId() + " rejected: " + o.getMessage());
                }
                turnById.put(o.getMemoryId(), t.diaId());
                idsBySpace.computeIfAbsent(c.space(), x -> new ArrayList<>()).add(o.getMemoryId());
                last = h.now.isAfter(last) ? h.now : last;
            }
        }
        h.now = last.plus(Duration.ofDays(1)); // queries are asked the day after the last turn
    }

    /** The turn ("D3:5") a memory id was written for, or null. */
    public String turn(String memoryId) {
        return turnById.get(memoryId);
    }

    /** The memory ids written for the conversation, in turn order. */
    public List<String> ids(String space) {
        return idsBySpace.getOrDefault(space, List.of());
    }

    public int size() {
        return turnById.size();
    }
}
