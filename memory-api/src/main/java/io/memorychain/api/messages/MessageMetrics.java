package io.memorychain.api.messages;

import io.memorychain.domain.messages.TriggerDetector.Trigger;
import io.memorychain.domain.messages.WritingConstraints.Outcome;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import jakarta.inject.Singleton;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The message endpoint's figures (docs/architecture.md §20), since this process started, on {@code /prometheus}:
 * {@code memory_messages_total{trigger}} and {@code memory_messages_validation_total{outcome}} (the writing
 * constraints' first-pass pass / trimmed / rejected counts of model-written texts, seed 004 §9), also given in each
 * answer.
 */
@Singleton
class MessageMetrics implements MeterBinder {

    /** Pass, trimmed and rejected counts and the first-pass pass rate (pass / all; 1.0 before any). */
    public record PassRate(long pass, long trimmed, long rejected, double rate) {}

    private final Map<Trigger, AtomicLong> triggers = new EnumMap<>(Trigger.class);
    private final Map<Outcome, AtomicLong> validations = new EnumMap<>(Outcome.class);

    public MessageMetrics() {
        for (Trigger t : Trigger.values()) {
            triggers.put(t, new AtomicLong());
        }
        for (Outcome o : Outcome.values()) {
            validations.put(o, new AtomicLong());
        }
    }

    public void message(Trigger trigger) {
        triggers.get(trigger).incrementAndGet();
    }

    public void validated(Outcome outcome) {
        validations.get(outcome).incrementAndGet();
    }

    public PassRate passRate() {
        long pass = validations.get(Outcome.PASS).get();
        long trimmed = validations.get(Outcome.TRIMMED).get();
        long rejected = validations.get(Outcome.REJECTED).get();
        long all = pass + trimmed + rejected;
        return new PassRate(pass, trimmed, rejected, all == 0 ? 1.0 : (double) pass / all);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        triggers.forEach((trigger, count) -> FunctionCounter.builder("memory.messages", count, AtomicLong::get)
                .description("Messages received by the trigger they fired")
                .tag("trigger", trigger.wireName())
                .register(registry));
        validations.forEach(
                (outcome, count) -> FunctionCounter.builder("memory.messages.validation", count, AtomicLong::get)
                        .description("Model-written memory texts by writing-constraint outcome (first pass)")
                        .tag("outcome", outcome.name().toLowerCase(Locale.ROOT))
                        .register(registry));
    }
}
