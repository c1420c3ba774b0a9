package io.memorychain.api.memories;

import io.memorychain.api.config.MemoryConfig;
import io.memorychain.api.request.InputRules;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;

/** Wires the pure request builders with the configured limits. */
@Factory
class MemoryBeans {

    @Singleton
    InputRules inputRules(MemoryConfig config) {
        return new InputRules(config.getMaxContentBytes(), config.getMaxConsolidationInputs());
    }

    @Singleton
    MemoryRequests memoryRequests(InputRules rules) {
        return new MemoryRequests(rules);
    }
}
