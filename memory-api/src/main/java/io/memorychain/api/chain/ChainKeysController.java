package io.memorychain.api.chain;

import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;

/** The chain's public keys, served without an API key: they are public (docs/chain-format.md §5). */
@Controller("/v1/chain")
@Tag(name = "chain")
class ChainKeysController {

    private final ChainCheckpoints checkpoints;

    public ChainKeysController(ChainCheckpoints checkpoints) {
        this.checkpoints = checkpoints;
    }

    @Get("/keys")
    @Operation(
            operationId = "chainKeys",
            summary = "The Ed25519 public keys that verify the chain's signatures (no API key needed)")
    public PublicKeysJson keys() {
        return checkpoints.publicKeys();
    }
}
