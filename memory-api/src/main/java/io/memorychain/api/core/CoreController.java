package io.memorychain.api.core;

import io.memorychain.api.auth.Principal;
import io.memorychain.api.error.ErrorAnswers;
import io.memorychain.api.history.AsOf;
import io.memorychain.api.history.AsOfReads;
import io.memorychain.avro.Actor;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.QueryValue;
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
class CoreController {

    private final AsOfReads asOfReads;

    public CoreController(AsOfReads asOfReads) {
        this.asOfReads = asOfReads;
    }

    @ErrorAnswers.Read
    @Get
    @Operation(
            operationId = "getCore",
            summary = "Core memory as injected into an agent's context",
            description =
                    "For an agent with a category allowlist, core-tier memories of other categories are left out.")
    public CoreJson core(
            @PathVariable String space,
            @Parameter(hidden = true) @RequestAttribute(Principal.ACTOR) Actor reader,
            @Nullable @QueryValue("as_of_seq") @Parameter(description = AsOf.SEQ_DOC) String asOfSeq,
            @Nullable @QueryValue("as_of") @Parameter(description = AsOf.TIME_DOC) String asOf) {
        return asOfReads.core(space, reader, asOfReads.point(space, asOfSeq, asOf));
    }
}
