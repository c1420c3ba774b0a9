package io.memorychain.api.categories;

import io.memorychain.api.config.MemoryConfig;
import io.memorychain.domain.category.CategoryAccess;
import io.memorychain.domain.category.CategoryPolicy;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The categories and allowlists of this service, from {@code memory.categories-file} or the bundled
 * {@code categories.yaml}. Loaded with the application context (fail fast: an invalid file stops startup with a message
 * naming the file and the entry). The sequencer ({@code MemoryChainBackend}) and the REST reads use this one policy.
 */
@Factory
class CategoryBeans {

    private static final Logger log = LoggerFactory.getLogger(CategoryBeans.class);

    @Context
    CategoryPolicy categoryPolicy(MemoryConfig config) {
        String source = config.getCategoriesFile()
                .map(Object::toString)
                .orElse("classpath:" + CategoryPolicyYaml.DEFAULT_RESOURCE);
        CategoryPolicy policy =
                config.getCategoriesFile().map(CategoryPolicyYaml::load).orElseGet(CategoryPolicyYaml::loadDefault);
        log.info(
                "Categories from {}: {} categories; agents with an allowlist: {}",
                source,
                policy.categories().size(),
                new TreeSet<>(policy.allowlists().keySet()));
        return policy;
    }

    @Singleton
    CategoryAccess categoryAccess(CategoryPolicy policy) {
        return new CategoryAccess(policy);
    }
}
