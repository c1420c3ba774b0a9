package io.memorychain.api.reflections;

import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * The reflection log of a space (docs/architecture.md §18), oldest first, and its evolution record: the insights of the
 * approved (wholly or partly) reflections, in order.
 */
@Serdeable
@Schema(name = "ReflectionLog")
public record ReflectionLogJson(
        List<ReflectionJson> items,

        @Schema(description = "Evolution record: '#N: insight' of every approved reflection")
        List<String> evolution) {}
