package io.memorychain.console.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.api.auth.Role;
import io.memorychain.console.Accessibility;
import io.memorychain.console.BrowserIT;
import io.memorychain.console.ConsoleHarness;
import io.memorychain.console.Rest;
import io.memorychain.console.session.SessionFilter;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;

/** The admin page: a key issued with its secret shown once, a key revoked ending its console session and API calls. */
class ConsoleAdminIT extends BrowserIT {

    @Test
    void anAdminIssuesAKeyWhoseSecretIsShownOnceAndWorks() {
        String space = ConsoleHarness.space("issued");
        browser.signIn(ConsoleHarness.issue("root-issuer", Role.ADMIN, List.of("*")));
        browser.go("/console/admin");
        Accessibility.assertNoSeriousViolations(browser.driver());

        browser.type("#key-id", "ivy");
        browser.driver()
                .findElement(By.cssSelector("#key-role option[value='user']"))
                .click();
        browser.type("#key-spaces", space);
        browser.clickAndAwaitPage("#issue");

        assertThat(browser.path()).isEqualTo("/console/admin");
        String secret = browser.text("#issued-secret");
        assertThat(secret).startsWith("mc_");
        assertThat(browser.text("#flash")).contains("issued for ivy", "shown only once");
        String keyId = secret.substring(3, 15);
        assertThat(browser.text("#key-" + keyId)).contains("ivy", "user", space);
        browser.screenshot("admin-keys");
        Rest.Answer me = Rest.get(secret, "/v1/me");
        assertThat(me.status()).isEqualTo(200);
        assertThat(me.string("id")).isEqualTo("ivy");

        browser.driver().navigate().refresh();
        assertThat(browser.all("#issued-secret"))
                .as("shown once: gone after a reload")
                .isEmpty();
        assertThat(browser.source()).doesNotContain(secret.substring(16));
    }

    @Test
    void anAdminRevokesAKeyAndItsOpenConsoleSessionAndApiCallsEnd() {
        String space = ConsoleHarness.space("revoked");
        String user = ConsoleHarness.issue("rex", Role.USER, List.of(space));
        String keyId = user.substring(3, 15);
        browser.signIn(user);
        assertThat(browser.path()).startsWith("/console/s/" + space);
        Cookie userSession = browser.driver().manage().getCookieNamed(SessionFilter.COOKIE);
        assertThat(Rest.get(user, "/v1/me").status()).isEqualTo(200);

        browser.signIn(ConsoleHarness.issue("root-revoker", Role.ADMIN, List.of("*")));
        browser.go("/console/admin");
        browser.clickAndAwaitPage("#key-" + keyId + " button.danger");
        assertThat(browser.text("#flash")).contains("Key " + keyId, "revoked");
        assertThat(browser.text("#key-" + keyId)).contains("revoked");

        browser.driver().manage().deleteAllCookies();
        browser.driver().manage().addCookie(userSession);
        Awaitility.await()
                .atMost(Duration.ofSeconds(3))
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> {
                    browser.go("/console/s/" + space + "/inbox");
                    assertThat(browser.path()).isEqualTo("/console/login?ended=revoked");
                });
        assertThat(Rest.get(user, "/v1/me").status())
                .as("its API calls fail too")
                .isEqualTo(401);
    }

    @Test
    void aUserKeyGetsTheForbiddenPageForAdmin() {
        browser.signIn(ConsoleHarness.issue("not-admin", Role.USER, List.of(ConsoleHarness.space("u"))));
        browser.go("/console/admin");
        assertThat(browser.text("#error-code")).isEqualTo("ROLE_NOT_ALLOWED");
        assertThat(browser.all("header nav a")).extracting(a -> a.getText()).doesNotContain("Admin");
    }
}
