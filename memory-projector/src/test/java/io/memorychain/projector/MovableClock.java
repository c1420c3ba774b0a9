package io.memorychain.projector;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A UTC clock a test sets: {@link #now} is what it answers. */
public final class MovableClock extends Clock {

    /** The instant the clock answers; tests set it. */
    public Instant now;

    public MovableClock(Instant start) {
        this.now = start;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return now;
    }
}
