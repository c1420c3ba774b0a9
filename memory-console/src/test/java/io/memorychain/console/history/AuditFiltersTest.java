package io.memorychain.console.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.api.audit.AuditQuery;
import io.memorychain.api.error.ApiException;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AuditFiltersTest {

    @Test
    void daysBecomeAHalfOpenRangeOfUtcInstantsAndTheRestPassesAsRestTakesIt() {
        AuditQuery q = AuditFilters.of(
                        " agent:ana ", "MemoryDeleted, BlockUpdated", "m1", "goals", "2026-11-01", "2026-11-28", null)
                .query();
        assertThat(q.actor()).isEqualTo("agent:ana");
        assertThat(q.types()).isEqualTo(Set.of("MemoryDeleted", "BlockUpdated"));
        assertThat(q.memoryId()).isEqualTo("m1");
        assertThat(q.blockLabel()).isEqualTo("goals");
        assertThat(q.since()).isEqualTo(Instant.parse("2026-11-01T00:00:00Z"));
        assertThat(q.until()).as("the last day is included").isEqualTo(Instant.parse("2026-11-29T00:00:00Z"));
        assertThat(q.newestFirst()).isTrue();
    }

    @Test
    void blankFieldsAreNoFilterAndBadDaysOrRangesAreRefused() {
        AuditFilters none = AuditFilters.of("", " ", null, "", "", null, null);
        assertThat(none.any()).isFalse();
        assertThat(none.limit()).isEqualTo(AuditFilters.DEFAULT_LIMIT);
        assertThatThrownBy(() -> AuditFilters.of(null, null, null, null, "yesterday", null, null)
                        .query())
                .isInstanceOf(ApiException.class)
                .hasMessageContaining("from must be a day");
        assertThatThrownBy(() -> AuditFilters.of(null, null, null, null, "2026-11-28", "2026-11-01", null)
                        .query())
                .isInstanceOf(ApiException.class);
    }

    @Test
    void theAddressKeepsTheFiltersEncodedAndTheCursor() {
        AuditFilters f = AuditFilters.of("agent:a&b", null, null, null, "2026-11-01", null, 3);
        assertThat(f.href("/console/s/x/audit", 42L))
                .isEqualTo("/console/s/x/audit?actor=agent%3Aa%26b&from=2026-11-01&limit=3&before=42");
        assertThat(f.limits()).containsExactly(3, 25, 50, 100);
        assertThat(AuditFilters.of(null, null, null, null, null, null, 5000).limit())
                .isEqualTo(AuditFilters.DEFAULT_LIMIT);
        assertThat(AuditFilters.of(null, null, null, null, null, null, null).href("/a", null))
                .isEqualTo("/a");
    }
}
