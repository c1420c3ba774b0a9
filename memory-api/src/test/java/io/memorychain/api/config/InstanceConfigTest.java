package io.memorychain.api.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.Test;

class InstanceConfigTest {

    @Test
    void anExternalClusterAdvertisesTheHostNameAndTheHttpPortByDefault() {
        InstanceConfig config = new InstanceConfig();

        assertThat(config.advertised(false, 8080, "api-0")).contains(URI.create("http://api-0:8080"));
        assertThat(config.routing(false, 8080, "api-0").applicationServer()).isEqualTo("api-0:8080");
        assertThat(config.standbyReplicas(false)).isEqualTo(1);
    }

    @Test
    void theEmbeddedSingleInstanceAndARandomPortDoNotRoute() {
        InstanceConfig config = new InstanceConfig();

        assertThat(config.advertised(true, 8080, "laptop")).isEmpty();
        assertThat(config.advertised(false, -1, "api-0")).isEmpty();
        assertThat(config.routing(true, 8080, "laptop").applicationServer()).isNull();
        assertThat(config.standbyReplicas(true)).isZero();
    }

    @Test
    void anExplicitUrlWinsAndGetsItsSchemesDefaultPort() {
        InstanceConfig config = new InstanceConfig();
        config.setAdvertisedUrl("https://api-1.memory-api.svc/");
        config.setStandbyReplicas(2);

        assertThat(config.advertised(false, 8080, "ignored")).contains(URI.create("https://api-1.memory-api.svc:443"));
        assertThat(config.routing(true, -1, "ignored").applicationServer()).isEqualTo("api-1.memory-api.svc:443");
        assertThat(config.standbyReplicas(true)).isEqualTo(2);
    }

    @Test
    void aUrlWithAPathOrAnotherSchemeAndNegativeStandbysAreRefusedNamingTheProperty() {
        InstanceConfig config = new InstanceConfig();
        config.setAdvertisedUrl("http://api-0:8080/v1");
        assertThatThrownBy(() -> config.advertised(false, 8080, "h")).hasMessageContaining("memory.instance.advertised-url");
        config.setAdvertisedUrl("grpc://api-0:9090");
        assertThatThrownBy(() -> config.advertised(false, 8080, "h")).hasMessageContaining("memory.instance.advertised-url");
        config.setStandbyReplicas(-1);
        assertThatThrownBy(() -> config.standbyReplicas(false)).hasMessageContaining("memory.instance.standby-replicas");
    }
}
