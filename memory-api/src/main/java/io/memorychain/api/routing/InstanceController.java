package io.memorychain.api.routing;

import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.swagger.v3.oas.annotations.Hidden;
import java.util.Map;

/**
 * {@code GET /instance}: this instance's id and advertised addresses ({@link InstanceAddresses}), for the other
 * instances, which forward gRPC calls to a space's owner at the gRPC address it names (docs/architecture.md §19).
 * Outside {@code /v1}, like {@code /health}: no key, no memory content.
 */
@Controller("/instance")
@Hidden
class InstanceController {

    private final InstanceAddresses addresses;

    public InstanceController(InstanceAddresses addresses) {
        this.addresses = addresses;
    }

    @Get(produces = MediaType.APPLICATION_JSON)
    public Map<String, Object> describe() {
        return addresses.describe();
    }
}
