package io.memorychain.api.grpc;

import com.google.protobuf.Value;
import io.memorychain.api.auth.NewKeyBody;
import io.memorychain.api.blocks.BlockBody;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.grpc.v1.ConsolidateRequest;
import io.memorychain.api.grpc.v1.ContextRequest;
import io.memorychain.api.grpc.v1.CreateMemoryRequest;
import io.memorychain.api.grpc.v1.IssueKeyRequest;
import io.memorychain.api.grpc.v1.LinkRequest;
import io.memorychain.api.grpc.v1.ProposeRequest;
import io.memorychain.api.grpc.v1.PutBlockRequest;
import io.memorychain.api.grpc.v1.QueryFilters;
import io.memorychain.api.grpc.v1.QueryRequest;
import io.memorychain.api.grpc.v1.RefinementConsolidateRequest;
import io.memorychain.api.grpc.v1.RefinementUpdateMemoryRequest;
import io.memorychain.api.grpc.v1.ReviewProposalRequest;
import io.memorychain.api.grpc.v1.UpdateMemoryRequest;
import io.memorychain.api.memories.ConsolidateBody;
import io.memorychain.api.memories.CreateMemoryBody;
import io.memorychain.api.memories.UpdateMemoryBody;
import io.memorychain.api.proposals.ProposalDraft;
import io.memorychain.api.proposals.ProposalReview;
import io.memorychain.api.relations.LinkBody;
import io.memorychain.api.retrieval.ContextBody;
import io.memorychain.api.retrieval.QueryBody;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * gRPC requests -> the REST API's body records, so the same request builders validate them. (Answers go the other way
 * through {@link ProtoJson}: built from the REST response records by name.) A request message carries more than its
 * body (space, idempotency key, expected version), hence a mapping per message. An unset {@code optional} field is
 * null, as an absent JSON property.
 */
final class ProtoMapping {

    private ProtoMapping() {}

    // ---------------------------------------------------------------- requests -> REST bodies

    static CreateMemoryBody body(CreateMemoryRequest r) {
        return new CreateMemoryBody(
                required(r.getContent()),
                r.hasKind() ? r.getKind() : null,
                r.hasTier() ? r.getTier() : null,
                r.hasCategory() ? r.getCategory() : null,
                r.hasSummary() ? r.getSummary() : null,
                r.getTagsCount() == 0 ? null : r.getTagsList(),
                r.hasImportance() ? r.getImportance() : null,
                r.hasConfidence() ? r.getConfidence() : null,
                r.hasSource() ? r.getSource() : null,
                r.hasUserId() ? r.getUserId() : null,
                r.hasAgentId() ? r.getAgentId() : null,
                r.hasRunId() ? r.getRunId() : null,
                r.hasActorId() ? r.getActorId() : null,
                r.hasThreadId() ? r.getThreadId() : null,
                r.hasRole() ? r.getRole() : null,
                r.hasCreatedAt() ? r.getCreatedAt() : null,
                r.hasPinned() ? r.getPinned() : null);
    }

    static UpdateMemoryBody body(UpdateMemoryRequest r) {
        return new UpdateMemoryBody(
                r.hasContent() ? r.getContent() : null,
                r.hasSummary() ? r.getSummary() : null,
                r.hasTags() ? r.getTags().getValuesList() : null,
                r.hasImportance() ? r.getImportance() : null,
                r.hasConfidence() ? r.getConfidence() : null,
                r.hasCategory() ? r.getCategory() : null,
                r.hasTier() ? r.getTier() : null,
                r.hasExpectedVersion() ? r.getExpectedVersion() : null);
    }

    static ConsolidateBody body(ConsolidateRequest r) {
        return new ConsolidateBody(
                r.getIdsCount() == 0 ? null : r.getIdsList(),
                required(r.getContent()),
                r.hasSummary() ? r.getSummary() : null,
                r.hasReason() ? r.getReason() : null,
                r.hasCategory() ? r.getCategory() : null,
                r.hasTags() ? r.getTags().getValuesList() : null,
                r.hasImportance() ? r.getImportance() : null);
    }

