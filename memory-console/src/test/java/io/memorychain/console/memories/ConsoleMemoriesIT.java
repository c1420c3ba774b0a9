package io.memorychain.console.memories;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.api.auth.Role;
import io.memorychain.console.Accessibility;
import io.memorychain.console.BrowserIT;
import io.memorychain.console.ConsoleHarness;
import io.memorychain.console.Rest;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** The Memories pages: search and list, the memory page, pin, erase with its proof, roles and injected content. */
class ConsoleMemoriesIT extends BrowserIT {

    @SuppressWarnings("unchecked")
    private static String create(String agent, String space, String content, String category, List<String> tags) {
        Rest.Answer created = Rest.post(
                agent,
                "/v1/spaces/" + space + "/memories",
                Map.of("content", content, "category", category, "tags", tags, "importance", 3));
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        return (String) ((Map<String, Object>) created.json().get("memory")).get("id");
    }

    private static void link(String agent, String space, String from, String to) {
        Rest.Answer linked = Rest.post(agent, "/v1/spaces/" + space + "/memories/" + from + "/links", Map.of("to", to));
        assertThat(linked.status()).as(linked.raw()).isIn(200, 201);
    }

    private static String searchPath(String space, String query) {
        return "/console/s/" + space + "/memories?q=" + URLEncoder.encode(query, StandardCharsets.UTF_8);
    }

