package io.memorychain.api.markdown;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.config.MemoryConfig;
import io.memorychain.api.request.InputRules;
import io.memorychain.api.write.WriteExecutor;
import io.memorychain.domain.category.CategoryAccess;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * Wires the Markdown view's plain classes with the configured limits, block labels and category policy; the month of
 * new episodes comes from the backend's clock (the one the sequencer stamps events with).
 */
@Factory
class MarkdownBeans {

    @Singleton
    MarkdownFiles markdownFiles(
            MemoryBackend backend, WriteExecutor writes, CategoryAccess access, InputRules rules, MemoryConfig config) {
        return new MarkdownFiles(
                backend,
                writes,
                access,
                new MarkdownRenderer(List.copyOf(config.getBlockLabels())),
                new MarkdownEdits(rules, config.getBlockLabels(), backend.clock()));
    }
}
