package io.memorychain.console.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.api.auth.ApiKeys;
import io.memorychain.api.auth.Role;
import io.memorychain.console.BrowserIT;
import io.memorychain.console.ConsoleHarness;
import io.memorychain.console.Rest;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Cookie;

/** Sign-in, the session cookie, CSRF, the security headers, sign-out, and a revoked key ending its session. */
class ConsoleSignInIT extends BrowserIT {

    @Test
    void aUserSignsInAndSeesTheNavigationAndTheSpacesOfTheirKey() {
        String one = ConsoleHarness.space("home");
        String two = ConsoleHarness.space("work");
        String user = ConsoleHarness.issue("ana", Role.USER, List.of(one, two));

        browser.signIn(user);

        assertThat(browser.path()).isEqualTo("/console");
        assertThat(browser.text("#who")).contains("ana", "user");
        assertThat(browser.all("header nav a"))
                .extracting(a -> a.getText())
                .containsExactly("Inbox", "Memories", "Time machine", "Audit", "Health");
        assertThat(browser.all("#known-spaces option"))
                .extracting(o -> o.getAttribute("value"))
                .containsExactly(one, two);
        browser.screenshot("spaces");
    }

    @Test
    void theSessionCookieIsHttpOnlyStrictAndScopedToTheConsole() {
        String user = ConsoleHarness.issue("cookie-user", Role.USER, List.of(ConsoleHarness.space("c")));
        browser.signIn(user);

        Cookie cookie = browser.driver().manage().getCookieNamed(SessionFilter.COOKIE);
        assertThat(cookie).isNotNull();
        assertThat(cookie.isHttpOnly()).isTrue();
        assertThat(cookie.getSameSite()).isEqualTo("Strict");
        assertThat(cookie.getPath()).isEqualTo("/console");
        assertThat(cookie.getValue())
                .as("256 random bits, base64url")
                .hasSize(43)
                .doesNotContain(user);
        assertThat(browser.driver().executeScript("return document.cookie"))
                .as("invisible to scripts")
                .isEqualTo("");
    }

    @Test
    void aWrongKeyIsRefusedOnTheSignInPage() {
        browser.driver().manage().deleteAllCookies();
        browser.signIn("mc_000000000000_notAKeyAtAllnotAKeyAtAllnotAKeyAtAllnotAKeyA");
        assertThat(browser.path()).isEqualTo("/console/login");
        assertThat(browser.text("#problem")).contains("not accepted");
        assertThat(browser.driver().manage().getCookieNamed(SessionFilter.COOKIE))
                .isNull();
    }

    @Test
    void everyConsoleResponseCarriesTheSecurityHeadersAndPagesNeedASession() {
        HttpResponse<String> login =
                Rest.raw(HttpRequest.newBuilder(Rest.uri("/console/login")).GET());
        assertThat(login.statusCode()).isEqualTo(200);
        assertThat(login.headers().firstValue("Content-Security-Policy")).hasValue(SecurityHeaders.CSP);
        assertThat(login.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        assertThat(login.headers().firstValue("Referrer-Policy")).hasValue(SecurityHeaders.REFERRER_POLICY);
        assertThat(login.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(login.body()).doesNotContain("<script", "style=");

        HttpResponse<String> anonymous =
                Rest.raw(HttpRequest.newBuilder(Rest.uri("/console")).GET());
        assertThat(anonymous.statusCode()).isEqualTo(303);
        assertThat(anonymous.headers().firstValue("Location")).hasValue("/console/login");
        assertThat(anonymous.headers().firstValue("Content-Security-Policy")).hasValue(SecurityHeaders.CSP);

        HttpResponse<String> css = Rest.raw(
                HttpRequest.newBuilder(Rest.uri("/console/assets/console.css")).GET());
        assertThat(css.statusCode()).isEqualTo(200);
        assertThat(css.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("text/css"));
        assertThat(Rest.raw(HttpRequest.newBuilder(Rest.uri("/console/assets/../application.yml"))
                                .GET())
                        .statusCode())
                .isIn(303, 404);
    }

    @Test
    void aChangeWithoutTheSessionsCsrfTokenIsRefused() {
        String user = ConsoleHarness.issue("csrf-user", Role.USER, List.of(ConsoleHarness.space("x")));
        browser.signIn(user);
        String session =
                browser.driver().manage().getCookieNamed(SessionFilter.COOKIE).getValue();

        HttpResponse<String> forged = Rest.raw(HttpRequest.newBuilder(Rest.uri("/console/logout"))
                .header("Cookie", SessionFilter.COOKIE + "=" + session)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("csrf=forged")));

        assertThat(forged.statusCode()).isEqualTo(403);
        assertThat(forged.body()).contains("CSRF_REJECTED");
        browser.go("/console");
        assertThat(browser.path()).as("still signed in").startsWith("/console/s/");
    }

    @Test
    void signingOutEndsTheSession() {
        String user = ConsoleHarness.issue("leaving-user", Role.USER, List.of(ConsoleHarness.space("y")));
        browser.signIn(user);
        String session =
                browser.driver().manage().getCookieNamed(SessionFilter.COOKIE).getValue();

        browser.clickAndAwaitPage("#sign-out");

        assertThat(browser.path()).isEqualTo("/console/login?ended=out");
        assertThat(browser.text("#notice")).contains("signed out");
        HttpResponse<String> replay = Rest.raw(HttpRequest.newBuilder(Rest.uri("/console"))
                .header("Cookie", SessionFilter.COOKIE + "=" + session)
                .GET());
        assertThat(replay.statusCode()).as("the old cookie opens nothing").isEqualTo(303);
    }

    @Test
    void aRevokedKeyEndsItsOpenSessionWithinTwoSeconds() {
        String user = ConsoleHarness.issue("revoked-user", Role.USER, List.of(ConsoleHarness.space("z")));
        browser.signIn(user);
        assertThat(browser.path())
                .as("signed in: the inbox of the key's one space")
                .startsWith("/console/s/");

        ConsoleHarness.bean(ApiKeys.class).revoke(user.substring(3, 15));

        Awaitility.await()
                .atMost(Duration.ofSeconds(2))
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> {
                    browser.go("/console");
                    assertThat(browser.path()).isEqualTo("/console/login?ended=revoked");
                });
        assertThat(browser.text("#notice")).contains("revoked");
    }
}
