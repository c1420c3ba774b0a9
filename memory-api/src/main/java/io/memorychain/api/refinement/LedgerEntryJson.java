package io.memorychain.api.refinement;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.api.request.Enums;
import io.memorychain.avro.Memory;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.ArrayList;
import java.util.List;

/**
 * One memory of a refinement ledger (docs/architecture.md §9): id, content, created_at, tags and flags, plus what edits
 * need.
 */
@Serdeable
@Schema(name = "LedgerEntry")
record LedgerEntryJson(
        String id,
        String content,

        @Schema(name = "created_at") @JsonProperty("created_at")
        String createdAt,

        List<String> tags,

        @Schema(description = "constitutional (cannot be deleted or consolidated) and/or pinned")
        List<String> flags,

        @Schema(description = "semantic, episodic, procedural, insight, journal or entity")
        String kind,

        @Nullable String category,
        int importance,

        @Schema(description = "For If-Match / expected_version")
        int version) {

    public static LedgerEntryJson of(Memory m) {
        List<String> flags = new ArrayList<>(2);
        if (m.getConstitutional()) {
            flags.add("constitutional");
        }
        if (m.getPinned()) {
            flags.add("pinned");
        }
        return new LedgerEntryJson(
                m.getId(),
                m.getContent(),
                m.getCreatedAt().toString(),
                List.copyOf(m.getTags()),
                flags,
                Enums.json(m.getKind()),
                m.getCategory(),
                m.getImportance(),
                m.getVersion());
    }
}
