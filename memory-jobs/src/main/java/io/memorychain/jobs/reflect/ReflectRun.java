package io.memorychain.jobs.reflect;

import io.memorychain.avro.Memory;
import io.memorychain.avro.ReflectionTrigger;
import io.memorychain.avro.view.Reflection;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One planned reflection of a space: what triggered it, at which chain position and time, and what it reads.
 *
 * @param number the reflection's number in the space
 * @param fromSeq first seq it covers (after the previous reflection's {@code to_seq})
 * @param toSeq the seq of the event that triggered it: its request id is derived from it
 * @param episodes the unprocessed episodes it reads, oldest first
 * @param memories other active memories it reads (the targets its changes may name)
 * @param blocks the active core blocks by label
 * @param past the space's earlier reflections (the reflection log and evolution record it meta-reflects on)
 */
public record ReflectRun(
        String space,
        ReflectionTrigger trigger,
        String detail,
        int number,
        long fromSeq,
        long toSeq,
        Instant at,
        List<Memory> episodes,
        List<Memory> memories,
        Map<String, String> blocks,
        List<Reflection> past) {

    public ReflectRun {
        episodes = List.copyOf(episodes);
        memories = List.copyOf(memories);
        blocks = Map.copyOf(blocks);
        past = List.copyOf(past);
    }

    /** {@code reflect:<space>:<toSeq>}: a replay of the chain plans the same run with the same id. */
    public String requestId() {
        return "reflect:" + space + ":" + toSeq;
    }
}
