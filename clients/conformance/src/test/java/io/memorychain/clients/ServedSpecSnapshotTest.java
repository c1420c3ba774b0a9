package io.memorychain.clients;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The clients' types are generated from the OpenAPI document the service serves: the copy they were generated from
 * (clients/openapi/memory-chain-v1.yml) is the one memory-api builds now. When the API changes, clients/generate.sh
 * copies the new document and regenerates the TypeScript types and the Python dataclasses.
 */
class ServedSpecSnapshotTest {

    @Test
    void theClientsAreGeneratedFromTheSpecTheServiceServes() throws IOException {
        String served;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("META-INF/swagger/memory-chain-v1.yml")) {
            assertThat(in)
                    .as("memory-api's generated OpenAPI document on the classpath")
                    .isNotNull();
            served = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Path copy = ClientSources.repoRoot().resolve("clients/openapi/memory-chain-v1.yml");
        assertThat(Files.readString(copy))
                .as(
                        "clients/openapi/memory-chain-v1.yml differs from the spec memory-api serves: run clients/generate.sh")
                .isEqualTo(served);
    }
}
