package io.memorychain.api.chain;

import io.memorychain.api.error.ErrorAnswers;
import io.memorychain.api.request.Spaces;
import io.micronaut.core.io.Writable;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/** Verification and export of a space's signed hash chain, read from the events topic (not from the views). */
@Controller("/v1/spaces/{space}/chain")
@ExecuteOn(TaskExecutors.BLOCKING)
@Tag(name = "chain")
class ChainController {

    private final ChainVerification verification;
    private final ChainCheckpoints checkpoints;
    private final ChainExports exports;

    public ChainController(ChainVerification verification, ChainCheckpoints checkpoints, ChainExports exports) {
        this.verification = verification;
        this.checkpoints = checkpoints;
        this.exports = exports;
    }

    @ErrorAnswers.Read
    @Get("/verify")
    @Operation(
            operationId = "verifyChain",
            summary = "Walk the space's chain and report the first bad seq, if any",
            description = "200 in both cases: ok true, or ok false with first_bad_seq, problem and message. "
                    + "Continues after the head this instance verified last (resumed_after_seq); full=true reads "
                    + "and verifies the whole chain from seq 1.")
    public ChainVerificationResult verify(
            @PathVariable String space, @QueryValue(defaultValue = "false") boolean full) {
        return verification.verify(Spaces.require(space), full);
    }

    @ErrorAnswers.Read
    @Get("/checkpoint")
    @Operation(
            operationId = "chainCheckpoint",
            summary = "Verify the space's chain and return its head signed by the service's chain key",
            description = "Ed25519 over \"memorychain-checkpoint-v1\\n<space>\\n<seq>\\n<hash hex>\" "
                    + "(docs/chain-format.md); 409 CHAIN_BROKEN when the chain does not verify.")
    public CheckpointJson checkpoint(@PathVariable String space) {
        return checkpoints.checkpoint(Spaces.require(space));
    }

    @ErrorAnswers.Read
    @Get(value = "/export", produces = "application/x-ndjson")
    @Operation(
            operationId = "exportChain",
            summary = "The space's chain as JSON Lines that anyone can verify without this service",
            description = "Line 1: the header (format memorychain-chain-export-v1, topic coordinates, the writer "
                    + "schemas, the public keys); then one line per event in log order with its seq, offset, "
                    + "schema_id, the record value exactly as on the topic (base64) and the decoded event for "
                    + "reading. docs/chain-format.md specifies the bytes; verifier/verify.mjs checks every hash and "
                    + "signature. Streamed; content, so refused to admins (metadata only).")
    public Writable export(@PathVariable String space) {
        String checked = Spaces.require(space);
        return new Writable() {
            @Override
            public void writeTo(OutputStream out, Charset charset) {
                exports.export(checked, out);
            }

            @Override
            public void writeTo(Writer out) throws IOException {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                exports.export(checked, bytes);
                out.write(bytes.toString(StandardCharsets.UTF_8));
            }
        };
    }
}
