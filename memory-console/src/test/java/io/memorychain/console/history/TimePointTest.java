package io.memorychain.console.history;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TimePointTest {

    @Test
    void theDateTimeFieldsLocalValueIsReadAsUtc() {
        assertThat(TimePoint.of(null, "2026-11-28T10:15").isoTime()).isEqualTo("2026-11-28T10:15:00Z");
        assertThat(TimePoint.of(null, "2026-11-28T10:15:30").isoTime()).isEqualTo("2026-11-28T10:15:30Z");
        assertThat(TimePoint.of(null, "2026-11-28T10:15:30+02:00").isoTime())
                .as("a zone given is kept")
                .isEqualTo("2026-11-28T10:15:30+02:00");
        assertThat(TimePoint.of(null, "yesterday").isoTime())
                .as("handed over for the service to refuse")
                .isEqualTo("yesterday");
    }

    @Test
    void aSeqOrATimeNamesThePointAndItsQuery() {
        TimePoint seq = TimePoint.of(" 42 ", "");
        assertThat(seq.chosen()).isTrue();
        assertThat(seq.seqNumber()).isEqualTo(42L);
        assertThat(seq.query()).isEqualTo("seq=42");
        assertThat(TimePoint.of(null, "2026-11-28T10:15").query()).isEqualTo("at=2026-11-28T10%3A15");
        assertThat(TimePoint.of("abc", null).seqNumber()).isNull();
        assertThat(TimePoint.of("", " ").chosen()).isFalse();
    }
}