    static BlockBody body(PutBlockRequest r) {
        return new BlockBody(
                required(r.getContent()),
                r.hasCore() ? r.getCore() : null,
                r.hasExpectedVersion() ? r.getExpectedVersion() : null);
    }

    static LinkBody body(LinkRequest r) {
        return new LinkBody(
                required(r.getTo()), r.hasType() ? r.getType() : null, r.hasStrength() ? r.getStrength() : null);
    }

    static QueryBody body(QueryRequest r) {
        Map<String, Object> filters = filters(r);
        return new QueryBody(
                r.hasAgent() ? r.getAgent() : null,
                required(r.getQuery()),
                r.getCategoriesCount() == 0 ? null : r.getCategoriesList(),
                filters,
                r.hasTopK() ? r.getTopK() : null,
                r.hasReturn() ? r.getReturn() : null,
                r.hasBudgetTokens() ? r.getBudgetTokens() : null,
                r.hasThreshold() ? r.getThreshold() : null,
                r.hasIncludeSuperseded() ? r.getIncludeSuperseded() : null,
                r.hasIncludeDormant() ? r.getIncludeDormant() : null,
                r.hasThreadId() ? r.getThreadId() : null,
                r.hasSinceRev() ? r.getSinceRev() : null,
                r.hasAsOfSeq() ? r.getAsOfSeq() : null,
                r.hasAsOf() ? r.getAsOf() : null,
                r.hasDateFilter() ? r.getDateFilter() : null);
    }

    /** The flat {@code filters} message and the {@code filter} Struct as one REST filters object (null: none). */
    static Map<String, Object> filters(QueryRequest r) {
        Map<String, Object> filters = new LinkedHashMap<>();
        if (r.hasFilters()) {
            QueryFilters f = r.getFilters();
            putIf(filters, f.hasUserId(), "user_id", f.getUserId());
            putIf(filters, f.hasAgentId(), "agent_id", f.getAgentId());
            putIf(filters, f.hasRunId(), "run_id", f.getRunId());
            putIf(filters, f.hasActorId(), "actor_id", f.getActorId());
            putIf(filters, f.hasRole(), "role", f.getRole());
            putIf(filters, f.hasCategory(), "category", f.getCategory());
            putIf(filters, f.hasPinned(), "pinned", f.getPinned());
            putIf(filters, f.hasImportanceMin(), "importance_min", f.getImportanceMin());
            putIf(filters, f.hasImportanceMax(), "importance_max", f.getImportanceMax());
            putIf(filters, f.hasUpdatedAfter(), "updated_after", f.getUpdatedAfter());
            putIf(filters, f.hasUpdatedBefore(), "updated_before", f.getUpdatedBefore());
        }
        if (r.hasFilter()) {
            for (Map.Entry<String, Value> e : r.getFilter().getFieldsMap().entrySet()) {
                if (filters.putIfAbsent(e.getKey(), plain(e.getValue())) != null) {
                    throw new ApiException(
                            ErrorCodes.INVALID_FILTER,
                            "INVALID_VALUE filter." + e.getKey() + ": also given in filters");
                }
            }
        }
        return filters.isEmpty() ? null : filters;
    }

    private static void putIf(Map<String, Object> map, boolean present, String key, Object value) {
        if (present) {
            map.put(key, value);
        }
    }

