package io.memorychain.projector.search;

import io.memorychain.avro.Memory;

/** A memory snapshot and its embedding (null when it has none yet), as fed to {@link MemoryIndex#rebuild}. */
public record IndexEntry(Memory memory, float[] embedding) {}
