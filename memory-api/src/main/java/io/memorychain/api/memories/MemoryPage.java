package io.memorychain.api.memories;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/** One page of a listing; pass {@code next} as {@code after} for the following page (null on the last one). */
@Serdeable
@Schema(name = "MemoryPage")
public record MemoryPage(List<MemoryJson> items, @Nullable String next) {}
