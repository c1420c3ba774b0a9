package io.memorychain.api.write;

import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.MemoryRequest;

/**
 * A write the sequencer accepted and the local views already show (published by {@link WriteExecutor} before it
 * answers): what follow-up work of the service, such as contradiction detection, starts from. Listeners must return at
 * once (hand the work to their own thread): the write's answer waits for them.
 */
public record WriteAccepted(MemoryRequest request, MemoryOutcome outcome) {}
