package io.memorychain.api.auth;

import io.memorychain.avro.ActorType;
import java.util.Locale;

/** What a caller may do (docs/architecture.md §13). */
public enum Role {
    /** Reads and writes its own spaces. */
    AGENT(ActorType.AGENT),
    /** Reads its spaces and proposes memories; cannot write directly (the sequencer rejects it). */
    SUBAGENT(ActorType.SUBAGENT),
    /**
     * A person working on the agent's memory by hand (e.g. editing the Markdown view): reads and writes its spaces as
     * {@code user:<agent_id>}; no category allowlist applies to people.
     */
    USER(ActorType.USER),
    /** Background jobs: every operation on its spaces. */
    WORKER(ActorType.WORKER),
    /** Governance (keys, verification, protection, refinement, proposals review); no content reads. */
    ADMIN(ActorType.ADMIN);

    private final ActorType actorType;

    Role(ActorType actorType) {
        this.actorType = actorType;
    }

    public ActorType actorType() {
        return actorType;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Case-insensitive; null when unknown. */
    public static Role parse(String name) {
        for (Role r : values()) {
            if (r.name().equalsIgnoreCase(name)) {
                return r;
            }
        }
        return null;
    }
}
