package io.memorychain.api.memories;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/** Optional body of restore / protect / unprotect / pin / unpin. */
@Serdeable
@JsonIgnoreProperties(ignoreUnknown = false)
@Schema(name = "ExpectedVersion")
record VersionBody(
        @Nullable @Schema(name = "expected_version") @JsonProperty("expected_version")
        Integer expectedVersion) {}
