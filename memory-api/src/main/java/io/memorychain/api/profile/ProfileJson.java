package io.memorychain.api.profile;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.api.memories.ActorJson;
import io.memorychain.api.request.Enums;
import io.memorychain.avro.ProfileSignal;
import io.memorychain.avro.view.PendingProfileValue;
import io.memorychain.avro.view.ProfileField;
import io.memorychain.avro.view.SpaceGovernance;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** A space's user profile (docs/architecture.md §21): its fields and the benign values awaiting corroboration. */
@Serdeable
@Schema(name = "Profile")
public record ProfileJson(String space, List<Field> fields, List<Pending> pending) {

    /** One field and the event that set it. */
    @Serdeable
    @Schema(name = "ProfileField")
    public record Field(
            String name,
            String value,

            @Schema(description = "sensitive (changes need the user's consent) or benign")
            String sensitivity,

            @Schema(name = "set_seq") @JsonProperty("set_seq")
            long setSeq,

            @Schema(name = "set_at") @JsonProperty("set_at") String setAt,
            @JsonProperty("set_by") ActorJson setBy,

            @JsonProperty("applied_by")
            @Schema(name = "applied_by", description = "user, consent, corroborated or tom_high_confidence")
            String appliedBy,

            @Nullable @Schema(name = "consent_id") @JsonProperty("consent_id")
            String consentId) {

        /** Declared, so that it carries no {@code @JsonProperty} of its own (SpecContractTest: spurious properties). */
        @Override
        public ActorJson setBy() {
            return setBy;
        }
    }

    /** A benign value proposed by one signal, waiting for a second, distinct one. */
    @Serdeable
    @Schema(name = "PendingProfileValue")
    public record Pending(String field, String value, List<Signal> signals) {}

    /** A signal: who proposed the value, from which source, how sure. */
    @Serdeable
    @Schema(name = "ProfileSignal")
    public record Signal(ActorJson actor, @Nullable String source, String confidence, long seq) {
        static Signal of(ProfileSignal s) {
            return new Signal(ActorJson.of(s.getActor()), s.getSource(), Enums.json(s.getConfidence()), s.getSeq());
        }
    }

    static ProfileJson of(SpaceGovernance g, java.util.function.Predicate<String> sensitive) {
        return new ProfileJson(
                g.getSpace(),
                g.getFields().stream().map(f -> field(f, sensitive)).toList(),
                g.getPending().stream().map(ProfileJson::pending).toList());
    }

    static Field field(ProfileField f, java.util.function.Predicate<String> sensitive) {
        return new Field(
                f.getName(),
                f.getValue(),
                sensitive.test(f.getName()) ? "sensitive" : "benign",
                f.getSetSeq(),
                f.getSetAt().toString(),
                ActorJson.of(f.getSetBy()),
                Enums.json(f.getAppliedBy()),
                f.getConsentId());
    }

    private static Pending pending(PendingProfileValue p) {
        return new Pending(
                p.getField(),
                p.getValue(),
                p.getSignals().stream().map(Signal::of).toList());
    }
}
