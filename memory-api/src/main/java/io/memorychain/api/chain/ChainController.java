package io.memorychain.api.chain;

import io.memorychain.api.request.Spaces;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;

/** Verification of a space's signed hash chain, read from the events topic (not from the views). */
@Controller("/v1/spaces/{space}/chain")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "chain")
public class ChainController {

    private final ChainVerification verification;

    public ChainController(ChainVerification verification) {
        this.verification = verification;
    }

    @Get("/verify")
    @Operation(summary = "Walk the space's chain and report the first bad seq, if any",
            description = "200 in both cases: ok true, or ok false with first_bad_seq, problem and message.")
    public ChainVerificationResult verify(@PathVariable String space) {
        return verification.verify(Spaces.require(space));
    }
}
