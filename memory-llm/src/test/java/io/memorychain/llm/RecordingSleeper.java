package io.memorychain.llm;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Records the waits asked for instead of waiting. */
final class RecordingSleeper implements Sleeper {

    private final List<Duration> waits = new CopyOnWriteArrayList<>();

    @Override
    public void sleep(Duration duration) {
        waits.add(duration);
    }

    List<Duration> waits() {
        return List.copyOf(waits);
    }
}
