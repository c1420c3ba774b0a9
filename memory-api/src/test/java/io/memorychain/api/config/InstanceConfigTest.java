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
    void theGrpcAddressIsTheAdvertisedRestHostWithTheGrpcPortUnlessSetAndNoneWithoutRouting() {
        InstanceConfig config = new InstanceConfig();
        java.util.Optional<URI> rest = java.util.Optional.of(URI.create("http://api-0.memory-api:8080"));

        assertThat(config.grpcAddress(rest, 9090)).contains("api-0.memory-api:9090");
        assertThat(config.grpcAddress(rest, -1)).isEmpty();
        assertThat(config.grpcAddress(java.util.Optional.empty(), 9090)).isEmpty();
        config.setAdvertisedGrpcAddress("grpc-0.example:443");
        assertThat(config.grpcAddress(rest, 9090)).contains("grpc-0.example:443");
        config.setAdvertisedGrpcAddress("http://grpc-0:443");
        assertThatThrownBy(() -> config.grpcAddress(rest, 9090))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("memory.instance.advertised-grpc-address");
    }

    @Test
    void withTlsTheDefaultUrlIsHttpsAndAnHttpUrlIsRefused() {
        InstanceConfig config = new InstanceConfig();
        assertThat(config.advertised(false, 8443, "api-0", true)).contains(URI.create("https://api-0:8443"));

        config.setAdvertisedUrl("http://api-0:8080");
        assertThatThrownBy(() -> config.advertised(false, 8080, "api-0", true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("memory.instance.advertised-url must be https://");
        config.setAdvertisedUrl("https://api-0:8080");
        assertThat(config.routing(false, 8080, "api-0", true).applicationServer())
                .isEqualTo("api-0:8080");
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
        assertThatThrownBy(() -> config.advertised(false, 8080, "h"))
                .hasMessageContaining("memory.instance.advertised-url");
        config.setAdvertisedUrl("grpc://api-0:9090");
        assertThatThrownBy(() -> config.advertised(false, 8080, "h"))
                .hasMessageContaining("memory.instance.advertised-url");
        config.setStandbyReplicas(-1);
        assertThatThrownBy(() -> config.standbyReplicas(false))
                .hasMessageContaining("memory.instance.standby-replicas");
    }
}
