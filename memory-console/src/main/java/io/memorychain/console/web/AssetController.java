package io.memorychain.console.web;

import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/** The console's static files, inside the jar (nothing is fetched from elsewhere): a fixed list, no path lookup. */
@Controller("/console/assets")
public class AssetController {

    private static final Map<String, MediaType> ASSETS = Map.of("console.css", MediaType.of("text/css;charset=utf-8"));

    private final Map<String, byte[]> bytes;

    public AssetController() {
        this.bytes = ASSETS.keySet().stream()
                .collect(java.util.stream.Collectors.toUnmodifiableMap(n -> n, AssetController::read));
    }

    @Get("/{name}")
    public HttpResponse<byte[]> asset(@PathVariable String name) {
        MediaType type = ASSETS.get(name);
        if (type == null) {
            return HttpResponse.notFound();
        }
        return HttpResponse.ok(bytes.get(name)).contentType(type);
    }

    private static byte[] read(String name) {
        try (InputStream in = AssetController.class.getResourceAsStream("/console/assets/" + name)) {
            if (in == null) {
                throw new IllegalStateException("console asset missing from the jar: " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
