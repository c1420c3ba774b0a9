package io.memorychain.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;

/**
 * The automated accessibility check: axe-core (its axe.min.js, from the com.deque.html.axe-core:selenium test jar) run
 * inside the browser on the page as it is, failing on any serious or critical violation. WebDriver's script execution
 * is not subject to the page's Content-Security-Policy, so the check runs on the console's real pages (which allow no
 * inline or injected script of their own).
 */
public final class Accessibility {

    /** One violation as axe reports it: its rule, impact, help text and the first elements it found. */
    public record Violation(String id, String impact, String help, List<String> targets) {
        @Override
        public String toString() {
            return impact + " " + id + ": " + help + " at " + targets;
        }
    }

    private static final String AXE = load();
    private static final String RUN = """
            const done = arguments[arguments.length - 1];
            axe.run(document, {resultTypes: ['violations']})
              .then(r => done(r.violations.map(v => ({id: v.id, impact: v.impact || '', help: v.help,
                  targets: v.nodes.slice(0, 5).map(n => n.target.join(' '))}))))
              .catch(e => done('axe failed: ' + e));
            """;

    private Accessibility() {}

    /** Every violation axe finds on the current page. */
    @SuppressWarnings("unchecked")
    public static List<Violation> violations(WebDriver driver) {
        JavascriptExecutor js = (JavascriptExecutor) driver;
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(60));
        if (!Boolean.TRUE.equals(js.executeScript("return typeof window.axe === 'object'"))) {
            js.executeScript(AXE);
        }
        Object found = js.executeAsyncScript(RUN);
        if (!(found instanceof List<?> list)) {
            throw new IllegalStateException("axe-core did not run on " + driver.getCurrentUrl() + ": " + found);
        }
        return list.stream()
                .map(o -> (Map<String, Object>) o)
                .map(v -> new Violation(
                        (String) v.get("id"), (String) v.get("impact"), (String) v.get("help"), (List<String>)
                                v.get("targets")))
                .toList();
    }

    /** Fails on a serious or critical violation on the current page (moderate and minor ones are reported only). */
    public static void assertNoSeriousViolations(WebDriver driver) {
        List<Violation> all = violations(driver);
        List<Violation> serious = all.stream()
                .filter(v -> v.impact().equals("serious") || v.impact().equals("critical"))
                .toList();
        assertThat(serious)
                .as("serious or critical accessibility violations on %s (all: %s)", driver.getCurrentUrl(), all)
                .isEmpty();
    }

    private static String load() {
        try (InputStream in = Accessibility.class.getResourceAsStream("/axe.min.js")) {
            if (in == null) {
                throw new IllegalStateException(
                        "axe.min.js is not on the test classpath (com.deque.html.axe-core:selenium)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