    /** A protobuf Struct value as the JSON tree a REST body gives (maps, lists, strings, numbers, booleans). */
    static Object plain(Value v) {
        return switch (v.getKindCase()) {
            case STRUCT_VALUE -> {
                Map<String, Object> map = new LinkedHashMap<>();
                v.getStructValue().getFieldsMap().forEach((k, x) -> map.put(k, plain(x)));
                yield map;
            }
            case LIST_VALUE ->
                v.getListValue().getValuesList().stream()
                        .map(ProtoMapping::plain)
                        .toList();
            case STRING_VALUE -> v.getStringValue();
            case NUMBER_VALUE -> v.getNumberValue();
            case BOOL_VALUE -> v.getBoolValue();
            default -> null;
        };
    }

    static ContextBody body(ContextRequest r) {
        return new ContextBody(
                required(r.getMessage()),
                r.hasThreadId() ? r.getThreadId() : null,
                r.hasSinceRev() ? r.getSinceRev() : null,
                r.hasMaxTokens() ? r.getMaxTokens() : null,
                r.hasAgent() ? r.getAgent() : null);
    }

    static ConsolidateBody body(RefinementConsolidateRequest r) {
        return new ConsolidateBody(
                r.getIdsCount() == 0 ? null : r.getIdsList(),
                required(r.getContent()),
                r.hasSummary() ? r.getSummary() : null,
                r.hasReason() ? r.getReason() : null,
                r.hasCategory() ? r.getCategory() : null,
                r.hasTags() ? r.getTags().getValuesList() : null,
                r.hasImportance() ? r.getImportance() : null);
    }

    static UpdateMemoryBody body(RefinementUpdateMemoryRequest r) {
        return new UpdateMemoryBody(
                r.hasContent() ? r.getContent() : null,
                r.hasSummary() ? r.getSummary() : null,
                r.hasTags() ? r.getTags().getValuesList() : null,
                r.hasImportance() ? r.getImportance() : null,
                r.hasConfidence() ? r.getConfidence() : null,
                r.hasCategory() ? r.getCategory() : null,
                r.hasTier() ? r.getTier() : null,
                r.hasExpectedVersion() ? r.getExpectedVersion() : null);
    }

    static ProposalDraft body(ProposeRequest r) {
        return new ProposalDraft(
                required(r.getContent()),
                r.hasKind() ? r.getKind() : null,
                r.hasCategory() ? r.getCategory() : null,
                r.hasSummary() ? r.getSummary() : null,
                r.getTagsCount() == 0 ? null : r.getTagsList(),
                r.getEntitiesCount() == 0 ? null : r.getEntitiesList(),
                r.hasImportance() ? r.getImportance() : null,
                r.hasConfidence() ? r.getConfidence() : null,
                r.hasCoreWorthy() ? r.getCoreWorthy() : null,
                r.hasPinned() ? r.getPinned() : null,
                r.hasTrigger() ? r.getTrigger() : null);
    }

    static ProposalReview body(ReviewProposalRequest r) {
        return new ProposalReview(
                r.hasReason() ? r.getReason() : null,
                r.hasExpectedVersion() ? r.getExpectedVersion() : null,
                r.hasKind() ? r.getKind() : null,
                r.hasTier() ? r.getTier() : null,
                r.hasCategory() ? r.getCategory() : null,
                r.hasSummary() ? r.getSummary() : null,
                r.hasTags() ? r.getTags().getValuesList() : null,
                r.hasImportance() ? r.getImportance() : null,
                r.hasConfidence() ? r.getConfidence() : null,
                r.hasPinned() ? r.getPinned() : null);
    }

    static NewKeyBody body(IssueKeyRequest r) {
        return new NewKeyBody(
                required(r.getId()),
                required(r.getRole()),
                r.hasAgentId() ? r.getAgentId() : null,
                r.getSpacesCount() == 0 ? null : r.getSpacesList());
    }

    private static void set(String value, Consumer<String> setter) {
        if (value != null) {
            setter.accept(value);
        }
    }

    /** A required proto3 string: unset is "", which the REST bodies see as an absent property. */
    static String required(String value) {
        return value.isEmpty() ? null : value;
    }

    private static String nonNull(String value) {
        return value == null ? "" : value;
    }
}
