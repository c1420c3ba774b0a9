package io.memorychain.projector;

import static io.memorychain.projector.ChainHarness.ADMIN;
import static io.memorychain.projector.ChainHarness.AGENT;

import io.memorychain.avro.ActorType;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.MemoryFlag;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.events.Requests;
import java.util.ArrayList;
import java.util.List;

/**
 * A mixed workload with known answers, in three rounds per space: creates (plus invalid requests), then changes to the
 * created memories, then follow-ups whose validity depends on round two. Each request carries the code it must get
 * ({@code null} = accepted).
 */
public final class MixedLoad {

    /** One request and the outcome it must get: null for accepted, else the rejection code. */
    public record Expected(MemoryRequest request, String code) {}

    public static final int CREATES_PER_SPACE = 23;

    private MixedLoad() {}

    public static List<String> spaces(int n) {
        List<String> spaces = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            spaces.add("space-" + i);
        }
        return spaces;
    }

    /** Round 1: 23 creates and 5 invalid requests per space. */
    public static List<Expected> round1(String space) {
        List<Expected> out = new ArrayList<>();
        for (int i = 0; i < CREATES_PER_SPACE; i++) {
            out.add(ok(Requests.create(
                    space,
                    AGENT,
                    CreateMemory.newBuilder()
                            .setContent("Fact " + i + " about " + space + ": the user likes item " + (i * 7 % 13))
                            .setCategory(i % 3 == 0 ? "preferences" : "facts")
                            .setImportance(1 + i % 5)
                            .build())));
        }
        out.add(bad(Requests.create(space, AGENT, "   "), "INVALID_ARGUMENT"));
        out.add(bad(Requests.create(space, AGENT, "x".repeat(40_000)), "TOO_LARGE"));
        out.add(bad(Requests.updateContent(space, AGENT, "m0zzzzzz0000", "ghost"), "NOT_FOUND"));
        out.add(bad(Requests.create(space, Requests.actor(ActorType.SUBAGENT, "helper"), "sneaky"), "FORBIDDEN"));
        out.add(bad(Requests.block(space, AGENT, "diary", "dear diary"), "UNKNOWN_BLOCK_LABEL"));
        return out;
    }

    /** Round 2, given the ids created in round 1 (in order): 10 changes and 3 invalid requests. */
    public static List<Expected> round2(String space, List<String> ids) {
        List<Expected> out = new ArrayList<>();
        out.add(ok(Requests.updateContent(space, AGENT, ids.get(0), "Updated fact 0")
                .setExpectedVersion(1)));
        out.add(ok(Requests.delete(space, AGENT, ids.get(1))));
        out.add(ok(Requests.consolidate(
                space, AGENT, List.of(ids.get(2), ids.get(3), ids.get(4)), "Consolidated facts 2-4", "dedupe")));
        out.add(ok(Requests.flag(space, AGENT, ids.get(5), MemoryFlag.PINNED, true)));
        out.add(ok(Requests.flag(space, ADMIN, ids.get(6), MemoryFlag.CONSTITUTIONAL, true)));
        out.add(ok(Requests.block(space, AGENT, "persona", "I am the agent of " + space)));
        out.add(ok(Requests.block(space, AGENT, "user_profile", "The user of " + space)));
        out.add(ok(Requests.updateContent(space, AGENT, ids.get(7), "Updated fact 7")));
        out.add(ok(Requests.delete(space, AGENT, ids.get(8))));
        out.add(ok(Requests.flag(space, AGENT, ids.get(9), MemoryFlag.PINNED, true)));
        out.add(bad(
                Requests.updateContent(space, AGENT, ids.get(10), "stale").setExpectedVersion(7), "VERSION_CONFLICT"));
        out.add(bad(Requests.flag(space, AGENT, ids.get(11), MemoryFlag.CONSTITUTIONAL, true), "NOT_IN_REFINEMENT"));
        out.add(bad(
                Requests.consolidate(space, AGENT, List.of(ids.get(12), ids.get(12)), "dup", null),
                "INVALID_ARGUMENT"));
        return out;
    }

    /** Round 3: 4 valid follow-ups and 5 requests that round 2 made invalid. */
    public static List<Expected> round3(String space, List<String> ids) {
        List<Expected> out = new ArrayList<>();
        out.add(ok(Requests.restore(space, AGENT, ids.get(1))));
        out.add(ok(Requests.block(space, AGENT, "persona", "I am the careful agent of " + space)
                .setExpectedVersion(1)));
        out.add(ok(Requests.updateContent(space, AGENT, ids.get(0), "Updated fact 0 again")
                .setExpectedVersion(2)));
        out.add(ok(Requests.flag(space, AGENT, ids.get(5), MemoryFlag.PINNED, false)));
        out.add(bad(Requests.delete(space, AGENT, ids.get(6)), "CONSTITUTIONAL"));
        out.add(bad(Requests.consolidate(space, AGENT, List.of(ids.get(6), ids.get(13)), "x", null), "CONSTITUTIONAL"));
        out.add(bad(Requests.updateContent(space, AGENT, ids.get(2), "superseded"), "INVALID_STATE"));
        out.add(bad(Requests.restore(space, AGENT, ids.get(14)), "INVALID_STATE"));
        out.add(bad(Requests.delete(space, AGENT, ids.get(8)), "INVALID_STATE"));
        return out;
    }

    private static Expected ok(MemoryRequest.Builder b) {
        return new Expected(b.build(), null);
    }

    private static Expected bad(MemoryRequest.Builder b, String code) {
        return new Expected(b.build(), code);
    }

    /** Agent edits of the critical persona block per space: each is followed by a CriticalChangeAlerted event. */
    public static int criticalEditsPerSpace() {
        return 2;
    }

    /** Number of accepted requests per space over the three rounds. */
    public static int acceptedPerSpace() {
        return CREATES_PER_SPACE + 10 + 4;
    }
}
