package io.memorychain.api.core;

import io.micronaut.http.annotation.RequestAttribute;
import io.memorychain.api.auth.Principal;
import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.categories.CategoryReads;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.api.request.Spaces;
import io.memorychain.avro.Actor;
import io.memorychain.projector.view.CoreView;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.PathVariable;
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

    private final MemoryBackend backend;
    private final CategoryReads categories;

    public CoreController(MemoryBackend backend, CategoryReads categories) {
        this.backend = backend;
        this.categories = categories;
    }

    @Get
    @Operation(summary = "Core memory as injected into an agent's context",
            description = "For an agent with a category allowlist, core-tier memories of other categories are left out.")
    public CoreJson core(@PathVariable String space,
                         @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor reader) {
        Spaces.require(space);
        CoreView core = categories.visible(reader, backend.views().core(space));
        return new CoreJson(core.text(), core.tokens(), core.memories().stream().map(MemoryJson::of).toList());
    }
}
