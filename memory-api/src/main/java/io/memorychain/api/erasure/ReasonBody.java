package io.memorychain.api.erasure;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/** Body of {@code :erase} and {@code :purge}: why (kept on the chain; required) and an optional expected version. */
@Serdeable
@JsonIgnoreProperties(ignoreUnknown = false)
@Schema(name = "EraseOrPurge")
record ReasonBody(
        @Nullable @Schema(description = "Why; required, kept on the chain")
        String reason,

        @Nullable @Schema(name = "expected_version") @JsonProperty("expected_version")
        Integer expectedVersion) {}
