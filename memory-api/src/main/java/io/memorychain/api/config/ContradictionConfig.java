package io.memorychain.api.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code memory.contradictions.*}: whether the service flags contradictions on its own when a memory or a proposal is
 * written (docs/architecture.md §10): the new text against the space's active memories (and a proposal against the open
 * proposals too) in the conflict band of {@code memory.proposals}. On by default; per-space overrides.
 */
@ConfigurationProperties("memory.contradictions")
public class ContradictionConfig {

    /** Flag CONFLICT-band pairs when memories and proposals are written (needs an embedding model). */
    private boolean detect = true;

    /** Per-space overrides, each {@code space=on|off}. */
    @NotNull
    private List<String> spaceDetect = List.of();

    /** The most contradictions one write flags (the most similar first). */
    @Min(1)
    @Max(20)
    private int maxFlagsPerWrite = 3;

    /** Writes waiting for detection; past it a write is not checked (logged), so detection never holds a write up. */
    @Min(1)
    @Max(100_000)
    private int queueSize = 1_000;

    /** Whether writes to {@code space} are checked. */
    public boolean detects(String space) {
        Boolean override = overrides().get(space);
        return override != null ? override : detect;
    }

    /** The per-space overrides; IllegalArgumentException naming the property for a malformed entry. */
    public Map<String, Boolean> overrides() {
        Map<String, Boolean> out = new LinkedHashMap<>();
        for (String entry : spaceDetect) {
            int eq = entry.indexOf('=');
            String value = eq < 0 ? "" : entry.substring(eq + 1).strip().toLowerCase(Locale.ROOT);
            if (eq <= 0 || !(value.equals("on") || value.equals("off"))) {
                throw new IllegalArgumentException(
                        "memory.contradictions.space-detect: each entry is space=on|off, not '" + entry + "'");
            }
            out.put(entry.substring(0, eq).strip(), value.equals("on"));
        }
        return out;
    }

    public boolean isDetect() {
        return detect;
    }

    public void setDetect(boolean detect) {
        this.detect = detect;
    }

    public List<String> getSpaceDetect() {
        return spaceDetect;
    }

    public void setSpaceDetect(List<String> spaceDetect) {
        this.spaceDetect = spaceDetect;
    }

    public int getMaxFlagsPerWrite() {
        return maxFlagsPerWrite;
    }

    public void setMaxFlagsPerWrite(int maxFlagsPerWrite) {
        this.maxFlagsPerWrite = maxFlagsPerWrite;
    }

    public int getQueueSize() {
        return queueSize;
    }

    public void setQueueSize(int queueSize) {
        this.queueSize = queueSize;
    }
}
