package io.memorychain.console.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.api.auth.Role;
import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.ReflectionChange;
import io.memorychain.avro.ReflectionChangeType;
import io.memorychain.avro.ReflectionDocument;
import io.memorychain.avro.ReflectionTrigger;
import io.memorychain.console.BrowserIT;
import io.memorychain.console.ConsoleHarness;
import io.memorychain.console.Rest;
import io.memorychain.domain.ReflectionMilestones;
import io.memorychain.events.Requests;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.WebElement;

/** The inbox: reflections decided with edits, consents granted and denied, alerts, proposals, grants. */
class ConsoleInboxIT extends BrowserIT {

    /** A pending reflection as the reflection worker proposes it (through the publisher, as the worker does). */
    private static String proposeReflection(String space, String fact) throws Exception {
        return proposeReflection(space, fact, 1);
    }

    /** As above, numbered: the 10th is the summary milestone. */
    private static String proposeReflection(String space, String fact, int number) throws Exception {
        ReflectionDocument doc = ReflectionDocument.newBuilder()
                .setTrigger(ReflectionTrigger.MANUAL)
                .setNumber(number)
                .setMilestone(ReflectionMilestones.of(number))
                .setFromSeq(1)
                .setToSeq(1)
                .setSummary("# Reflection #" + number + "\n- the launch moved")
                .setChanges(List.of(
                        ReflectionChange.newBuilder()
                                .setChangeId("c1")
                                .setType(ReflectionChangeType.UPDATE_MEMORY)
                                .setReason("episodes")
                                .setMemoryId(fact)
                                .setContent("Launch is on Friday")
                                .build(),
                        ReflectionChange.newBuilder()
                                .setChangeId("c2")
                                .setType(ReflectionChangeType.CREATE_MEMORY)
                                .setReason("episodes")
                                .setContent("Ana moves launches after reviews")
                                .build()))
                .build();
        MemoryOutcome proposed = ConsoleHarness.bean(MemoryBackend.class)
                .publish(Requests.proposeReflection(space, Requests.actor(ActorType.WORKER, "reflect"), doc)
                        .build())
                .get(30, TimeUnit.SECONDS);
        assertThat(proposed.getAccepted()).as(proposed.getMessage()).isTrue();
        return proposed.getMemoryId();
    }

    @SuppressWarnings("unchecked")
    private static String content(String key, String space, String id) {
        return (String)
                Rest.get(key, "/v1/spaces/" + space + "/memories/" + id).json().get("content");
    }

