package io.memorychain.api.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.api.topology.TopologyBackend;
import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.projector.lifecycle.LifecycleSettings;
import io.memorychain.projector.refinement.RefinementTriggerSettings;
import io.micronaut.context.ApplicationContext;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MemoryConfigTest {

    @Test
    void defaultsFromApplicationYml() {
        try (ApplicationContext ctx = ApplicationContext.run(TopologyBackend.ENV)) {
            MemoryConfig c = ctx.getBean(MemoryConfig.class);
            assertThat(c.getDataDir()).isEqualTo(Path.of("./data"));
            assertThat(c.getKafka().bootstrapServers()).isEmpty();
            assertThat(c.getKafka().getPartitions()).isNull();
            assertThat(c.getKafka().partitions()).as("embedded: one partition").isEqualTo(1);
            assertThat(c.getKafka().getReplicationFactor()).isNull();
            assertThat(c.getRegistry().url()).isEmpty();
            assertThat(c.getTopicPrefix()).isEmpty();
            assertThat(c.getMaxContentBytes()).isEqualTo(32768);
            assertThat(c.getWriteTimeout()).isEqualTo(Duration.ofSeconds(10));
            assertThat(c.getBlockLabels()).containsExactly("persona", "user_profile", "goals", "knowledge", "critical");
            assertThat(c.getEmbedded().getBrokerPort()).isEqualTo(19092);
            assertThat(c.getEmbedded().getControllerPort()).isEqualTo(19093);
        }
    }

    @Test
    void bindsOverrides() {
        try (ApplicationContext ctx = ApplicationContext.run(
                Map.of(
                        "memory.kafka.bootstrap-servers",
                        " k1:9092,k2:9092 ",
                        "memory.registry.url",
                        "http://registry:8081",
                        "memory.write-timeout",
                        "250ms",
                        "memory.block-labels",
                        "a,b",
                        "memory.critical-labels",
                        "a",
                        "memory.kafka.replication-factor",
                        3,
                        "memory.data-dir",
                        "/var/lib/memory"),
                TopologyBackend.ENV)) {
            MemoryConfig c = ctx.getBean(MemoryConfig.class);
            assertThat(c.getKafka().bootstrapServers()).contains("k1:9092,k2:9092");
            assertThat(c.getRegistry().url()).contains("http://registry:8081");
            assertThat(c.getWriteTimeout()).isEqualTo(Duration.ofMillis(250));
            assertThat(c.getBlockLabels()).containsExactly("a", "b");
            assertThat(c.getKafka().getReplicationFactor()).isEqualTo((short) 3);
            assertThat(c.getKafka().partitions())
                    .as("an external cluster: three partitions")
                    .isEqualTo(3);
            assertThat(c.getDataDir()).isEqualTo(Path.of("/var/lib/memory"));
        }
        try (ApplicationContext ctx =
                ApplicationContext.run(Map.of("memory.kafka.partitions", 6), TopologyBackend.ENV)) {
            assertThat(ctx.getBean(MemoryConfig.class).getKafka().partitions())
                    .as("as set, even embedded")
                    .isEqualTo(6);
        }
    }

    @Test
    void criticalLabelsMustBeBlockLabels() {
        try (ApplicationContext ctx = ApplicationContext.run(TopologyBackend.ENV)) {
            assertThat(ctx.getBean(MemoryConfig.class).governancePolicy().criticalLabels())
                    .containsExactlyInAnyOrder("persona", "critical");
        }
        assertThatThrownBy(() -> ApplicationContext.run(
                                Map.of("memory.critical-labels", "persona,constitution"), TopologyBackend.ENV)
                        .close())
                .as("startup fails naming the label")
                .hasMessageContaining("memory.critical-labels [constitution] are not block labels");
    }

    @Test
    void theRefinementTriggerRunsByDefaultWithTheSeedsBudgetAndWeeklySchedule() {
        try (ApplicationContext ctx = ApplicationContext.run(TopologyBackend.ENV)) {
            RefinementTriggerSettings trigger =
                    ctx.getBean(RefinementConfig.class).trigger().orElseThrow();
            assertThat(trigger.thresholdTokens()).isEqualTo(8_000);
            assertThat(trigger.targetTokens()).isEqualTo(5_000);
            assertThat(trigger.schedule()).isEqualTo(Duration.ofDays(7));
            assertThat(trigger.checkInterval()).isEqualTo(Duration.ofMinutes(1));
        }
        try (ApplicationContext ctx = ApplicationContext.run(
                Map.of(
                        "memory.refinement.trigger-schedule",
                        "off",
                        "memory.refinement.trigger-threshold-tokens",
                        300,
                        "memory.refinement.target-tokens",
                        200),
                TopologyBackend.ENV)) {
            RefinementTriggerSettings trigger =
                    ctx.getBean(RefinementConfig.class).trigger().orElseThrow();
            assertThat(trigger.schedule()).isNull();
            assertThat(trigger.thresholdTokens()).isEqualTo(300);
            assertThat(trigger.targetTokens()).isEqualTo(200);
        }
        try (ApplicationContext ctx =
                ApplicationContext.run(Map.of("memory.refinement.trigger-enabled", false), TopologyBackend.ENV)) {
            assertThat(ctx.getBean(RefinementConfig.class).trigger()).isEmpty();
        }
        try (ApplicationContext ctx =
                ApplicationContext.run(Map.of("memory.refinement.trigger-schedule", "weekly"), TopologyBackend.ENV)) {
            assertThatThrownBy(() -> ctx.getBean(RefinementConfig.class).trigger())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("memory.refinement.trigger-schedule")
                    .hasMessageContaining("'weekly'");
        }
    }

    @Test
    void theLifecycleWorkerRunsByDefaultOnlyWithTheEmbeddedBrokerWithTheSeedsThresholds() {
        CategoryPolicy none = CategoryPolicy.unrestricted();
        try (ApplicationContext ctx = ApplicationContext.run(TopologyBackend.ENV)) {
            LifecycleConfig config = ctx.getBean(LifecycleConfig.class);
            LifecycleSettings embedded = config.settings(true, 0.03, none).orElseThrow();
            assertThat(embedded.thresholds()).isEqualTo(LifecycleSettings.Thresholds.SEED);
            assertThat(embedded.checkInterval()).isEqualTo(Duration.ofMinutes(10));
            assertThat(config.settings(false, 0.03, none))
                    .as("external cluster: run memory-worker lifecycle")
                    .isEmpty();
        }
        try (ApplicationContext ctx = ApplicationContext.run(
                Map.of(
                        "memory.lifecycle.enabled",
                        true,
                        "memory.lifecycle.check-interval",
                        "PT1M",
                        "memory.lifecycle.fading-below",
                        0.6),
                TopologyBackend.ENV)) {
            LifecycleSettings external = ctx.getBean(LifecycleConfig.class)
                    .settings(false, 0.05, none)
                    .orElseThrow();
            assertThat(external.checkInterval()).isEqualTo(Duration.ofMinutes(1));
            assertThat(external.thresholds().fading()).isEqualTo(0.6);
            assertThat(external.lambda()).isEqualTo(0.05);
        }
        try (ApplicationContext ctx =
                ApplicationContext.run(Map.of("memory.lifecycle.enabled", false), TopologyBackend.ENV)) {
            assertThat(ctx.getBean(LifecycleConfig.class).settings(true, 0.03, none))
                    .isEmpty();
        }
        try (ApplicationContext ctx =
                ApplicationContext.run(Map.of("memory.lifecycle.dormant-below", 0.9), TopologyBackend.ENV)) {
            assertThatThrownBy(() -> ctx.getBean(LifecycleConfig.class).settings(true, 0.03, none))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("memory.lifecycle.");
        }
    }

    @Test
    void rejectsInvalidSettingsAtStartup() {
        assertThatThrownBy(() -> {
                    try (ApplicationContext ctx =
                            ApplicationContext.run(Map.of("memory.kafka.partitions", 0), TopologyBackend.ENV)) {
                        ctx.getBean(MemoryConfig.class).getKafka();
                    }
                })
                .hasStackTraceContaining("partitions");
        assertThatThrownBy(() -> {
                    try (ApplicationContext ctx =
                            ApplicationContext.run(Map.of("memory.topic-prefix", "bad prefix!"), TopologyBackend.ENV)) {
                        ctx.getBean(MemoryConfig.class);
                    }
                })
                .hasStackTraceContaining("topicPrefix");
    }
}
