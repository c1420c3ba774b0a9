package io.memorychain.domain.decide;

import io.memorychain.domain.Rules;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.domain.core.CoreCapPolicy;
import io.memorychain.domain.governance.GovernancePolicy;
import io.memorychain.domain.review.ReviewPolicy;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * The configurable limits and vocabulary the deciders enforce (defaults in {@link Rules}).
 *
 * @param maxContentBytes largest content (UTF-8 bytes) of a memory or block; larger is TOO_LARGE
 * @param blockLabels the block labels that exist; others are UNKNOWN_BLOCK_LABEL
 * @param maxConsolidationInputs most memories one consolidation may supersede
 * @param requestIdRetention how long a request id is remembered for idempotent retries (by request timestamps); a retry
 *     after that is a new request. Default 7 days, the requests topic's retention
 * @param categories categories and per-agent allowlists; an agent or sub-agent writing outside its allowlist is
 *     CATEGORY_NOT_ALLOWED. Default {@link CategoryPolicy#unrestricted()}
 * @param governance profile consent policy and critical block labels (docs/architecture.md §21). Default
 *     {@link GovernancePolicy#defaults()}
 * @param coreCap the core-memory cap per space and what a change over it does. Default {@link CoreCapPolicy#defaults()}
 *     (3,000 tokens, refused)
 * @param reviews how sub-agent proposals are reviewed per space and per proposer. Default
 *     {@link ReviewPolicy#defaults()} (batch review, nobody trusted)
 */
public record WriteSettings(
        int maxContentBytes,
        Set<String> blockLabels,
        int maxConsolidationInputs,
        Duration requestIdRetention,
        CategoryPolicy categories,
        GovernancePolicy governance,
        CoreCapPolicy coreCap,
        ReviewPolicy reviews) {

    public WriteSettings {
        if (maxContentBytes < 1) {
            throw new IllegalArgumentException("maxContentBytes must be positive");
        }
        if (blockLabels == null || blockLabels.isEmpty()) {
            throw new IllegalArgumentException("at least one block label is required");
        }
        if (maxConsolidationInputs < 1) {
            throw new IllegalArgumentException("maxConsolidationInputs must be positive");
        }
        if (requestIdRetention == null || requestIdRetention.toMinutes() < 1) {
            throw new IllegalArgumentException("requestIdRetention must be at least a minute");
        }
        Objects.requireNonNull(categories, "categories (CategoryPolicy.unrestricted() for none)");
        Objects.requireNonNull(governance, "governance (GovernancePolicy.defaults())");
        Objects.requireNonNull(coreCap, "coreCap (CoreCapPolicy.defaults())");
        Objects.requireNonNull(reviews, "reviews (ReviewPolicy.defaults())");
        blockLabels = Set.copyOf(blockLabels);
    }

    /** With the default review modes. */
    public WriteSettings(
            int maxContentBytes,
            Set<String> blockLabels,
            int maxConsolidationInputs,
            Duration requestIdRetention,
            CategoryPolicy categories,
            GovernancePolicy governance,
            CoreCapPolicy coreCap) {
        this(
                maxContentBytes,
                blockLabels,
                maxConsolidationInputs,
                requestIdRetention,
                categories,
                governance,
                coreCap,
                ReviewPolicy.defaults());
    }

    /** With the default core cap. */
    public WriteSettings(
            int maxContentBytes,
            Set<String> blockLabels,
            int maxConsolidationInputs,
            Duration requestIdRetention,
            CategoryPolicy categories,
            GovernancePolicy governance) {
        this(
                maxContentBytes,
                blockLabels,
                maxConsolidationInputs,
                requestIdRetention,
                categories,
                governance,
                CoreCapPolicy.defaults());
    }

    /** With the default governance policy. */
    public WriteSettings(
            int maxContentBytes,
            Set<String> blockLabels,
            int maxConsolidationInputs,
            Duration requestIdRetention,
            CategoryPolicy categories) {
        this(
                maxContentBytes,
                blockLabels,
                maxConsolidationInputs,
                requestIdRetention,
                categories,
                GovernancePolicy.defaults());
    }

    /** Without category allowlists. */
    public WriteSettings(
            int maxContentBytes, Set<String> blockLabels, int maxConsolidationInputs, Duration requestIdRetention) {
        this(maxContentBytes, blockLabels, maxConsolidationInputs, requestIdRetention, CategoryPolicy.unrestricted());
    }

    /** With the default request id retention. */
    public WriteSettings(int maxContentBytes, Set<String> blockLabels, int maxConsolidationInputs) {
        this(maxContentBytes, blockLabels, maxConsolidationInputs, Rules.DEFAULT_REQUEST_ID_RETENTION);
    }

    /** The same settings, enforcing these categories and allowlists. */
    public WriteSettings withCategories(CategoryPolicy policy) {
        return new WriteSettings(
                maxContentBytes,
                blockLabels,
                maxConsolidationInputs,
                requestIdRetention,
                policy,
                governance,
                coreCap,
                reviews);
    }

    /** The same settings, with this profile consent policy and these critical block labels. */
    public WriteSettings withGovernance(GovernancePolicy policy) {
        return new WriteSettings(
                maxContentBytes,
                blockLabels,
                maxConsolidationInputs,
                requestIdRetention,
                categories,
                policy,
                coreCap,
                reviews);
    }

    /** The same settings, with this core-memory cap. */
    public WriteSettings withCoreCap(CoreCapPolicy policy) {
        return new WriteSettings(
                maxContentBytes,
                blockLabels,
                maxConsolidationInputs,
                requestIdRetention,
                categories,
                governance,
                policy,
                reviews);
    }

    /** The same settings, with these review modes for sub-agent proposals. */
    public WriteSettings withReviews(ReviewPolicy policy) {
        return new WriteSettings(
                maxContentBytes,
                blockLabels,
                maxConsolidationInputs,
                requestIdRetention,
                categories,
                governance,
                coreCap,
                policy);
    }

    public static WriteSettings defaults() {
        return new WriteSettings(
                Rules.DEFAULT_MAX_CONTENT_BYTES, Rules.DEFAULT_BLOCK_LABELS, Rules.DEFAULT_MAX_CONSOLIDATION_INPUTS);
    }
}
