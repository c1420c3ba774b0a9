package io.memorychain.api.core;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.api.request.Spaces;
import io.memorychain.projector.view.CoreView;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;

/** The core memory of a space: active blocks and core-tier memories, formatted, with their token count. */
@Controller("/v1/spaces/{space}/core")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "blocks")
public class CoreController {

    private final MemoryBackend backend;

    public CoreController(MemoryBackend backend) {
        this.backend = backend;
    }

    @Get
    @Operation(summary = "Core memory as injected into an agent's context")
    public CoreJson core(@PathVariable String space) {
        CoreView core = backend.views().core(Spaces.require(space));
        return new CoreJson(core.text(), core.tokens(), core.memories().stream().map(MemoryJson::of).toList());
    }
}
