package io.memorychain.api.memories;

import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** The history of one memory, oldest first. */
@Serdeable
@Schema(name = "History")
public record HistoryResponse(String id, List<HistoryEntryJson> items) {}
