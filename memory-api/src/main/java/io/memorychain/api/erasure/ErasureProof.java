package io.memorychain.api.erasure;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.memorychain.api.chain.ChainVerificationResult;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The proof that a memory was erased (docs/architecture.md §12): the signed {@code MemoryErased} event as it is on the
 * chain, the destroyed data key's record on the key topic (no key material), and the verification of the whole chain up
 * to its head at the time of the answer. Anyone holding the public keys can check the event's hash and signature
 * against an exported chain ({@code verifier/verify.mjs}).
 */
@Serdeable
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "ErasureProof")
public record ErasureProof(
        String space,

        @Schema(name = "memory_id") @JsonProperty("memory_id")
        String memoryId,

        @Schema(description = "The MemoryErased event on the chain")
        Event event,

        @JsonProperty("key_record") @Schema(description = "The destroyed data key on the key topic")
        KeyRecord keyRecord,

        @Schema(description = "The chain verified from seq 1 to its head")
        Chain chain,

        @JsonProperty("subject_keys")
        @Schema(
                name = "subject_keys",
                description = "The key record of each subject the erasure cascaded to "
                        + "(event.destroyed_subjects), as on the key topic")
        java.util.List<SubjectKey> subjectKeys) {
    /** Declared, so that it carries no {@code @JsonProperty} of its own (SpecContractTest: spurious properties). */
    @Override
    public KeyRecord keyRecord() {
        return keyRecord;
    }

    /** The {@code MemoryErased} event: its chain coordinates, hash and Ed25519 signature (hex). */
    @Serdeable
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Event(
            long seq,
            String hash,
            String signature,
            @JsonProperty("key_id") String keyId,
            @JsonProperty("occurred_at") String occurredAt,
            String actor,
            @JsonProperty("request_id") String requestId,
            String reason,
            @Nullable @JsonProperty("data_key_id") String dataKeyId,
            @Nullable @JsonProperty("key_created_seq") Long keyCreatedSeq,
            @JsonProperty("was_purged") boolean wasPurged,
            @JsonProperty("destroyed_subjects") java.util.List<String> destroyedSubjects) {}

    /**
     * A subject's key record after the erasure's cascade (docs/architecture.md §12): a proposal ({@code p...}), a
     * reflection ({@code r...}) or a refinement session ({@code session/<id>}) whose texts carried the memory's
     * content.
     */
    @Serdeable
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record SubjectKey(
            String subject,
            boolean found,
            boolean destroyed,
            @Nullable @JsonProperty("data_key_id") String dataKeyId,
            @Nullable @JsonProperty("destroyed_seq") Long destroyedSeq) {}

    /**
     * The data key's record as this instance reads it from the key topic.
     *
     * @param found a record exists (false: the memory was written without encryption)
     * @param destroyed the record holds no key material
     */
    @Serdeable
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record KeyRecord(
            String topic,
            boolean found,
            boolean destroyed,
            @Nullable @JsonProperty("data_key_id") String dataKeyId,
            @Nullable @JsonProperty("created_seq") Long createdSeq,
            @Nullable @JsonProperty("destroyed_seq") Long destroyedSeq) {}

    /** The chain's verification and its head. */
    @Serdeable
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Chain(
            ChainVerificationResult verification,
            @JsonProperty("head_seq") long headSeq,
            @Nullable @JsonProperty("head_hash") String headHash) {}
}
