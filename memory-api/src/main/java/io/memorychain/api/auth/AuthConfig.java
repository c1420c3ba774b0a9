package io.memorychain.api.auth;

import io.micronaut.context.annotation.ConfigurationProperties;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.Pattern;
import java.util.List;

/**
 * {@code memory.auth.*}: the keys created at first start. When the key store is empty, the service issues an admin key
 * and an agent key for {@code bootstrap-agent-id} on {@code bootstrap-spaces}, prints both and writes them to
 * {@code <data-dir>/keys/api-keys.env} (owner read/write only).
 */
@ConfigurationProperties("memory.auth")
class AuthConfig {

    /** Issue the first keys when there are none. */
    private boolean bootstrap = true;

    /** The agent of the first agent key (its events carry {@code agent:<id>}). */
    @Pattern(regexp = "[A-Za-z0-9._@-]{1,128}")
    private String bootstrapAgentId = "assistant";

    /** The spaces of the first agent key: names, {@code prefix*} or {@code *}. */
    @NotEmpty
    private List<String> bootstrapSpaces = List.of("assistant");

    public boolean isBootstrap() {
        return bootstrap;
    }

    public void setBootstrap(boolean bootstrap) {
        this.bootstrap = bootstrap;
    }

    public String getBootstrapAgentId() {
        return bootstrapAgentId;
    }

    public void setBootstrapAgentId(String bootstrapAgentId) {
        this.bootstrapAgentId = bootstrapAgentId;
    }

    public List<String> getBootstrapSpaces() {
        return bootstrapSpaces;
    }

    public void setBootstrapSpaces(List<String> bootstrapSpaces) {
        this.bootstrapSpaces = List.copyOf(bootstrapSpaces);
    }
}
