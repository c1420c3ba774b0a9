package io.memorychain.api.export;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.Map;

/**
 * What an import wrote.
 *
 * @param memories memories created (a repeated import within the request-id retention creates none: same ids)
 * @param blocks block versions written
 * @param relations edges linked
 * @param ids exported memory id to the id of the memory created for it
 */
@Serdeable
@Schema(name = "ImportResult")
public record ImportResult(
        int memories,
        int blocks,
        int relations,
        Map<String, String> ids,
        @Schema(name = "head_seq") @JsonProperty("head_seq") long headSeq) {}
