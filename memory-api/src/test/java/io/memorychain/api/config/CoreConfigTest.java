package io.memorychain.api.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.api.topology.TopologyBackend;
import io.memorychain.domain.core.CoreCapPolicy;
import io.memorychain.domain.core.CoreCapPolicy.Cap;
import io.memorychain.domain.core.CoreCapPolicy.OverCap;
import io.micronaut.context.ApplicationContext;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code memory.core.*}: the core-memory cap the sequencer enforces. */
class CoreConfigTest {

    @Test
    void capsCoreAt3000TokensAndRefusesByDefault() {
        try (ApplicationContext ctx = ApplicationContext.run(TopologyBackend.ENV)) {
            assertThat(ctx.getBean(CoreConfig.class).policy()).isEqualTo(CoreCapPolicy.defaults());
        }
    }

    @Test
    void takesADefaultModeAndPerSpaceOverrides() {
        try (ApplicationContext ctx = ApplicationContext.run(
                Map.of(
                        "memory.core.cap-tokens",
                        2500,
                        "memory.core.over-cap",
                        "refine",
                        "memory.core.space-caps",
                        List.of("team.notes=5000:reject", "scratch=0", "diary=1200")),
                TopologyBackend.ENV)) {
            CoreCapPolicy policy = ctx.getBean(CoreConfig.class).policy();
            assertThat(policy.forSpace("other")).isEqualTo(new Cap(2500, OverCap.REFINE));
            assertThat(policy.forSpace("team.notes")).isEqualTo(new Cap(5000, OverCap.REJECT));
            assertThat(policy.forSpace("scratch").capped()).isFalse();
            assertThat(policy.forSpace("diary")).isEqualTo(new Cap(1200, OverCap.REFINE));
        }
    }

    @Test
    void refusesAMalformedValueNamingTheProperty() {
        CoreConfig config = new CoreConfig();
        config.setOverCap("later");
        assertThatThrownBy(config::policy).hasMessageContaining("memory.core.over-cap");
        CoreConfig overrides = new CoreConfig();
        overrides.setSpaceCaps(List.of("notes"));
        assertThatThrownBy(overrides::policy)
                .hasMessageContaining("memory.core.space-caps")
                .hasMessageContaining("notes");
    }
}