    /** Searches until the index has caught up with the memory (embedding is asynchronous). */
    private static void awaitFound(String space, String query, String id) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> {
                    browser.go(searchPath(space, query));
                    assertThat(browser.all("#row-" + id)).hasSize(1);
                });
    }

    /** Brings a section to the top of the viewport for the screenshot. */
    private static void scrollTo(String css) {
        browser.driver().executeScript("arguments[0].scrollIntoView()", browser.find(css));
    }

    @Test
    void aUserErasesAMemoryAndSeesItsProofAndItsTextIsGoneFromEveryPage() {
        String space = ConsoleHarness.space("erase");
        String agent = ConsoleHarness.issue("agent-" + space, Role.AGENT, List.of(space));
        String user = ConsoleHarness.issue("user-" + space, Role.USER, List.of(space));
        String secret = "Ana's passport number is X4711Z";
        String id = create(agent, space, secret, "personal", List.of("travel"));
        String other = create(agent, space, "Ana travels to Lisbon in May", "personal", List.of("travel"));
        link(agent, space, other, id);

        browser.signIn(user);
        awaitFound(space, "passport number", id);
        browser.go("/console/s/" + space + "/memories/" + id);
        assertThat(browser.text("#memory-content")).isEqualTo(secret);
        browser.clickAndAwaitPage("#action-erase");
        assertThat(browser.path()).endsWith("/memories/" + id + "/erase");
        browser.type("#erase-reason", "the user asked to forget the passport");
        browser.click("#erase-confirm");
        browser.clickAndAwaitPage("#erase-for-good");

        assertThat(browser.path()).endsWith("/memories/" + id);
        assertThat(browser.text("#flash")).contains("Erased for good");
        assertThat(browser.text("#memory-content")).isEqualTo("[erased]");
        assertThat(browser.text("#proof-reason")).isEqualTo("the user asked to forget the passport");
        assertThat(browser.text("#proof-key-record")).startsWith("destroyed");
        assertThat(browser.text("#proof-chain")).startsWith("yes");
        assertThat(browser.all("#actions")).as("a tombstone has no actions").isEmpty();
        scrollTo("#erasure-proof");
        browser.screenshot("memory-erasure-proof");
        Accessibility.assertNoSeriousViolations(browser.driver());
        assertThat(browser.source()).doesNotContain("X4711Z");

        for (String page : List.of(
                "/memories",
                "/memories?state=soft_deleted",
                "/memories?state=soft_deleted&tags=travel",
                "/memories/" + other,
                "/inbox",
                "/audit")) {
            browser.go("/console/s/" + space + page);
            assertThat(browser.source()).as(page).doesNotContain("X4711Z", "passport number is");
        }
        browser.go(searchPath(space, "passport number"));
        assertThat(browser.source()).doesNotContain("X4711Z");
        assertThat(browser.all("#row-" + id)).isEmpty();
        assertThat(Rest.get(user, "/v1/spaces/" + space + "/audit?order=desc&limit=50")
                        .raw())
                .doesNotContain("X4711Z");
    }

    @Test
    void aUserSearchesWithFiltersPagesTheListAndReadsAMemorysVersionsRelationsAndProvenance() {
        String space = ConsoleHarness.space("browse");
        String agent = ConsoleHarness.issue("agent-" + space, Role.AGENT, List.of(space));
        String user = ConsoleHarness.issue("user-" + space, Role.USER, List.of(space));
        String launch = create(agent, space, "Launch is on Thursday at noon", "projects", List.of("launch", "q3"));
        String review = create(agent, space, "The launch review needs Ana's sign-off", "projects", List.of("launch"));
        String ana = create(agent, space, "Ana leads the design team", "people", List.of("team"));
        for (int i = 0; i < 20; i++) {
            create(agent, space, "Filler note number " + i, "notes", List.of("filler"));
        }
        Rest.Answer patched =
                Rest.raw(java.net.http.HttpRequest.newBuilder(Rest.uri("/v1/spaces/" + space + "/memories/" + launch))
                                                .header("Authorization", "Bearer " + agent)
                                                .header("Content-Type", "application/json")
                                                .method(
                                                        "PATCH",
                                                        java.net.http.HttpRequest.BodyPublishers.ofString(
                                                                "{\"content\":\"Launch is on Friday at noon\"}")))
                                        .statusCode()
                                == 200
                        ? null
                        : Rest.get(agent, "/v1/spaces/" + space + "/memories/" + launch);
        assertThat(patched).as("PATCH answered 200").isNull();
        link(agent, space, launch, review);
        link(agent, space, review, ana);

        browser.signIn(user);
        browser.go("/console/s/" + space + "/memories");
        assertThat(browser.all("tr.memory-row")).hasSize(20);
        assertThat(browser.all("#previous-page")).isEmpty();
        browser.screenshot("memories-list");
        Accessibility.assertNoSeriousViolations(browser.driver());
        browser.clickAndAwaitPage("#next-page");
        assertThat(browser.all("tr.memory-row")).hasSize(3);
        assertThat(browser.all("#next-page")).isEmpty();
        browser.clickAndAwaitPage("#previous-page");
        assertThat(browser.all("tr.memory-row")).hasSize(20);
        browser.go("/console/s/" + space + "/memories?tags=launch&category=projects");
        assertThat(browser.all("tr.memory-row"))
                .extracting(r -> r.getAttribute("id"))
                .containsExactly("row-" + launch, "row-" + review);

        awaitFound(space, "when is the launch", launch);
        browser.go(searchPath(space, "when is the launch") + "&category=projects&tags=q3&from=2000-01-01");
        assertThat(browser.all("tr.memory-row"))
                .extracting(r -> r.getAttribute("id"))
                .containsExactly("row-" + launch);
        assertThat(browser.find("#f-category").getAttribute("value")).isEqualTo("projects");
        browser.screenshot("memories-search");
        Accessibility.assertNoSeriousViolations(browser.driver());
        browser.go(searchPath(space, "when is the launch") + "&category=projects&kind=procedural");
        assertThat(browser.all("#no-results")).hasSize(1);
        browser.go(searchPath(space, "when is the launch") + "&to=2001-01-01");
        assertThat(browser.all("tr.memory-row")).isEmpty();

        browser.go("/console/s/" + space + "/memories/" + launch);
        String diff = browser.text("#versions article.version:first-of-type .diff");
        assertThat(diff).contains("[removed: Thursday", "[added: Friday");
        assertThat(browser.all("#versions del")).isNotEmpty();
        assertThat(browser.all("tr.hop-1 a.related-link"))
                .extracting(a -> a.getText())
                .containsExactly(review);
        assertThat(browser.all("tr.hop-2 a.related-link"))
                .extracting(a -> a.getText())
                .containsExactly(ana);
        assertThat(browser.text("#relations")).contains("Ana leads the design team");
        assertThat(browser.text("#provenance-table")).contains("MemoryCreated", "MemoryUpdated", "not checked");
        browser.clickAndAwaitPage("#verify-chain");
        assertThat(browser.text("#chain-verdict")).isEqualTo("Chain verified");
        assertThat(browser.all("#provenance-table td.verified"))
                .extracting(td -> td.getText())
                .containsOnly("yes");
        assertThat(browser.all("#provenance-table td.mono"))
                .allSatisfy(td -> assertThat(td.getText()).matches("[0-9a-f]{64}"));
        browser.clickAndAwaitPage("#action-pin");
        assertThat(browser.text("#flash")).isEqualTo("Pinned.");
        assertThat(browser.text("#memory-flags")).startsWith("pinned");
        scrollTo("#versions");
        browser.screenshot("memory-page");
        Accessibility.assertNoSeriousViolations(browser.driver());
        browser.clickAndAwaitPage("tr.hop-2 a.related-link");
        assertThat(browser.text("#memory-content")).isEqualTo("Ana leads the design team");
    }

    @Test
    void anAgentSeesNoButtonsAnAdminNeedsAGrantAndInjectedContentRendersInert() {
        String space = ConsoleHarness.space("inert");
        String agent = ConsoleHarness.issue("agent-" + space, Role.AGENT, List.of(space));
        String admin = ConsoleHarness.issue("admin-" + space, Role.ADMIN, List.of(space));
        String payload = String.join(
                "\n",
                "<script>window.pwned=1;document.title='pwned'</script>",
                "<img src=x onerror=\"window.pwned=2;document.title='pwned'\">",
                "[click me](javascript:window.pwned=3) <a href=\"javascript:window.pwned=4\">link</a>",
                "</div></td><script>window.pwned=5</script><style>body{display:none}</style>",
                "**bold** # heading <b>markup</b>");
        String id = create(agent, space, payload, "projects", List.of("<i>tag</i>"));
        Rest.Answer patched =
                Rest.raw(java.net.http.HttpRequest.newBuilder(Rest.uri("/v1/spaces/" + space + "/memories/" + id))
                                                .header("Authorization", "Bearer " + agent)
                                                .header("Content-Type", "application/json")
                                                .method(
                                                        "PATCH",
                                                        java.net.http.HttpRequest.BodyPublishers.ofString(
                                                                "{\"content\":\"<svg onload=window.pwned=6>\"}")))
                                        .statusCode()
                                == 200
                        ? null
                        : Rest.get(agent, "/v1/spaces/" + space + "/memories/" + id);
        assertThat(patched).as("PATCH answered 200").isNull();

        browser.signIn(agent);
        for (String page : List.of("/memories?state=superseded", "/memories", "/memories/" + id)) {
            browser.go("/console/s/" + space + page);
            var js = browser.driver();
            assertThat(js.executeScript("return typeof window.pwned")).as(page).isEqualTo("undefined");
            assertThat(js.executeScript("return document.querySelectorAll('script, img, style, b, i, svg').length"))
                    .as(page + ": no element came from memory content")
                    .isEqualTo(0L);
            assertThat(js.executeScript("return document.querySelectorAll('a[href^=\"javascript\"]').length"))
                    .isEqualTo(0L);
        }
        assertThat(browser.text("#memory-content")).isEqualTo("<svg onload=window.pwned=6>");
        assertThat(browser.text("#versions")).contains("<script>window.pwned=1");
        assertThat(browser.text("#who")).contains("read-only");
        assertThat(browser.all("#actions")).isEmpty();
        assertThat(browser.all("main form[method=post], #action-erase")).isEmpty();
        browser.screenshot("memory-injection");

        browser.signIn(admin);
        browser.go("/console/s/" + space + "/memories/" + id);
        assertThat(browser.text("#error-code")).isEqualTo("GRANT_REQUIRED");
        assertThat(browser.source()).doesNotContain("pwned");
    }
}