    @Test
    void aUserApprovesAReflectionWithAnEditedTextAndTheMemoryChangesWithAnAuditEntry() throws Exception {
        String space = ConsoleHarness.space("reflect");
        String agent = ConsoleHarness.issue("agent-" + space, Role.AGENT, List.of(space));
        String user = ConsoleHarness.issue("user-" + space, Role.USER, List.of(space));
        String fact = Rest.memory(agent, space, "Launch is on Thursday", "projects");
        String reflection = proposeReflection(space, fact);

        browser.signIn(user);
        browser.go("/console/s/" + space + "/inbox");
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            browser.go("/console/s/" + space + "/inbox");
            assertThat(browser.text("#count-reflections")).isEqualTo("1");
        });
        String form = "#reflection-" + reflection + " ";
        assertThat(browser.text(form + ".diff-before")).isEqualTo("Launch is on Thursday");
        browser.type(form + "#content-" + reflection + "-c1", "Launch is on Saturday");
        browser.type(form + "#reason-" + reflection, "it moved again");
        browser.screenshot("inbox");
        browser.clickAndAwaitPage(form + "button.approve");

        assertThat(browser.text("#flash")).contains("approved with your edits");
        assertThat(browser.text("#count-reflections")).isEqualTo("0");
        assertThat(content(agent, space, fact)).isEqualTo("Launch is on Saturday");
        Map<String, Object> audit = Rest.get(agent, "/v1/spaces/" + space + "/audit?order=desc&limit=10")
                .json();
        assertThat(audit.toString()).contains("ReflectionDecided", "MemoryUpdated");
    }

    @Test
    void aUserApprovesSomeChangesAndRejectsAnotherReflectionWithAReason() throws Exception {
        String space = ConsoleHarness.space("partial");
        String agent = ConsoleHarness.issue("agent-" + space, Role.AGENT, List.of(space));
        String user = ConsoleHarness.issue("user-" + space, Role.USER, List.of(space));
        String fact = Rest.memory(agent, space, "Launch is on Thursday", "projects");
        String first = proposeReflection(space, fact);
        browser.signIn(user);
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            browser.go("/console/s/" + space + "/inbox");
            assertThat(browser.all("#reflection-" + first)).hasSize(1);
        });
        browser.click("#apply-" + first + "-c1"); // uncheck c1: only c2 applies
        browser.clickAndAwaitPage("#reflection-" + first + " button.approve");
        assertThat(browser.text("#flash")).contains("partly approved: c2");
        assertThat(content(agent, space, fact)).isEqualTo("Launch is on Thursday");

        String second = proposeReflection(space, fact, 10);
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            browser.go("/console/s/" + space + "/inbox");
            assertThat(browser.all("#reflection-" + second)).hasSize(1);
        });
        assertThat(browser.text("#reflection-" + second + " .milestone")).isEqualTo("evolution milestone: summary");
        browser.type("#reason-" + second, "not what happened");
        browser.clickAndAwaitPage("#reflection-" + second + " button.reject");
        assertThat(browser.text("#flash")).contains("rejected");
        Map<String, Object> decided =
                Rest.get(user, "/v1/spaces/" + space + "/reflections/" + second).json();
        assertThat(decided).containsEntry("status", "rejected").containsEntry("reason", "not what happened");
    }

    @Test
    void aUserGrantsOneConsentAndDeniesAnother() {
        String space = ConsoleHarness.space("consent");
        String agent = ConsoleHarness.issue("agent-" + space, Role.AGENT, List.of(space));
        String user = ConsoleHarness.issue("user-" + space, Role.USER, List.of(space));
        String profile = "/v1/spaces/" + space + "/profile/";
        assertThat(Rest.put(agent, profile + "preferred_name", Map.of("value", "Annie", "source", "chat"))
                        .status())
                .isEqualTo(202);
        assertThat(Rest.put(agent, profile + "city", Map.of("value", "Lisbon", "source", "chat"))
                        .status())
                .isEqualTo(202);

        browser.signIn(user);
        browser.go("/console/s/" + space + "/inbox");
        assertThat(browser.text("#count-consents")).isEqualTo("2");
        List<WebElement> consents = browser.all("article.consent");
        assertThat(consents)
                .extracting(c -> c.findElement(org.openqa.selenium.By.cssSelector(".time-left"))
                        .getText())
                .allSatisfy(left -> assertThat(left).matches("[67] d \\d+ h left"));
        browser.clickAndAwaitPage("article.consent:nth-of-type(1) button.grant");
        assertThat(browser.text("#flash")).contains("granted");
        browser.type("article.consent input[name=reason]", "not my city");
        browser.clickAndAwaitPage("article.consent button.deny");
        assertThat(browser.text("#flash")).contains("denied");
        assertThat(browser.text("#count-consents")).isEqualTo("0");

        assertThat(Rest.get(user, profile + "preferred_name").json()).containsEntry("value", "Annie");
        assertThat(Rest.get(user, profile + "city").status()).isEqualTo(404);
    }

    @Test
    void aUserAcknowledgesACriticalAlertAndConsentsToAnAdminsGrantRequest() {
        String space = ConsoleHarness.space("alert");
        String agent = ConsoleHarness.issue("agent-" + space, Role.AGENT, List.of(space));
        String user = ConsoleHarness.issue("user-" + space, Role.USER, List.of(space));
        String admin = ConsoleHarness.issue("admin-" + space, Role.ADMIN, List.of(space));
        assertThat(Rest.put(agent, "/v1/spaces/" + space + "/blocks/persona", Map.of("content", "I obey anyone"))
                        .status())
                .isIn(200, 201);
        Rest.Answer grant = Rest.post(
                admin,
                "/v1/spaces/" + space + "/grants",
                Map.of("purpose", "debug a bad merge", "duration_seconds", 3600));
        assertThat(grant.status()).as(grant.raw()).isIn(200, 201);

        browser.signIn(user);
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            browser.go("/console/s/" + space + "/inbox");
            assertThat(browser.text("#count-alerts")).isEqualTo("1");
        });
        assertThat(browser.text("article.alert")).contains("persona", "agent:agent-" + space);
        assertThat(browser.text("#count-grants")).isEqualTo("1");
        assertThat(browser.text("article.grant")).contains("debug a bad merge");
        browser.clickAndAwaitPage("article.alert button");
        assertThat(browser.text("#flash")).contains("acknowledged");
        browser.clickAndAwaitPage("article.grant button");
        assertThat(browser.text("#flash")).contains("active");
        assertThat(browser.text("#count-alerts")).isEqualTo("0");
        assertThat(browser.text("#count-grants")).isEqualTo("0");
    }

    @Test
    void anAdminsInboxShowsNoContentAndAnAgentsHasNoActions() throws Exception {
        String space = ConsoleHarness.space("roles");
        String agent = ConsoleHarness.issue("agent-" + space, Role.AGENT, List.of(space));
        String admin = ConsoleHarness.issue("admin-" + space, Role.ADMIN, List.of(space));
        String fact = Rest.memory(agent, space, "The vault code is 4711", "projects");
        proposeReflection(space, fact);

        browser.signIn(admin);
        browser.go("/console/s/" + space + "/inbox");
        assertThat(browser.all("#reflections")).as("reflections are content").isEmpty();
        assertThat(browser.source()).doesNotContain("4711", "Launch is on Friday");

        browser.signIn(agent);
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            browser.go("/console/s/" + space + "/inbox");
            assertThat(browser.text("#count-reflections")).isEqualTo("1");
        });
        assertThat(browser.text("#who")).contains("read-only");
        assertThat(browser.all("#reflections button")).isEmpty();
    }

    @Test
    void memoryContentWithScriptsImagesLinksAndMarkupRendersInert() throws Exception {
        String space = ConsoleHarness.space("inject");
        String agent = ConsoleHarness.issue("agent-" + space, Role.AGENT, List.of(space));
        String user = ConsoleHarness.issue("user-" + space, Role.USER, List.of(space));
        String payload = String.join(
                "\n",
                "<script>window.pwned=1;document.title='pwned'</script>",
                "<img src=x onerror=\"window.pwned=2;document.title='pwned'\">",
                "[click me](javascript:window.pwned=3) <a href=\"javascript:window.pwned=4\">link</a>",
                "</textarea><script>window.pwned=5</script><style>body{display:none}</style>",
                "**bold** # heading <b>markup</b>");
        String fact = Rest.memory(agent, space, payload, "projects");
        String reflection = proposeReflection(space, fact);
        assertThat(Rest.put(
                                agent,
                                "/v1/spaces/" + space + "/profile/preferred_name",
                                Map.of("value", "<img src=x onerror=window.pwned=6>", "source", "chat"))
                        .status())
                .isEqualTo(202);

        browser.signIn(user);
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            browser.go("/console/s/" + space + "/inbox");
            assertThat(browser.all("#reflection-" + reflection)).hasSize(1);
        });

        assertThat(browser.text("#reflection-" + reflection + " .diff-before")).isEqualTo(payload);
        assertThat(browser.text("article.consent .value")).isEqualTo("<img src=x onerror=window.pwned=6>");
        var js = browser.driver();
        assertThat(js.executeScript("return typeof window.pwned"))
                .as("no payload ran")
                .isEqualTo("undefined");
        assertThat(js.getTitle()).startsWith("Inbox");
        assertThat(js.executeScript("return document.querySelectorAll('script, img, style, b').length"))
                .as("no element came from memory content")
                .isEqualTo(0L);
        assertThat(js.executeScript("return document.querySelectorAll('a[href^=\"javascript\"]').length"))
                .isEqualTo(0L);
        assertThat(browser.find("body").isDisplayed()).isTrue();
        assertThat(browser.source()).doesNotContain("<script>window.pwned");
        // no alert is open: the driver answers for the page
        assertThat(js.getCurrentUrl()).endsWith("/inbox");
        browser.screenshot("inbox-injection");
    }

    @Test
    void aUserKeyOpeningAnotherSpacesPageGetsThe403Page() {
        String mine = ConsoleHarness.space("mine");
        String theirs = ConsoleHarness.space("theirs");
        String user = ConsoleHarness.issue("user-" + mine, Role.USER, List.of(mine));

        browser.signIn(user);
        browser.go("/console/s/" + theirs + "/inbox");

        assertThat(browser.text("#error-code")).isEqualTo("SPACE_NOT_ALLOWED");
        assertThat(browser.text("h1")).startsWith("403");
        assertThat(Rest.raw(java.net.http.HttpRequest.newBuilder(Rest.uri("/console/s/" + theirs + "/inbox"))
                                .header(
                                        "Cookie",
                                        "mc_console="
                                                + browser.driver()
                                                        .manage()
                                                        .getCookieNamed("mc_console")
                                                        .getValue())
                                .GET())
                        .statusCode())
                .isEqualTo(403);
        browser.screenshot("forbidden");
    }
}
