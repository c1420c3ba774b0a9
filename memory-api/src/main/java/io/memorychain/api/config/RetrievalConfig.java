package io.memorychain.api.config;

import io.memorychain.projector.linker.LinkerSettings;
import io.memorychain.projector.retrieval.DecayModel;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/** {@code memory.retrieval.*}: decay, the in-process linker and the optional reranker. */
@ConfigurationProperties("memory.retrieval")
public class RetrievalConfig {

    private final Reranker reranker;

    public RetrievalConfig(Reranker reranker) {
        this.reranker = reranker;
    }

    public Reranker getReranker() {
        return reranker;
    }

    /**
     * Decay rate of docs/architecture.md §7 (per day since the last access): 0.03 is a half-life of about 23 days; an
     * unread memory then turns dormant after about two months and archived (hidden from search) after about three. 0
     * disables decay.
     */
    @DecimalMin("0")
    @DecimalMax("1")
    private double decayLambda = DecayModel.DEFAULT_LAMBDA;

    /** Run the linker (docs/architecture.md §6) in this process; off when a memory-worker runs it. */
    private boolean linkerEnabled = true;

    /** Neighbours the linker links each new semantic memory to. */
    @Min(1)
    @Max(100)
    private int linkTopK = LinkerSettings.DEFAULT_TOP_K;

    /**
     * Lowest cosine similarity that makes a linker edge; unset: the value calibrated for the embedding model (0.86 for
     * e5-small, 0.79 for bge-small, 0.6 for minilm; memory-worker/README.md has the measurements).
     */
    @Nullable
    @DecimalMin("0.01")
    @DecimalMax("1")
    private Double linkMin;

    /** The most recent linkable memories of its space a new memory is compared with by the linker. */
    @Min(1)
    private int linkMaxScan = LinkerSettings.DEFAULT_MAX_SCAN;

    public double getDecayLambda() {
        return decayLambda;
    }

    public void setDecayLambda(double decayLambda) {
        this.decayLambda = decayLambda;
    }

    public boolean isLinkerEnabled() {
        return linkerEnabled;
    }

    public void setLinkerEnabled(boolean linkerEnabled) {
        this.linkerEnabled = linkerEnabled;
    }

    public int getLinkTopK() {
        return linkTopK;
    }

    public void setLinkTopK(int linkTopK) {
        this.linkTopK = linkTopK;
    }

    public Double getLinkMin() {
        return linkMin;
    }

    public void setLinkMin(@Nullable Double linkMin) {
        this.linkMin = linkMin;
    }

    public int getLinkMaxScan() {
        return linkMaxScan;
    }

    public void setLinkMaxScan(int linkMaxScan) {
        this.linkMaxScan = linkMaxScan;
    }

    /** The linker's settings for the embedder's model, or null when the linker is off. */
    public LinkerSettings linker(String modelId) {
        if (!linkerEnabled) {
            return null;
        }
        LinkerSettings calibrated = LinkerSettings.defaults(modelId);
        return new LinkerSettings(linkTopK, linkMin != null ? linkMin : calibrated.linkMin(), modelId, linkMaxScan);
    }

    /**
     * {@code memory.retrieval.reranker.*}: a cross-encoder served with the text-embeddings-inference {@code /rerank}
     * API that reorders the best {@code top-n} candidates of memory.query after fusion (docs/architecture.md §7).
     * Absent url: no reranker. A timeout or error keeps the fused order (logged at most once a minute).
     */
    @ConfigurationProperties("reranker")
    public static class Reranker {

        /** The server, e.g. {@code http://127.0.0.1:8081} ({@code /rerank} is appended); absent: no reranker. */
        @Nullable
        private URI url;

        /** Longest wait for the reranker's reply; the query keeps the fused order after it. */
        @NotNull
        private Duration timeout = Duration.ofMillis(500);

        /** Candidates sent to the reranker (text-embeddings-inference accepts 32 per request by default). */
        @Min(2)
        @Max(100)
        private int topN = 20;

        public Optional<URI> url() {
            return Optional.ofNullable(url);
        }

        public URI getUrl() {
            return url;
        }

        public void setUrl(@Nullable URI url) {
            this.url = url;
        }

        public Duration getTimeout() {
            return timeout;
        }

        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }

        public int getTopN() {
            return topN;
        }

        public void setTopN(int topN) {
            this.topN = topN;
        }
    }
}
