package io.memorychain.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The event stream read as the HTML standard interprets it. */
class EventStreamParserTest {

    private final EventStreamParser parser = new EventStreamParser();

    private List<EventStreamParser.Event> feed(String... lines) {
        List<EventStreamParser.Event> out = new ArrayList<>();
        for (String line : lines) {
            EventStreamParser.Event e = parser.line(line);
            if (e != null) {
                out.add(e);
            }
        }
        return out;
    }

    @Test
    void anEventHasItsIdTypeAndDataWithMultipleDataLinesJoinedByLineFeeds() {
        assertThat(feed("id: 7", "event: MemoryCreated", "data: {\"a\":", "data:  1}", ""))
                .containsExactly(new EventStreamParser.Event("7", "MemoryCreated", "{\"a\":\n 1}"));
    }

    @Test
    void commentsAndBlocksWithoutDataDispatchNothingButRetryIsKept() {
        assertThat(feed("\uFEFF: changes of s after seq 0", "retry: 2000", "", "", ": keep-alive", ""))
                .isEmpty();
        assertThat(parser.retryMillis()).isEqualTo(2000L);
        assertThat(feed("retry: 2s", "")).isEmpty();
        assertThat(parser.retryMillis())
                .as("a retry that is not digits only is ignored")
                .isEqualTo(2000L);
    }

    @Test
    void theLastEventIdCarriesOverToLaterEventsAndTheTypeDefaultsToMessage() {
        assertThat(feed("id: 3", "data: x", "", "data: y", "", "id", "data: z", ""))
                .containsExactly(
                        new EventStreamParser.Event("3", "message", "x"),
                        new EventStreamParser.Event("3", "message", "y"),
                        new EventStreamParser.Event("", "message", "z"));
    }

    @Test
    void aFieldWithoutColonHasAnEmptyValueAndUnknownFieldsAndNulIdsAreIgnored() {
        assertThat(feed("id: 1", "id: 2\0", "foo: bar", "data", ""))
                .containsExactly(new EventStreamParser.Event("1", "message", ""));
    }

    @Test
    void anEventCutBeforeItsBlankLineIsNotDispatched() {
        assertThat(feed("id: 5", "event: MemoryCreated", "data: {}")).isEmpty();
        EventStreamParser fresh = new EventStreamParser(); // the reconnection reads a new stream
        assertThat(fresh.line("data: {}")).isNull();
        assertThat(fresh.line("")).isEqualTo(new EventStreamParser.Event(null, "message", "{}"));
    }
}
