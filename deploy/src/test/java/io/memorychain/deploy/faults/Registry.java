package io.memorychain.deploy.faults;

import io.memorychain.events.testing.ApicurioRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The schema registry the instances share (several instances need a real one: docs/architecture.md §19): Apicurio
 * Registry with its Confluent-compatible API, from the distribution the build unpacks into {@code target/apicurio}, in
 * the root namespace on the bridge's address (no fault of the run is aimed at it).
 */
final class Registry implements AutoCloseable {

    static final int PORT = 18085;

    private final Child process;
    private final String url;

    private Registry(Child process, String url) {
        this.process = process;
        this.url = url;
    }

    static Registry start(Host root, Path dir) {
        Path runner = ApicurioRegistry.runnerJar();
        Child child = new Child(
                "registry",
                root,
                List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx256m",
                        "-XX:TieredStopAtLevel=1",
                        "-XX:+UseSerialGC",
                        "-Dquarkus.http.host=" + root.address(),
                        "-Dquarkus.http.port=" + PORT,
                        "-jar",
                        runner.toString()),
                Map.of(),
                dir.resolve("registry.log"));
        child.start();
        return new Registry(child, "http://" + root.address() + ":" + PORT + ApicurioRegistry.API);
    }

    String url() {
        return url;
    }

    boolean ready(HttpClient http) {
        process.checkAlive();
        try {
            return http.send(
                                    HttpRequest.newBuilder(URI.create(url + "/subjects"))
                                            .timeout(Duration.ofSeconds(3))
                                            .build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode()
                    == 200;
        } catch (java.io.IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public void close() {
        process.stop();
    }
}
