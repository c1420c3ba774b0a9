package io.memorychain.api.refinement;

import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** A space's refinement sessions, oldest first (without ledgers and edits). */
@Serdeable
@Schema(name = "RefinementSessions")
public record RefinementListJson(List<RefinementSessionJson> items) {}
