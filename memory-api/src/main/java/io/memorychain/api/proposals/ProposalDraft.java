package io.memorychain.api.proposals;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * A memory a sub-agent proposes (docs/architecture.md §10): the body of {@code POST /proposals} and the arguments of
 * the {@code memory_propose} tool. Only content is required. Unknown properties are rejected.
 */
@Serdeable
@JsonIgnoreProperties(ignoreUnknown = false)
@Schema(name = "ProposeMemory", description = "A proposed memory. Only content is required.")
public record ProposalDraft(
        @Nullable
        @Schema(
                description = "The memory text; not blank, at most memory.max-content-bytes UTF-8 bytes",
                requiredMode = Schema.RequiredMode.REQUIRED)
        String content,

        @Nullable
        @Schema(
                description =
                        "Suggested store: semantic (default), episodic, procedural, insight, journal or entity; the vault is pinned: true")
        String kind,

        @Nullable String category,

        @Nullable @Schema(description = "One-line summary used in listings")
        String summary,

        @Nullable List<String> tags,

        @Nullable
        @Schema(description = "Entity ids the memory is about (e.g. preference--source-quality); become tags on commit")
        List<String> entities,

        @Nullable @Schema(description = "1 (trivial) to 5 (critical); default 3", minimum = "1", maximum = "5")
        Integer importance,

        @Nullable @Schema(description = "high, medium (default) or low")
        String confidence,

        @Nullable
        @JsonProperty("core_worthy")
        @Schema(
                name = "core_worthy",
                description =
                        "Belongs in core memory: committed with tier core unless the reviewer overrides; default false")
        Boolean coreWorthy,

        @Nullable @Schema(description = "Suggested store vault: committed pinned (never decays); default false")
        Boolean pinned,

        @Nullable @Schema(description = "What triggered it: user said 'remember this', or auto-detect during a task")
        String trigger) {

    /** A draft with only content (the rest as defaults). */
    public static ProposalDraft of(String content) {
        return new ProposalDraft(content, null, null, null, null, null, null, null, null, null, null);
    }
}
