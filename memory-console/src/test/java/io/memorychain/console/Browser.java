package io.memorychain.console;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's Chromium driven by its own ChromeDriver, both named explicitly so that Selenium Manager never looks for (or
 * downloads) a browser: headless, a fresh profile under target/, no network of its own.
 */
public final class Browser implements AutoCloseable {

    public static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    public static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    public static final Path SCREENSHOTS = Path.of("target", "console-screenshots");

    private final ChromeDriver driver;
    private final String base;

    private Browser(ChromeDriver driver, String base) {
        this.driver = driver;
        this.base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    }

    /** Why no browser can run here, or null when both binaries are installed. */
    public static String missing() {
        if (!Files.isExecutable(CHROMIUM)) {
            return CHROMIUM + " is not installed (Debian package chromium)";
        }
        if (!Files.isExecutable(CHROMEDRIVER)) {
            return CHROMEDRIVER + " is not installed (Debian package chromium-driver)";
        }
        return null;
    }

    public static Browser open(String baseUrl) {
        Path profile =
                Path.of("target", "chromium-profile-" + UUID.randomUUID()).toAbsolutePath();
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--window-size=1280,900",
                "--user-data-dir=" + profile);
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        return new Browser(driver, baseUrl);
    }

    public ChromeDriver driver() {
        return driver;
    }

    public void go(String path) {
        driver.get(base + path);
    }

    public String path() {
        String url = driver.getCurrentUrl();
        return url.startsWith(base) ? url.substring(base.length()) : url;
    }

    public WebElement find(String css) {
        return driver.findElement(By.cssSelector(css));
    }

    public List<WebElement> all(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    public String text(String css) {
        return find(css).getText();
    }

    public String pageText() {
        return find("body").getText();
    }

    public String source() {
        return driver.getPageSource();
    }

    /** Fills a field (clearing it first). */
    public void type(String css, String text) {
        WebElement field = find(css);
        field.clear();
        field.sendKeys(text);
    }

    public void click(String css) {
        find(css).click();
    }

    /**
     * Signs out whoever is signed in (cookies gone), then signs in with the key and waits for the answer page: a
     * navigation started right after the click could otherwise cancel the form's post and its session cookie.
     */
    public void signIn(String key) {
        driver.manage().deleteAllCookies();
        go("/console/login");
        type("#key", key);
        clickAndAwaitPage("#sign-in");
    }

    /** Clicks a control that loads a new page (a form's submit, a link) and waits until that page has loaded. */
    public void clickAndAwaitPage(String css) {
        driver.executeScript("window.leaving = true");
        click(css);
        new WebDriverWait(driver, Duration.ofSeconds(30))
                .ignoring(WebDriverException.class)
                .until(d -> Boolean.TRUE.equals(driver.executeScript(
                        "return window.leaving === undefined && document.readyState === 'complete'")));
    }

    /** A PNG of the current page under target/console-screenshots. */
    public Path screenshot(String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            File png = driver.getScreenshotAs(OutputType.FILE);
            Path target = SCREENSHOTS.resolve(name + ".png");
            Files.copy(png.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        driver.quit();
    }
}
