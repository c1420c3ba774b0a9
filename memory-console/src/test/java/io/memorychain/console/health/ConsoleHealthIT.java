package io.memorychain.console.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.api.auth.Role;
import io.memorychain.console.Accessibility;
import io.memorychain.console.BrowserIT;
import io.memorychain.console.ConsoleHarness;
import io.memorychain.console.Rest;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** The health page of a space with known content, and the accessibility check of the main pages. */
class ConsoleHealthIT extends BrowserIT {

    @Test
    void theHealthPageShowsTheSpacesCountsPendingItemsAndChainStatus() {
        String space = ConsoleHarness.space("health");
        String agent = ConsoleHarness.issue("health-agent", Role.AGENT, List.of(space));
        Rest.memory(agent, space, "Ana prefers green tea", "preferences");
        Rest.memory(agent, space, "Ana likes jazz", "preferences");
        String work = Rest.memory(agent, space, "Ana works at Acme", "work");
        assertThat(Rest.raw(java.net.http.HttpRequest.newBuilder(Rest.uri("/v1/spaces/" + space + "/memories/" + work))
                                .header("Authorization", "Bearer " + agent)
                                .DELETE())
                        .statusCode())
                .isEqualTo(200);

        browser.signIn(ConsoleHarness.issue("health-user", Role.USER, List.of(space)));
        browser.go("/console/s/" + space + "/health");

        assertThat(browser.text("#total-memories")).isEqualTo("3");
        assertThat(browser.text("#active-memories")).isEqualTo("2");
        assertThat(browser.find("#count-category-preferences").getAttribute("textContent"))
                .isEqualTo("2");
        assertThat(browser.find("#count-state-soft_deleted").getAttribute("textContent"))
                .isEqualTo("1");
        assertThat(browser.text("#pending-reflections")).isEqualTo("0");
        assertThat(browser.all("svg.chart")).hasSize(8);
        assertThat(browser.all("#chart-category rect.bar")).hasSize(2);
        String today = LocalDate.now(ZoneOffset.UTC).toString();
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    browser.go("/console/s/" + space + "/health");
                    assertThat(browser.find("#created-" + today).getAttribute("textContent"))
                            .as("three created today (the ops view's daily count)")
                            .isEqualTo("3");
                });

        browser.clickAndAwaitPage("#verify-chain");

        assertThat(browser.text("#flash")).contains("Chain verified to seq");
        assertThat(browser.text("#chain-verified")).contains("verified to seq");
        assertThat(browser.text("#chain-checkpoint")).contains("signed");
        browser.screenshot("health");
    }

    @Test
    void theMainPagesHaveNoSeriousOrCriticalAccessibilityViolations() {
        String space = ConsoleHarness.space("a11y");
        String agent = ConsoleHarness.issue("a11y-agent", Role.AGENT, List.of(space));
        Rest.memory(agent, space, "Ana prefers green tea", "preferences");
        browser.driver().manage().deleteAllCookies();
        browser.go("/console/login");
        Accessibility.assertNoSeriousViolations(browser.driver());

        browser.signIn(ConsoleHarness.issue("a11y-user", Role.USER, List.of(space)));
        browser.go("/console/s/" + space + "/inbox");
        Accessibility.assertNoSeriousViolations(browser.driver());
        browser.go("/console/s/" + space + "/health");
        Accessibility.assertNoSeriousViolations(browser.driver());
        assertThat(browser.source())
                .as("the axe script ran outside the page: the CSP still allows no inline script")
                .doesNotContain("<script");
    }
}
