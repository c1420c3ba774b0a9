package io.memorychain.api.profile;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/** What a profile write did (the answer of {@code PUT /profile/{field}} and of gRPC SetProfileField). */
@Serdeable
@Schema(name = "ProfileWrite")
record ProfileWriteJson(
        @Schema(description = "applied, consent_requested or awaiting_corroboration")
        String result,

        long seq,

        @Nullable
        @JsonProperty("consent_id")
        @Schema(name = "consent_id", description = "consent_requested: the consent request's id")
        String consentId,

        ProfileJson profile) {}
