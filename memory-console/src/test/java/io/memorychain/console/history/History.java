package io.memorychain.console.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.console.Browser;
import io.memorychain.console.Rest;
import io.memorychain.console.session.SessionFilter;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What the audit and time machine tests need besides {@link Rest}: changes, the head, downloads with the session. */
final class History {

    private History() {}

    static void patch(String key, String space, String id, String content) {
        HttpResponse<String> r = Rest.raw(HttpRequest.newBuilder(Rest.uri("/v1/spaces/" + space + "/memories/" + id))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"content\":\"" + content + "\"}")));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }

    static void delete(String key, String space, String id) {
        HttpResponse<String> r = Rest.raw(HttpRequest.newBuilder(Rest.uri("/v1/spaces/" + space + "/memories/" + id))
                .header("Authorization", "Bearer " + key)
                .DELETE());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }

    /** The seq of the space's last event, as the REST audit log shows it. */
    @SuppressWarnings("unchecked")
    static long head(String key, String space) {
        List<Map<String, Object>> items =
                (List<Map<String, Object>>) Rest.get(key, "/v1/spaces/" + space + "/audit?order=desc&limit=1")
                        .json()
                        .get("items");
        return ((Number) items.get(0).get("seq")).longValue();
    }

    /** The space's active memories as REST lists them now ({@code query} empty) or at a point: id -> content. */
    @SuppressWarnings("unchecked")
    static Map<String, String> contents(String key, String space, String query) {
        Map<String, Object> page = Rest.get(key, "/v1/spaces/" + space + "/memories?limit=500" + query)
                .json();
        Map<String, String> out = new TreeMap<>();
        for (Map<String, Object> m : (List<Map<String, Object>>) page.get("items")) {
            out.put((String) m.get("id"), (String) m.get("content"));
        }
        return out;
    }

    /** A link of the page fetched as the browser would, with its session cookie (a download's bytes, headers). */
    static HttpResponse<String> fetch(Browser browser, String href) {
        String session =
                browser.driver().manage().getCookieNamed(SessionFilter.COOKIE).getValue();
        java.net.URI uri = href.startsWith("http") ? java.net.URI.create(href) : Rest.uri(href);
        return Rest.raw(HttpRequest.newBuilder(uri)
                .header("Cookie", SessionFilter.COOKIE + "=" + session)
                .GET());
    }

    /** Whether the page ran none of the injected scripts and holds no element that came from content. */
    static void assertInert(Browser browser) {
        var js = browser.driver();
        assertThat(js.executeScript("return typeof window.pwned"))
                .as("no payload ran")
                .isEqualTo("undefined");
        assertThat(js.executeScript("return document.querySelectorAll('main script, main img, main style, main b, "
                        + "main iframe').length"))
                .as("no element came from memory content")
                .isEqualTo(0L);
        assertThat(js.executeScript("return document.querySelectorAll('a[href^=\"javascript\"]').length"))
                .isEqualTo(0L);
        assertThat(js.getTitle()).doesNotContain("pwned");
    }

    /** Content an agent wrote to attack whoever reads it. */
    static final String PAYLOAD = String.join(
            "\n",
            "<script>window.pwned=1;document.title='pwned'</script>",
            "<img src=x onerror=\"window.pwned=2;document.title='pwned'\">",
            "[click me](javascript:window.pwned=3) <a href=\"javascript:window.pwned=4\">link</a>",
            "</td></table><script>window.pwned=5</script><style>body{display:none}</style>",
            "**bold** # heading <b>markup</b> <iframe src=\"javascript:window.pwned=6\"></iframe>");
}
