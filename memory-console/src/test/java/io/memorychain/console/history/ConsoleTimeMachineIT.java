package io.memorychain.console.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.api.auth.Role;
import io.memorychain.console.Accessibility;
import io.memorychain.console.BrowserIT;
import io.memorychain.console.ConsoleHarness;
import io.memorychain.console.Rest;
import io.memorychain.console.session.SessionFilter;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The time machine: a user browses the space as it was; an admin runs the dry run, confirms and applies it, the
 * memories read as before and the rollback is in the audit timeline.
 */
class ConsoleTimeMachineIT extends BrowserIT {

    @Test
    void anAdminDryRunsThenAppliesARollbackAndTheMemoriesReadAsBefore() {
        String space = ConsoleHarness.space("time");
        String agent = ConsoleHarness.issue("agent-" + space, Role.AGENT, List.of(space));
        String user = ConsoleHarness.issue("user-" + space, Role.USER, List.of(space));
        String admin = ConsoleHarness.issue("admin-" + space, Role.ADMIN, List.of(space));
        String launch = Rest.memory(agent, space, "Launch is on Thursday", "projects");
        String attack = Rest.memory(agent, space, History.PAYLOAD, "projects");
        assertThat(Rest.put(agent, "/v1/spaces/" + space + "/blocks/goals", Map.of("content", "Ship the console"))
                        .status())
                .isBetween(200, 202);
        long good = History.head(agent, space);
        Map<String, String> before = History.contents(agent, space, "");
        // a confused agent's changes
        History.patch(agent, space, launch, "Launch is cancelled");
        History.delete(agent, space, attack);
        String junk = Rest.memory(agent, space, "Junk written by a confused agent", "projects");
        String time = "/console/s/" + space + "/time";

        browser.signIn(user);
        browser.go(time + "?seq=" + good);
        assertThat(browser.text("#then-" + launch + " .content")).isEqualTo("Launch is on Thursday");
        assertThat(browser.text("#then-" + attack + " .content")).isEqualTo(History.PAYLOAD);
        assertThat(browser.all("#then-" + junk)).as("written after the point").isEmpty();
        assertThat(browser.all("#dry-run")).as("only admins roll back").isEmpty();
        assertThat(browser.text("#core .content")).isEqualTo("Ship the console");
        History.assertInert(browser);
        browser.screenshot("time-machine-browse");
        Accessibility.assertNoSeriousViolations(browser.driver());
        browser.go(time + "?at=2999-01-01T00:00");
        assertThat(browser.text("#h-point")).isEqualTo("As of 2999-01-01T00:00:00Z");
        assertThat(browser.all("#then-" + junk))
                .as("a time after every event: the space now")
                .hasSize(1);

        browser.signIn(agent);
        browser.go(time + "?seq=" + good);
        assertThat(browser.text("#who")).contains("read-only");
        assertThat(browser.text("#then-" + launch + " .content")).isEqualTo("Launch is on Thursday");
        assertThat(browser.all("#dry-run")).isEmpty();
        browser.go(time + "/plan?seq=" + good);
        assertThat(browser.text("#error-code")).isEqualTo("ROLE_NOT_ALLOWED");

        browser.signIn(admin);
        browser.go(time + "?seq=" + good);
        assertThat(browser.text("#memories-withheld")).contains("grant");
        assertThat(browser.all("#core-withheld")).hasSize(1);
        browser.clickAndAwaitPage("#dry-run");
        assertThat(browser.path()).isEqualTo(time + "/plan?seq=" + good);
        assertThat(browser.all("tr.change-row")).hasSize(3);
        assertThat(browser.text("#plan-" + launch + " .action")).isEqualTo("restore");
        assertThat(browser.text("#plan-" + attack + " .action")).isEqualTo("restore");
        assertThat(browser.text("#plan-" + junk + " .action")).isEqualTo("delete");
        assertThat(browser.all("#content-hidden"))
                .as("no content without a grant")
                .hasSize(1);
        assertThat(browser.source()).doesNotContain("Launch is", "Junk written");
        assertThat(History.contents(agent, space, ""))
                .as("the dry run changed nothing")
                .containsKey(junk);
        browser.driver().executeScript("document.getElementById('h-changes').scrollIntoView()");
        browser.screenshot("time-machine-dry-run");
        Accessibility.assertNoSeriousViolations(browser.driver());

        HttpResponse<String> unconfirmed = applyWithoutTheBox(good);
        assertThat(unconfirmed.statusCode()).isEqualTo(303);
        browser.go(time + "/plan?seq=" + good);
        assertThat(browser.text("#flash")).contains("tick the box");
        assertThat(History.contents(agent, space, "")).containsKey(junk);

        browser.type("#rollback-reason", "the agent was confused");
        browser.click("#confirm");
        browser.clickAndAwaitPage("#apply-rollback");
        assertThat(browser.text("#flash")).contains("Rollback applied: 3 memories", "RollbackApplied");

        assertThat(History.contents(agent, space, ""))
                .as("the memories read as before")
                .isEqualTo(before);
        assertThat(History.contents(agent, space, "&as_of_seq=" + good)).isEqualTo(before);

        browser.signIn(user);
        browser.go("/console/s/" + space + "/audit?type=RollbackApplied");
        assertThat(browser.all("tr.entry")).hasSize(1);
        assertThat(browser.text("tr.entry .actor")).isEqualTo("admin:admin-" + space);
        browser.go(time + "?seq=" + History.head(agent, space));
        assertThat(browser.text("#then-" + launch + " .content")).isEqualTo("Launch is on Thursday");
        assertThat(browser.all("#then-" + junk)).isEmpty();
    }

    /** The confirmation form posted without its ticked box (which the browser would refuse to send). */
    private static HttpResponse<String> applyWithoutTheBox(long seq) {
        String session =
                browser.driver().manage().getCookieNamed(SessionFilter.COOKIE).getValue();
        String csrf = browser.find("#apply-form input[name=csrf]").getAttribute("value");
        String digest = browser.find("#apply-form input[name=plan_digest]").getAttribute("value");
        String form = "csrf=" + enc(csrf) + "&seq=" + seq + "&plan_digest=" + enc(digest) + "&reason=why";
        String action = browser.find("#apply-form").getAttribute("action");
        return Rest.raw(HttpRequest.newBuilder(java.net.URI.create(action))
                .header("Cookie", SessionFilter.COOKIE + "=" + session)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)));
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
