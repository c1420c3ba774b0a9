package io.memorychain.console.session;

import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;

/**
 * Every console response: a strict Content-Security-Policy (no inline script or style, nothing from elsewhere, no
 * framing), no MIME sniffing, no referrer to other sites, no caching.
 */
@ServerFilter({"/console", "/console/**"})
public class SecurityHeaders {

    public static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "frame-ancestors 'none'; form-action 'self'; base-uri 'none'";

    public static final String REFERRER_POLICY = "same-origin";

    @ResponseFilter
    public void headers(MutableHttpResponse<?> response) {
        apply(response);
    }

    /** Sets the headers on a response (also on the ones a request filter answers with, which skip response filters). */
    public static MutableHttpResponse<?> apply(MutableHttpResponse<?> response) {
        response.header("Content-Security-Policy", CSP);
        response.header("X-Content-Type-Options", "nosniff");
        // same-origin, not no-referrer: under no-referrer Chromium sends "Origin: null" with the forms' POSTs, which
        // Micronaut's drive-by-localhost guard (CorsFilter) refuses with 403; same-origin sends no referrer elsewhere
        response.header("Referrer-Policy", REFERRER_POLICY);
        response.header("Cache-Control", "no-store");
        return response;
    }
}
