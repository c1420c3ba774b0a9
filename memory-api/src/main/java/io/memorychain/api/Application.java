package io.memorychain.api;

import io.memorychain.events.AvroTrust;
import io.micronaut.runtime.Micronaut;
import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.enums.SecuritySchemeType;
import io.swagger.v3.oas.annotations.info.Info;
import io.swagger.v3.oas.annotations.info.License;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.security.SecurityScheme;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * Memory Chain API. With no {@code memory.kafka.bootstrap-servers} it starts its own single-node Kafka broker, so
 * {@code java -jar memory-api.jar} is a complete system with data under {@code ./data}.
 */
@OpenAPIDefinition(
        info =
                @Info(
                        title = "Memory Chain",
                        version = "v1",
                        description = """
                        Long-term memory for LLM agents, event-sourced on a signed, hash-chained Kafka log.

                        Every write publishes a request to the sequencer and answers once the change is on the chain \
                        and visible in this instance's views (read-your-writes). Errors are {"code", "message"} \
                        (+ "request_id" for writes) with a stable code: INVALID_ARGUMENT, UNKNOWN_BLOCK_LABEL (400), \
                        UNAUTHENTICATED (401), FORBIDDEN, SPACE_NOT_ALLOWED, ROLE_NOT_ALLOWED, CONSTITUTIONAL, \
                        NOT_IN_REFINEMENT, CATEGORY_NOT_ALLOWED (403), NOT_FOUND (404), VERSION_CONFLICT, \
                        INVALID_STATE, BUDGET_EXCEEDED (409), TOO_LARGE (413), TIMEOUT (503).

                        Headers: `Authorization: Bearer <API key>` on every call. The key's principal decides the \
                        spaces it may use, its role (agent: its spaces; subagent: read and propose; worker; admin: \
                        governance, no content) and the actor recorded on the events (agent:ID, subagent:NAME, ...). \
                        The first start writes an admin key and an agent key to data/keys/api-keys.env. \
                        `Idempotency-Key` becomes the request id: retrying a write with the same key returns the \
                        original outcome and never applies it twice. `If-Match` (or expected_version) gives \
                        optimistic concurrency; GET answers carry the version in ETag.

                        Space names: 1 to 128 characters from A-Z a-z 0-9 . _ - (write tenant/agent as tenant.agent).

                        Not in this document: the Markdown file routes under /v1/spaces/{space}/files/{+path} (GET, PUT, \
                        POST :patch and :append; a file path with slashes, which OpenAPI cannot express): see the README.""",
                        license = @License(name = "Apache-2.0")),
        security = @SecurityRequirement(name = "bearer"),
        tags = {
            @Tag(
                    name = "memories",
                    description = "Create, read, change, delete, restore, protect, pin and consolidate memories"),
            @Tag(name = "blocks", description = "Labelled core blocks and the core view"),
            @Tag(name = "chain", description = "Audit log and chain verification")
        })
@SecurityScheme(
        name = "bearer",
        type = SecuritySchemeType.HTTP,
        scheme = "bearer",
        description = "An API key (mc_...) issued at first start or by an admin (POST /v1/keys)")
public final class Application {

    private Application() {}

    public static void main(String[] args) {
        AvroTrust.setSystemProperty(); // before anything touches Avro
        Micronaut.build(args).mainClass(Application.class).banner(false).start();
    }
}
