package io.memorychain.api.blocks;

import io.memorychain.api.backend.ChainReads;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.request.InputRules;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.request.Texts;
import io.memorychain.api.write.WriteContext;
import io.memorychain.api.write.WriteExecutor;
import io.memorychain.api.write.WriteResult;
import io.memorychain.avro.Memory;
import io.memorychain.avro.UpdateBlock;
import jakarta.inject.Singleton;
import java.util.Optional;
import java.util.regex.Pattern;

/** Labelled core blocks, transport-neutral (REST {@link BlockController} and gRPC): one active version per label. */
@Singleton
public class Blocks {

    private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    private final ChainReads backend;
    private final WriteExecutor writes;
    private final InputRules rules;

    public Blocks(ChainReads backend, WriteExecutor writes, InputRules rules) {
        this.backend = backend;
        this.writes = writes;
        this.rules = rules;
    }

    /** A new version of the block (the previous one becomes superseded), read back by label. */
    public WriteResult put(WriteContext ctx, String label, BlockBody body) {
        UpdateBlock op = request(label, body);
        return writes.execute(
                ctx,
                op,
                (views, outcome) -> outcome.getMemoryId() != null
                        ? views.memory(ctx.space(), outcome.getMemoryId())
                        : views.block(ctx.space(), label));
    }

    /** The active version; 404 NOT_FOUND for an unknown label or one nothing was written to yet. */
    public Memory get(String space, String label) {
        Spaces.require(space);
        Optional<Memory> block =
                LABEL.matcher(label).matches() ? backend.views().block(space, label) : Optional.empty();
        return block.orElseThrow(() ->
                new ApiException(ErrorCodes.NOT_FOUND, "No block '" + Texts.abbreviate(label) + "' in space " + space));
    }

    UpdateBlock request(String label, BlockBody body) {
        if (!LABEL.matcher(label).matches()) {
            throw new ApiException(
                    ErrorCodes.UNKNOWN_BLOCK_LABEL, "Invalid block label '" + Texts.abbreviate(label) + "'");
        }
        if (body == null) {
            throw ApiException.invalid("A JSON body with 'content' is required");
        }
        return UpdateBlock.newBuilder()
                .setLabel(label)
                .setContent(rules.content("content", body.content()))
                .setCore(body.core() == null || body.core())
                .build();
    }
}
