package io.memorychain.api.memories;

import io.memorychain.api.request.Enums;
import io.memorychain.avro.Actor;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/** Who caused a change. */
@Serdeable
@Schema(name = "Actor")
public record ActorJson(
        @Schema(description = "agent, subagent, user, admin, system or worker")
        String type,

        String id) {

    public static ActorJson of(Actor actor) {
        return actor == null ? null : new ActorJson(Enums.json(actor.getType()), actor.getId());
    }
}
