package io.memorychain.api.checkpoints;

import io.micronaut.context.annotation.ConfigurationProperties;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

/** {@code memory.checkpoints.*}: agents' checkpoints (memory-api/README.md "Agent checkpoints"). */
@ConfigurationProperties("memory.checkpoints")
class CheckpointConfig {

    /**
     * Largest state plus metadata of one checkpoint, in bytes of their JSON text; larger saves get 413 TOO_LARGE. At
     * most 768 KiB: a record, sealed (Base64) and framed, must stay under Kafka's default 1 MB message size.
     */
    @Min(1)
    @Max(786_432)
    private int maxStateBytes = 524_288;

    public int getMaxStateBytes() {
        return maxStateBytes;
    }

    public void setMaxStateBytes(int maxStateBytes) {
        this.maxStateBytes = maxStateBytes;
    }
}
