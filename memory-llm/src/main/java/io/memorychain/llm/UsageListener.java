package io.memorychain.llm;

/** Told about every call, successful or not, once it has ended. Must be thread-safe and must not throw. */
@FunctionalInterface
public interface UsageListener {

    UsageListener NONE = call -> {};

    void onCall(UsageRecord call);

    /** Both listeners, this one first. */
    default UsageListener andThen(UsageListener next) {
        return call -> {
            onCall(call);
            next.onCall(call);
        };
    }
}
