package io.memorychain.api.contradictions;

import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** The contradictions of a space, oldest first. */
@Serdeable
@Schema(name = "ContradictionList")
record ContradictionListJson(List<ContradictionJson> items) {}
