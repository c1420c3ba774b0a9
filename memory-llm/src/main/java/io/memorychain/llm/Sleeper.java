package io.memorychain.llm;

import java.time.Duration;

/** Waits between attempts; injected so tests record the waits instead of waiting. */
@FunctionalInterface
public interface Sleeper {

    Sleeper REAL = duration -> Thread.sleep(duration.toMillis());

    void sleep(Duration duration) throws InterruptedException;
}
