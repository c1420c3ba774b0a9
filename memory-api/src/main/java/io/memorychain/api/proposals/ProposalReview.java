package io.memorychain.api.proposals;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * A reviewer's decision details (docs/architecture.md §10): the body of {@code POST /proposals/{id}:commit},
 * {@code :reject} and {@code :defer}, and the arguments of the {@code proposals_review} tool besides the id and the
 * action. The overrides (kind to summary) apply to commit only: null keeps what was proposed.
 */
@Serdeable
@JsonIgnoreProperties(ignoreUnknown = false)
@Schema(
        name = "ReviewProposal",
        description = "Why, and for commit the classification to use instead of the proposed one.")
public record ProposalReview(
        @Nullable @Schema(description = "Why; recorded on the chain")
        String reason,

        @Nullable
        @JsonProperty("expected_version")
        @Schema(
                name = "expected_version",
                description = "The proposal's version (or If-Match): 409 VERSION_CONFLICT when it changed")
        Integer expectedVersion,

        @Nullable
        @Schema(description = "commit: a different store (semantic, episodic, procedural, insight, journal, entity)")
        String kind,

        @Nullable @Schema(description = "commit: core or working (default: core when core_worthy)")
        String tier,

        @Nullable @Schema(description = "commit: a different category")
        String category,

        @Nullable @Schema(description = "commit: a different summary")
        String summary,

        @Nullable @Schema(description = "commit: the tags (replace the proposed tags and entities)")
        List<String> tags,

        @Nullable @Schema(description = "commit: a different importance, 1 to 5")
        Integer importance,

        @Nullable @Schema(description = "commit: high, medium or low (e.g. low for both sides of a conflict)")
        String confidence,

        @Nullable @Schema(description = "commit: pinned or not")
        Boolean pinned) {

    public static final ProposalReview NONE =
            new ProposalReview(null, null, null, null, null, null, null, null, null, null);

    /** Just a reason. */
    public static ProposalReview because(String reason) {
        return new ProposalReview(reason, null, null, null, null, null, null, null, null, null);
    }

    boolean overrides() {
        return kind != null
                || tier != null
                || category != null
                || summary != null
                || tags != null
                || importance != null
                || confidence != null
                || pinned != null;
    }
}
