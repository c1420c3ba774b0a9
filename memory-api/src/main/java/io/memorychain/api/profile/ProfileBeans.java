package io.memorychain.api.profile;

import io.memorychain.api.config.MemoryConfig;
import io.memorychain.domain.governance.GovernancePolicy;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;

/** The consent policy and critical labels from {@code memory.consent-*} and {@code memory.critical-labels}. */
@Factory
class ProfileBeans {

    @Singleton
    GovernancePolicy governancePolicy(MemoryConfig config) {
        return config.governancePolicy();
    }
}
