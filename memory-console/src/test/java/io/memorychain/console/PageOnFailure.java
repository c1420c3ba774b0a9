package io.memorychain.console;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When a browser test fails, the page it was on: its address and text in the log, and its source and a screenshot under
 * target/console-screenshots (named after the test), so that a failure in CI can be read without a rerun.
 */
public final class PageOnFailure implements TestWatcher {

    private static final Logger log = LoggerFactory.getLogger(PageOnFailure.class);
    private static final int MAX_TEXT = 2_000;

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        Browser browser = BrowserIT.browser;
        if (browser == null) {
            return;
        }
        String name = "failed-" + context.getRequiredTestClass().getSimpleName() + "-"
                + context.getRequiredTestMethod().getName();
        try {
            String text = browser.pageText();
            log.error(
                    "{} failed on {}; the page read:\n{}",
                    name,
                    browser.driver().getCurrentUrl(),
                    text.length() > MAX_TEXT ? text.substring(0, MAX_TEXT) + "..." : text);
            Path shot = browser.screenshot(name);
            Files.writeString(shot.resolveSibling(name + ".html"), browser.source(), StandardCharsets.UTF_8);
        } catch (RuntimeException | java.io.IOException e) {
            log.error("{} failed and its page could not be kept: {}", name, e.toString());
        }
    }
}
