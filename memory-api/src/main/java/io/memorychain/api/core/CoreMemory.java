package io.memorychain.api.core;

import io.memorychain.api.backend.ChainReads;
import io.memorychain.api.categories.CategoryReads;
import io.memorychain.api.request.Spaces;
import io.memorychain.avro.Actor;
import io.memorychain.domain.core.CoreView;
import jakarta.inject.Singleton;

/** The core memory of a space as a reader may see it (REST {@link CoreController} and gRPC). */
@Singleton
public class CoreMemory {

    private final ChainReads backend;
    private final CategoryReads categories;

    public CoreMemory(ChainReads backend, CategoryReads categories) {
        this.backend = backend;
        this.categories = categories;
    }

    /** Active blocks and core-tier memories; for an agent with an allowlist, without other categories' memories. */
    public CoreView read(String space, Actor reader) {
        Spaces.require(space);
        return categories.visible(reader, backend.views().core(space));
    }
}
