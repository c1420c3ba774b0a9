package io.memorychain.api.audit;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * One page of the audit log; pass {@code next_after_seq} as {@code after_seq} for more (null when this page was not
 * full).
 */
@Serdeable
@Schema(name = "AuditPage")
public record AuditPage(
        List<AuditEntryJson> items,

        @Nullable @Schema(name = "next_after_seq") @JsonProperty("next_after_seq")
        Long nextAfterSeq) {}
