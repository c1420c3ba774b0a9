package io.memorychain.console.web;

import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.output.StringOutput;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import jakarta.inject.Singleton;
import java.util.Map;

/**
 * Renders the console's JTE templates, compiled to classes at build time (src/main/jte) with HTML output escaping:
 * every {@code ${...}} is escaped for the context it is written in, and no template writes raw content.
 */
@Singleton
public class Pages {

    public static final String PACKAGE = "io.memorychain.console.templates";
    private static final MediaType HTML = MediaType.of("text/html;charset=utf-8");

    private final TemplateEngine engine =
            TemplateEngine.createPrecompiled(null, ContentType.Html, Pages.class.getClassLoader(), PACKAGE);

    /** The template ({@code name.jte}) rendered with these parameters. */
    public String render(String template, Map<String, Object> params) {
        StringOutput out = new StringOutput();
        engine.render(template + ".jte", params, out);
        return out.toString();
    }

    public MutableHttpResponse<String> page(HttpStatus status, String template, Map<String, Object> params) {
        return HttpResponse.<String>status(status).contentType(HTML).body(render(template, params));
    }

    public MutableHttpResponse<String> ok(String template, Map<String, Object> params) {
        return page(HttpStatus.OK, template, params);
    }
}
