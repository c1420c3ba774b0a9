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
    private final ChainCheckpoints checkpoints;

    public ChainController(ChainVerification verification, ChainCheckpoints checkpoints) {
        this.verification = verification;
        this.checkpoints = checkpoints;
    }

    @Get("/verify")
    @Operation(summary = "Walk the space's chain and report the first bad seq, if any",
            description = "200 in both cases: ok true, or ok false with first_bad_seq, problem and message.")
    public ChainVerificationResult verify(@PathVariable String space) {
        return verification.verify(Spaces.require(space));
    }

    @Get("/checkpoint")
    @Operation(summary = "Verify the space's chain and return its head signed by the service's chain key",
            description = "Ed25519 over \"memorychain-checkpoint-v1\\n<space>\\n<seq>\\n<hash hex>\" "
                    + "(docs/chain-format.md); 409 CHAIN_BROKEN when the chain does not verify.")
    public CheckpointJson checkpoint(@PathVariable String space) {
        return checkpoints.checkpoint(Spaces.require(space));
    }
}
