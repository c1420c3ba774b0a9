package io.memorychain.api.routing;

import io.memorychain.api.auth.AuthFilter;
import io.memorychain.api.auth.Operation;
import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.backend.StandbyReads;
import io.memorychain.api.config.MemoryConfig;
import io.memorychain.api.error.ApiError;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.domain.Rules;
import io.memorychain.projector.view.SpaceOwner;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.annotation.Order;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes every REST call of a space to the instance that owns it (docs/architecture.md §19), in one place for all
 * controllers, once {@link AuthFilter} has authenticated the caller here (a caller this instance refuses is refused
 * without a hop; the owner authenticates the forwarded call again from the same {@code Authorization}): served here
 * when this instance runs the space's active projection task; forwarded once ({@link OwnerForwarder}) when another
 * instance does, writes included, so the owner's wait for its own view gives read-your-writes on every instance. When
 * the owner cannot answer (the partition moves, the owner is unreachable or rebalancing, or the request was already
 * forwarded and the ownership moved meanwhile), a GET is answered by a standby replica of the space's views, here or
 * one hop away, only when it has applied the caller's {@link RoutingHeaders#MIN_SEQ}, and says so
 * ({@link RoutingHeaders#SERVED_FROM}, {@link RoutingHeaders#APPLIED_SEQ}); anything else is 503 {@code REBALANCING}
 * with {@code Retry-After}, never a silently stale read. The rule is {@link Route#decide}. With
 * {@link RoutingHeaders#MIN_SEQ} the owner also waits until it has applied the caller's last write.
 */
@ServerFilter("/v1/spaces/**")
@Order(SpaceRouting.ORDER)
class SpaceRouting {

    /** After {@code AuthFilter} where the filter order is honoured (the routing authenticates itself anyway). */
    public static final int ORDER = 100;

    private static final Logger log = LoggerFactory.getLogger(SpaceRouting.class);
    private static final Pattern SPACE_PATH = Pattern.compile("^/v1/spaces/([^/]+)(/.*)?$");
    /** How long a caller should wait before retrying during a rebalance, in seconds. */
    static final String RETRY_AFTER_SECONDS = "1";

    private final AuthFilter auth;
    private final MemoryBackend backend;
    private final OwnerForwarder forwarder;
    private final Duration waitLimit;
    private final String instanceId;

    public SpaceRouting(AuthFilter auth, MemoryBackend backend, OwnerForwarder forwarder, MemoryConfig config) {
        this.auth = auth;
        this.backend = backend;
        this.forwarder = forwarder;
        this.waitLimit = config.getWriteTimeout();
        this.instanceId = config.instanceName();
    }

    @RequestFilter
    @Order(ORDER)
    @ExecuteOn(TaskExecutors.BLOCKING)
    @Nullable
    public HttpResponse<?> route(HttpRequest<?> request) {
        HttpResponse<?> answered = answer(request);
        if (answered instanceof MutableHttpResponse<?> response) {
            servedBy(request, response); // the response filter does not see what this request filter answers
        }
        return answered;
    }

    @Nullable
    private HttpResponse<?> answer(HttpRequest<?> request) {
        Matcher path = SPACE_PATH.matcher(request.getPath());
        if (!path.matches() || !Rules.isValidSpace(path.group(1))) {
            return null; // the controller answers 400 for a bad space name
        }
        String space = path.group(1);
        // the caller is checked here, before any hop, whatever order the filters run in (AuthFilter skips it then)
        HttpResponse<?> refused = auth.authenticate(request);
        if (refused != null) {
            return refused;
        }
        try {
            long minSeq = minSeq(request);
            SpaceOwner owner = backend.ownerOf(space);
            boolean read = request.getMethod() == HttpMethod.GET || request.getMethod() == HttpMethod.HEAD;
            String from = request.getHeaders().get(RoutingHeaders.FORWARDED_BY);
            SpaceOwner.Endpoint self = backend.advertisedUrl()
                    .map(u -> new SpaceOwner.Endpoint(u.getHost(), u.getPort()))
                    .orElse(null);
            boolean unreachable = false;
            boolean stream = Operation.ofRest(request.getMethodName(), request.getPath())
                    .filter(o -> o == Operation.WATCH_CHANGES)
                    .isPresent();
            while (true) {
                boolean ownerAnswers = owner.kind() == SpaceOwner.Kind.LOCAL
                        || owner.kind() == SpaceOwner.Kind.REMOTE && from == null && !unreachable;
                OptionalLong standbyHere =
                        ownerAnswers || !read ? OptionalLong.empty() : backend.standbyAppliedSeq(space, owner);
                Route route = Route.decide(space, owner, read, from, unreachable, standbyHere, minSeq, self);
                if (stream && !(route instanceof Route.Serve)) {
                    return notHereForAStream(space, route);
                }
                if (route instanceof Route.Serve) {
                    return awaitApplied(space, minSeq);
                } else if (route instanceof Route.ServeStandby standby) {
                    request.setAttribute(StandbyReads.ATTRIBUTE, standby.appliedSeq());
                    return null;
                } else if (route instanceof Route.Rebalancing rebalancing) {
                    return rebalancing(rebalancing.message());
                } else if (route instanceof Route.ToStandby standbys) {
                    return toStandby(request, space, standbys);
                } else if (route instanceof Route.ToOwner toOwner) {
                    HttpResponse<?> answer = forward(request, space, toOwner.owner());
                    if (answer != null && !(read && rebalancing(answer))) {
                        return answer;
                    }
                    // nothing was sent, or the owner says it cannot answer now (it is stopping or restoring): a
                    // read may still be answered by a standby
                    unreachable = true;
                } else {
                    throw new IllegalStateException("unknown route " + route);
                }
            }
        } catch (ApiException e) {
            return error(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return error(new ApiException(ErrorCodes.UNAVAILABLE, "interrupted while routing"));
        }
    }

    /**
     * Names the instance whose views answered; a forwarded answer already names it. An answer from a standby copy also
     * says so ({@link RoutingHeaders#SERVED_FROM}) and at which applied seq ({@link RoutingHeaders#APPLIED_SEQ}).
     */
    @ResponseFilter
    public void servedBy(HttpRequest<?> request, MutableHttpResponse<?> response) {
        if (!response.getHeaders().contains(RoutingHeaders.SERVED_BY)) {
            response.getHeaders().add(RoutingHeaders.SERVED_BY, instanceId);
            request.getAttribute(StandbyReads.ATTRIBUTE, Long.class).ifPresent(seq -> {
                response.getHeaders().add(RoutingHeaders.SERVED_FROM, RoutingHeaders.STANDBY);
                response.getHeaders().add(RoutingHeaders.APPLIED_SEQ, String.valueOf(seq));
            });
        }
    }

    private static long minSeq(HttpRequest<?> request) {
        String value = request.getHeaders().get(RoutingHeaders.MIN_SEQ);
        if (value == null || value.isBlank()) {
            return 0;
        }
        try {
            long seq = Long.parseLong(value.trim());
            if (seq >= 0) {
                return seq;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw ApiException.invalid(RoutingHeaders.MIN_SEQ + " must be a seq (a whole number >= 0), not '"
                + io.memorychain.api.request.Texts.abbreviate(value) + "'");
    }

    /** Served here; with a min seq, once the views have applied it. */
    @Nullable
    private HttpResponse<?> awaitApplied(String space, long minSeq) throws InterruptedException {
        if (minSeq > 0 && !backend.views().awaitApplied(space, minSeq, waitLimit)) {
            MutableHttpResponse<?> response = error(new ApiException(
                    ErrorCodes.TIMEOUT,
                    "the views of space " + space + " have not applied seq " + minSeq + " within " + waitLimit + " ("
                            + RoutingHeaders.MIN_SEQ + ")"));
            return response.header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS);
        }
        return null;
    }

    /** The owner's answer, or null when the owner could not be reached (nothing was sent). */
    @Nullable
    private HttpResponse<?> forward(HttpRequest<?> request, String space, SpaceOwner.Endpoint owner)
            throws InterruptedException {
        URI ownerUrl = url(owner);
        try {
            return forwarder.forward(request, OwnerForwarder.body(request, waitLimit), ownerUrl);
        } catch (ConnectException | HttpConnectTimeoutException e) {
            log.info("Owner {} of space {} is not reachable: {}", ownerUrl, space, e.toString());
            return null;
        } catch (HttpTimeoutException e) {
            return error(
                            new ApiException(
                                    ErrorCodes.TIMEOUT,
                                    "the owner of space " + space + " (" + ownerUrl
                                            + ") did not answer within its timeout; retry a write with the same Idempotency-Key"))
                    .header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS);
        } catch (javax.net.ssl.SSLException e) {
            OwnerForwarder.logTlsFailure(ownerUrl, e);
            return rebalancing("the TLS handshake with the owner of space " + space + " (" + ownerUrl + ") failed; "
                    + "retry shortly");
        } catch (IOException e) {
            log.info("Forwarding to the owner {} of space {} failed: {}", ownerUrl, space, e.toString());
            return rebalancing("the call to the owner of space " + space + " (" + ownerUrl + ") failed: "
                    + e.getMessage() + "; retry a write with the same Idempotency-Key");
        }
    }

    /**
     * A change stream is served by the instance that projects the space only: a forwarded answer is relayed whole,
     * which an endless stream never is, and a standby copy is not followed as it applies. The owner elsewhere: 421
     * NOT_OWNER naming it (the client opens the stream there); no owner now: 503 REBALANCING (retry).
     */
    private static MutableHttpResponse<?> notHereForAStream(String space, Route route) {
        if (route instanceof Route.ToOwner toOwner) {
            return error(new ApiException(
                    ErrorCodes.NOT_OWNER,
                    "space " + space + " is served by the instance at "
                            + toOwner.owner().host() + ":" + toOwner.owner().port()
                            + ": open its change stream there"));
        }
        return rebalancing("the change stream of space " + space + " is served by the instance that owns it, and "
                + "none does here now");
    }

    /** Whether a forwarded call's answer is the owner's 503 REBALANCING (it no longer or not yet serves the space). */
    private static boolean rebalancing(HttpResponse<?> answer) {
        return answer.getStatus().getCode() == 503
                && answer.getBody(byte[].class)
                        .map(body -> new String(body, java.nio.charset.StandardCharsets.UTF_8)
                                .contains("\"code\":\"" + ErrorCodes.REBALANCING + "\""))
                        .orElse(false);
    }

    /** A read forwarded once to the first standby host that answers; it checks the caller's min seq itself. */
    private HttpResponse<?> toStandby(HttpRequest<?> request, String space, Route.ToStandby standbys)
            throws InterruptedException {
        for (SpaceOwner.Endpoint standby : standbys.standbys()) {
            URI url = url(standby);
            try {
                return forwarder.forward(request, new byte[0], url);
            } catch (IOException e) {
                log.info("Standby {} of space {} did not answer: {}", url, space, e.toString());
            }
        }
        return rebalancing(standbys.why() + "; no standby replica of it answered");
    }

    private URI url(SpaceOwner.Endpoint endpoint) {
        return OwnerForwarder.baseUrl(backend.advertisedUrl().orElseThrow(), endpoint);
    }

    private static MutableHttpResponse<?> rebalancing(String message) {
        return error(new ApiException(ErrorCodes.REBALANCING, message))
                .header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS);
    }

    private static MutableHttpResponse<ApiError> error(ApiException e) {
        return HttpResponse.<ApiError>status(e.status()).body(e.toError());
    }
}
