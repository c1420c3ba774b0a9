package io.memorychain.api.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.api.error.ApiException;
import io.memorychain.domain.Rules;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RequestRulesTest {

    private final InputRules rules = new InputRules(10, 3);

    @Test
    void ifMatchAndBodyVersionResolveToOneExpectedVersion() {
        assertThat(ExpectedVersions.resolve(null, null)).isNull();
        assertThat(ExpectedVersions.resolve(3, null)).isEqualTo(3);
        assertThat(ExpectedVersions.resolve(null, "\"4\"")).isEqualTo(4);
        assertThat(ExpectedVersions.resolve(null, "W/\"5\"")).isEqualTo(5);
        assertThat(ExpectedVersions.resolve(null, "6")).isEqualTo(6);
        assertThat(ExpectedVersions.resolve(null, "*")).isNull();
        assertThat(ExpectedVersions.resolve(2, "\"2\"")).isEqualTo(2);
        assertThat(ExpectedVersions.etag(7)).isEqualTo("\"7\"");
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "\"1\", \"2\"", "\"0\"", "-1"})
    void rejectsBadIfMatch(String ifMatch) {
        assertThatThrownBy(() -> ExpectedVersions.resolve(null, ifMatch)).isInstanceOf(ApiException.class);
    }

    @Test
    void rejectsDisagreeingOrNonPositiveVersions() {
        assertThatThrownBy(() -> ExpectedVersions.resolve(2, "\"3\"")).hasMessageContaining("disagree");
        assertThatThrownBy(() -> ExpectedVersions.resolve(0, null)).isInstanceOf(ApiException.class);
    }

    @Test
    void spacesFollowTheDocumentedPattern() {
        assertThat(Spaces.require("tenant.agent_1-x")).isEqualTo("tenant.agent_1-x");
        for (String bad : new String[] {
            "", ".", "..", "a/b", "a b", "a*b", "x".repeat(129), "\u00e9t\u00e9", "_notes", "-x", ".hidden"
        }) {
            assertThatThrownBy(() -> Spaces.require(bad))
                    .as(bad)
                    .isInstanceOfSatisfying(
                            ApiException.class, e -> assertThat(e.code()).isEqualTo("INVALID_ARGUMENT"));
        }
    }

    @Test
    void theApiRefusesBeforePublishingEverySpaceTheSequencerWouldReject() {
        for (String space : new String[] {"a", "A9", "tenant.agent", "t_1-a", "_notes", "-a", ".a", "a..", "a:b"}) {
            boolean sequencerAccepts = Rules.isValidSpace(space);
            boolean apiAccepts;
            try {
                Spaces.require(space);
                apiAccepts = true;
            } catch (ApiException e) {
                apiAccepts = false;
            }
            assertThat(apiAccepts).as(space).isEqualTo(sequencerAccepts);
        }
    }

    @Test
    void idempotencyKeyBecomesTheRequestIdElseARandomUuid() {
        assertThat(RequestIds.fromHeader("k-1")).isEqualTo("k-1");
        assertThat(RequestIds.fromHeader(null)).hasSize(36).isNotEqualTo(RequestIds.fromHeader(null));
        assertThatThrownBy(() -> RequestIds.fromHeader("with space")).isInstanceOf(ApiException.class);
        assertThatThrownBy(() -> RequestIds.fromHeader("k".repeat(129))).isInstanceOf(ApiException.class);
    }

    @Test
    void contentIsRequiredNotBlankAndLimitedInUtf8Bytes() {
        assertThat(rules.content("content", "0123456789")).hasSize(10);
        assertThatThrownBy(() -> rules.content("content", null)).hasMessageContaining("required");
        assertThatThrownBy(() -> rules.content("content", " \n")).hasMessageContaining("blank");
        assertThatThrownBy(() -> rules.content("content", "01234567890"))
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.code()).isEqualTo("TOO_LARGE"));
        assertThatThrownBy(() -> rules.content("content", "\u20ac\u20ac\u20ac\u20ac")) // 4 chars, 12 bytes
                .isInstanceOfSatisfying(
                        ApiException.class,
                        e -> assertThat(e.status().getCode()).isEqualTo(413));
    }

    @Test
    void parsesInstantsAndOffsetDateTimes() {
        assertThat(InputRules.instant("created_at", "2024-05-01T10:00:00Z"))
                .isEqualTo(Instant.parse("2024-05-01T10:00:00Z"));
        assertThat(InputRules.instant("created_at", "2024-05-01T12:00:00+02:00"))
                .isEqualTo(Instant.parse("2024-05-01T10:00:00Z"));
        assertThatThrownBy(() -> InputRules.instant("created_at", "2024-05-01")).hasMessageContaining("ISO-8601");
    }

    @Test
    void consolidationIdsAreDistinctBoundedAndPlausible() {
        assertThat(rules.consolidationIds("s", List.of("a", "b"))).containsExactly("a", "b");
        assertThatThrownBy(() -> rules.consolidationIds("s", List.of())).hasMessageContaining("required");
        assertThatThrownBy(() -> rules.consolidationIds("s", List.of("a", "a"))).hasMessageContaining("twice");
        assertThatThrownBy(() -> rules.consolidationIds("s", List.of("a", "b", "c", "d")))
                .hasMessageContaining("at most 3");
        assertThatThrownBy(() -> rules.consolidationIds("s", List.of("no such/id")))
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.code()).isEqualTo("NOT_FOUND"));
    }
}
