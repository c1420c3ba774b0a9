package io.memorychain.api.messages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memorychain.api.error.ApiException;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class ForgetTokensTest {

    private static final String SECRET = "a-test-secret-of-at-least-32-characters!";
    private static final Instant NOW = Instant.parse("2026-11-27T00:00:00Z");
    private static final Actor ANA = new Actor(ActorType.AGENT, "ana");
    private final ForgetTokens tokens = new ForgetTokens(SECRET, Duration.ofMinutes(10));

    @Test
    void aTokenConfirmsExactlyItsIdsForItsCallerAndSpace() {
        String token = tokens.issue("s1", ANA, List.of("m1", "m2"), NOW);
        ForgetTokens.Confirmed c = tokens.verify(token, "s1", ANA, NOW.plusSeconds(30));
        assertThat(c.memoryIds()).containsExactly("m1", "m2");
        assertThat(c.expiresAt()).isEqualTo(NOW.plus(Duration.ofMinutes(10)));
    }

    @Test
    void anotherCallerOrSpaceIsRefusedWith403() {
        String token = tokens.issue("s1", ANA, List.of("m1"), NOW);
        assertThat(code(() -> tokens.verify(token, "s1", new Actor(ActorType.AGENT, "bob"), NOW)))
                .isEqualTo("CONFIRMATION_NOT_YOURS");
        assertThat(code(() -> tokens.verify(token, "s1", new Actor(ActorType.USER, "ana"), NOW)))
                .isEqualTo("CONFIRMATION_NOT_YOURS");
        assertThat(code(() -> tokens.verify(token, "s2", ANA, NOW))).isEqualTo("CONFIRMATION_NOT_YOURS");
    }

    @Test
    void aForgedWidenedExpiredOrForeignServiceTokenIsRefusedWith400() {
        String token = tokens.issue("s1", ANA, List.of("m1"), NOW);
        String payload = token.substring(0, token.indexOf('.'));
        String signature = token.substring(token.indexOf('.') + 1);
        // widen the ids and keep the signature: the HMAC no longer matches
        String widened = new String(Base64.getUrlDecoder().decode(payload)).replace("m1", "m1,m9");
        String forged = Base64.getUrlEncoder().withoutPadding().encodeToString(widened.getBytes()) + "." + signature;
        assertThat(code(() -> tokens.verify(forged, "s1", ANA, NOW))).isEqualTo("INVALID_CONFIRMATION");
        assertThat(code(() -> tokens.verify("garbage", "s1", ANA, NOW))).isEqualTo("INVALID_CONFIRMATION");
        assertThat(code(() -> tokens.verify("", "s1", ANA, NOW))).isEqualTo("INVALID_CONFIRMATION");
        assertThat(code(() -> tokens.verify(token, "s1", ANA, NOW.plus(Duration.ofMinutes(10)))))
                .isEqualTo("INVALID_CONFIRMATION");
        ForgetTokens otherService =
                new ForgetTokens("another-secret-of-at-least-32-characters", Duration.ofMinutes(10));
        assertThat(code(() -> otherService.verify(token, "s1", ANA, NOW))).isEqualTo("INVALID_CONFIRMATION");
        ForgetTokens randomSecret = new ForgetTokens(null, Duration.ofMinutes(10));
        assertThat(code(() -> randomSecret.verify(token, "s1", ANA, NOW))).isEqualTo("INVALID_CONFIRMATION");
    }

    @Test
    void refusesAShortSecret() {
        assertThatThrownBy(() -> new ForgetTokens("short", Duration.ofMinutes(1)))
                .hasMessageContaining("confirmation-secret");
    }

    private static String code(Runnable r) {
        try {
            r.run();
        } catch (ApiException e) {
            return e.code();
        }
        throw new AssertionError("no ApiException");
    }
}
