package io.memorychain.console;

import io.memorychain.events.testing.SharedKafka;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A console test in a real browser: the shared service ({@link ConsoleHarness}) and one Chromium per test class.
 * Without Chromium and ChromeDriver the tests are skipped with the reason, never passed.
 */
@Tag("integration")
@ExtendWith({SharedKafka.class, ConsoleHarness.class, PageOnFailure.class})
@Timeout(value = 3, unit = TimeUnit.MINUTES)
public abstract class BrowserIT {

    protected static Browser browser;

    @BeforeAll
    static void openBrowser() {
        String missing = Browser.missing();
        Assumptions.assumeTrue(missing == null, () -> "no browser to drive: " + missing);
        browser = Browser.open(ConsoleHarness.url());
    }

    @AfterAll
    static void closeBrowser() {
        if (browser != null) {
            browser.close();
            browser = null;
        }
    }
}
