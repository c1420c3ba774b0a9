package io.memorychain.client;

/**
 * Reads a {@code text/event-stream} line by line as the WHATWG HTML standard interprets it ("Interpreting an event
 * stream"): {@code data:} lines join with a line feed, {@code event:} names the type (default {@code message}),
 * {@code id:} sets the last event id (kept for the events after it, ignored when it holds a NUL), {@code retry:} with
 * digits only sets the reconnection time, lines starting with a colon are comments, one space after the colon is
 * dropped, and a blank line dispatches the event (none when no data came). Not thread-safe: one per connection.
 */
final class EventStreamParser {

    /** A dispatched event: the last event id at its dispatch (null: none yet), its type and its data. */
    record Event(String id, String type, String data) {}

    private final StringBuilder data = new StringBuilder();
    private boolean hasData;
    private String type;
    private String lastEventId;
    private Long retryMillis;
    private boolean first = true;

    /** Feeds one line without its line ending; returns the event a blank line dispatches, else null. */
    Event line(String raw) {
        String line = raw;
        if (first) {
            first = false;
            if (line.startsWith("\uFEFF")) {
                line = line.substring(1);
            }
        }
        if (line.isEmpty()) {
            return dispatch();
        }
        if (line.charAt(0) == ':') {
            return null; // a comment (the server's keep-alive)
        }
        int colon = line.indexOf(':');
        String field = colon < 0 ? line : line.substring(0, colon);
        String value = colon < 0 ? "" : line.substring(colon + 1);
        if (value.startsWith(" ")) {
            value = value.substring(1);
        }
        switch (field) {
            case "event" -> type = value;
            case "data" -> {
                data.append(value).append('\n');
                hasData = true;
            }
            case "id" -> {
                if (value.indexOf('\0') < 0) {
                    lastEventId = value;
                }
            }
            case "retry" -> {
                if (!value.isEmpty() && value.chars().allMatch(c -> c >= '0' && c <= '9')) {
                    try {
                        retryMillis = Long.parseLong(value);
                    } catch (NumberFormatException tooLong) {
                        // ignored, as any field the standard does not take
                    }
                }
            }
            default -> {} // unknown fields are ignored
        }
        return null;
    }

    /** The reconnection time the stream last set ({@code retry:}), in milliseconds, or null. */
    Long retryMillis() {
        return retryMillis;
    }

    private Event dispatch() {
        if (!hasData) {
            data.setLength(0);
            type = null;
            return null;
        }
        data.setLength(data.length() - 1); // the last line feed
        Event event = new Event(lastEventId, type == null || type.isEmpty() ? "message" : type, data.toString());
        data.setLength(0);
        hasData = false;
        type = null;
        return event;
    }
}
