package io.memorychain.api.core;

import io.memorychain.api.auth.Principal;
import io.memorychain.avro.Actor;
import io.memorychain.domain.core.CoreView;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.RequestAttribute;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;

/** The core memory of a space: active blocks and core-tier memories, formatted, with their token count. */
@Controller("/v1/spaces/{space}/core")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "blocks")
public class CoreController {

    private final CoreMemory coreMemory;

    public CoreController(CoreMemory coreMemory) {
        this.coreMemory = coreMemory;
    }

    @Get
    @Operation(summary = "Core memory as injected into an agent's context",
            description = "For an agent with a category allowlist, core-tier memories of other categories are left out.")
    public CoreJson core(@PathVariable String space,
                         @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor reader) {
        CoreView core = coreMemory.read(space, reader);
        return CoreJson.of(core);
    }
}
