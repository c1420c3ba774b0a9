package io.memorychain.console.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.api.auth.Role;
import io.memorychain.console.Accessibility;
import io.memorychain.console.BrowserIT;
import io.memorychain.console.ConsoleHarness;
import io.memorychain.console.Rest;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import java.net.http.HttpResponse;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.WebElement;

/** The audit pages: the timeline's filters and paging, the monthly digest, the export downloads, the roles. */
class ConsoleAuditIT extends BrowserIT {

    private static List<String> column(String css) {
        return browser.all(css).stream().map(WebElement::getText).toList();
    }

    private static List<Long> seqs() {
        return column("tr.entry td:first-child").stream().map(Long::parseLong).toList();
    }

    @Test
    void aUserFiltersAndPagesTheTimelineReadsTheDigestAndDownloadsTheExports() throws Exception {
        String space = ConsoleHarness.space("audit");
        String agent = ConsoleHarness.issue("agent-" + space, Role.AGENT, List.of(space));
        String helper = ConsoleHarness.issue("helper-" + space, Role.AGENT, List.of(space));
        String user = ConsoleHarness.issue("user-" + space, Role.USER, List.of(space));
        String attack = Rest.memory(agent, space, History.PAYLOAD, "projects");
        String standup = Rest.memory(helper, space, "Standup moved to 10:00", "projects");
        assertThat(Rest.put(
                                agent,
                                "/v1/spaces/" + space + "/blocks/goals",
                                Map.of("content", "Ship the console by Friday"))
                        .status())
                .isBetween(200, 202);
        History.delete(helper, space, standup);
        long head = History.head(agent, space);
        String audit = "/console/s/" + space + "/audit";

        browser.signIn(user);
        browser.go(audit);
        List<Long> all = seqs();
        assertThat(all)
                .as("newest first, to the space's head")
                .hasSize(4)
                .startsWith(head)
                .isSortedAccordingTo(java.util.Comparator.reverseOrder());
        assertThat(browser.text("#entry-" + head + " .event-type")).isEqualTo("MemoryDeleted");
        History.assertInert(browser);
        browser.screenshot("audit-timeline");
        Accessibility.assertNoSeriousViolations(browser.driver());

        browser.type("#f-actor", "agent:helper-" + space);
        browser.clickAndAwaitPage("#apply-filters");
        assertThat(browser.path()).as("a bookmarkable address").contains("actor=agent%3Ahelper-" + space);
        assertThat(column("tr.entry .actor")).hasSize(2).containsOnly("agent:helper-" + space);

        browser.go(audit + "?type=BlockUpdated");
        assertThat(column("tr.entry .event-type")).containsExactly("BlockUpdated");
        browser.go(audit + "?label=goals");
        assertThat(column("tr.entry .event-type")).containsExactly("BlockUpdated");
        browser.go(audit + "?memory=" + standup);
        assertThat(column("tr.entry .event-type")).containsExactly("MemoryDeleted", "MemoryCreated");
        String today = LocalDate.now(ZoneOffset.UTC).toString();
        browser.go(audit + "?from=" + today + "&to=" + today);
        assertThat(seqs()).isEqualTo(all);
        browser.go(audit + "?from=" + LocalDate.now(ZoneOffset.UTC).plusDays(1));
        assertThat(browser.all("#no-entries")).hasSize(1);
        browser.go(audit + "?from=yesterday");
        assertThat(browser.text("#error-code")).isEqualTo("INVALID_ARGUMENT");

        browser.go(audit + "?limit=3");
        assertThat(seqs()).isEqualTo(all.subList(0, 3));
        browser.clickAndAwaitPage("#older");
        assertThat(seqs()).isEqualTo(all.subList(3, 4));
        assertThat(browser.all("#older")).isEmpty();
        browser.clickAndAwaitPage("#newest");
        assertThat(seqs()).isEqualTo(all.subList(0, 3));

        browser.clickAndAwaitPage("#digest-link");
        assertThat(browser.text("#digest-events")).isEqualTo("4");
        assertThat(column("#by-type td:first-child")).contains("MemoryCreated", "MemoryDeleted", "BlockUpdated");
        assertThat(column("#by-actor td:first-child")).contains("agent:agent-" + space, "agent:helper-" + space);
        assertThat(column("#block-changes li")).hasSize(1);
        History.assertInert(browser);
        browser.screenshot("audit-digest");
        Accessibility.assertNoSeriousViolations(browser.driver());
        HttpResponse<String> digestMd =
                History.fetch(browser, browser.find("#digest-markdown").getAttribute("href"));
        assertThat(digestMd.statusCode()).isEqualTo(200);
        assertThat(digestMd.headers().firstValue("Content-Disposition").orElse(""))
                .startsWith("attachment;")
                .endsWith(".md\"");
        assertThat(digestMd.body()).startsWith("# Audit Digest").contains("- 4 chain events");

        browser.go(audit);
        HttpResponse<String> json =
                History.fetch(browser, browser.find("#export-json").getAttribute("href"));
        assertThat(json.statusCode()).isEqualTo(200);
        assertThat(json.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        assertThat(json.headers().firstValue("Content-Disposition"))
                .hasValue("attachment; filename=\"" + space + "-export-seq-" + head + ".json\"");
        Map<String, Object> export = ConsoleHarness.bean(JsonMapper.class)
                .readValue(json.body(), Argument.mapOf(String.class, Object.class));
        assertThat(export).containsEntry("format", "memory-chain-export/1").containsEntry("space", space);
        assertThat(export.get("memories").toString()).contains(attack).doesNotContain("Standup");
        assertThat(export.get("blocks").toString()).contains("Ship the console by Friday");
        HttpResponse<String> markdown =
                History.fetch(browser, browser.find("#export-markdown").getAttribute("href"));
        assertThat(markdown.statusCode()).isEqualTo(200);
        assertThat(markdown.headers().firstValue("Content-Type").orElse("")).startsWith("text/markdown");
        assertThat(markdown.headers().firstValue("Content-Disposition"))
                .hasValue("attachment; filename=\"" + space + "-export.md\"");
        assertThat(markdown.body()).contains("Ship the console by Friday", "<script>window.pwned=1");
    }

    @Test
    void anAdminGetsThe403PageForTheLogAndNoExportWithoutAGrant() {
        String space = ConsoleHarness.space("audit-admin");
        String admin = ConsoleHarness.issue("admin-" + space, Role.ADMIN, List.of(space));
        browser.signIn(admin);
        browser.go("/console/s/" + space + "/audit");
        assertThat(browser.text("h1")).startsWith("403");
        assertThat(browser.text("#error-code")).isEqualTo("ROLE_NOT_ALLOWED");
        HttpResponse<String> export = History.fetch(browser, "/console/s/" + space + "/audit/export?format=json");
        assertThat(export.statusCode()).isEqualTo(403);
        assertThat(export.body()).contains("GRANT_REQUIRED");
        assertThat(export.headers().firstValue("Content-Disposition")).isEmpty();
    }
}
