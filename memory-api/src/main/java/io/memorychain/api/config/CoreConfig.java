package io.memorychain.api.config;

import io.memorychain.domain.core.CoreCapPolicy;
import io.micronaut.context.annotation.ConfigurationProperties;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code memory.core.*}: the hard cap on a space's core memory (docs/architecture.md §5, seed 001 §4), enforced by the
 * sequencer: a change that would take the core over its cap is refused with {@code BUDGET_EXCEEDED} (409), or, where
 * configured {@code refine}, accepted with a refinement session opened in the same transaction.
 */
@ConfigurationProperties("memory.core")
public class CoreConfig {

    /** Core-memory cap in tokens (cl100k_base, the formatted core text) of spaces without an override; 0: none. */
    @Min(0)
    private int capTokens = CoreCapPolicy.DEFAULT_CAP_TOKENS;

    /** reject (default) or refine: what a change over the cap does in spaces without an override. */
    @NotNull
    private String overCap = "reject";

    /** Per-space overrides, each {@code space=tokens} or {@code space=tokens:reject|refine} (0 tokens: no cap). */
    @NotNull
    private List<String> spaceCaps = List.of();

    /** The policy; IllegalArgumentException naming the property when a value is invalid (startup fails). */
    public CoreCapPolicy policy() {
        CoreCapPolicy.OverCap mode;
        try {
            mode = CoreCapPolicy.OverCap.parse(overCap);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("memory.core.over-cap: " + e.getMessage());
        }
        Map<String, CoreCapPolicy.Cap> spaces = new LinkedHashMap<>();
        for (String entry : spaceCaps) {
            try {
                Map.Entry<String, CoreCapPolicy.Cap> e = CoreCapPolicy.parseOverride(entry, mode);
                spaces.put(e.getKey(), e.getValue());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("memory.core.space-caps: " + e.getMessage());
            }
        }
        return new CoreCapPolicy(new CoreCapPolicy.Cap(capTokens, mode), spaces);
    }

    public int getCapTokens() {
        return capTokens;
    }

    public void setCapTokens(int capTokens) {
        this.capTokens = capTokens;
    }

    public String getOverCap() {
        return overCap;
    }

    public void setOverCap(String overCap) {
        this.overCap = overCap;
    }

    public List<String> getSpaceCaps() {
        return spaceCaps;
    }

    public void setSpaceCaps(List<String> spaceCaps) {
        this.spaceCaps = List.copyOf(spaceCaps);
    }
}
