package io.memorychain.console.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.api.auth.Principal;
import io.memorychain.api.auth.Role;
import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.routing.OwnerGuard;
import io.memorychain.api.spaces.KnownSpaces;
import io.memorychain.console.ConsoleConfig;
import io.memorychain.console.session.ConsoleSessions;
import io.memorychain.console.session.SessionFilter;
import io.memorychain.projector.view.MemoryViews;
import io.memorychain.projector.view.SpaceOwner;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpRequest;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The console reads the views of the instance the browser reached, which hold only the spaces it serves: a page of a
 * space another instance serves is refused with the owner named, never rendered from views that do not hold it.
 */
class ConsoleOwnershipTest {

    private SpaceOwner owner = SpaceOwner.UNROUTED;
    private final MemoryViews views = stub(MemoryViews.class, Map.of("appliedSeqs", Map.of()));
    private final MemoryBackend backend = (MemoryBackend) Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {MemoryBackend.class},
            (proxy, method, args) -> switch (method.getName()) {
                case "ownerOf" -> owner;
                case "views" -> views;
                default -> null;
            });
    private final Console console = new Console(new Pages(), new KnownSpaces(backend), new OwnerGuard(backend));
    private final AtomicBoolean rendered = new AtomicBoolean();

    @Test
    void aPageOfASpaceAnotherInstanceServesIsRefusedNamingThatInstance() {
        owner = SpaceOwner.remote("api-2.memory", 8080, 3);

        HttpResponse<?> page = console.page(signedIn("/console/s/team/memories"), "team", this::render);

        assertThat(rendered).isFalse();
        assertThat(page.code()).isEqualTo(421);
        assertThat(page.body().toString()).contains("NOT_OWNER", "api-2.memory:8080", "open the console there");
    }

    @Test
    void aPageWhileNoInstanceCanServeTheSpaceSaysRebalancing() {
        owner = SpaceOwner.unavailable(3, "partition 3 is moving");

        HttpResponse<?> page = console.page(signedIn("/console/s/team/memories"), "team", this::render);

        assertThat(rendered).isFalse();
        assertThat(page.code()).isEqualTo(503);
        assertThat(page.body().toString()).contains("REBALANCING", "partition 3 is moving");
    }

    @Test
    void aPageOfASpaceThisInstanceServesIsRendered() {
        owner = SpaceOwner.local(3);

        HttpResponse<?> page = console.page(signedIn("/console/s/team/memories"), "team", this::render);

        assertThat(rendered).isTrue();
        assertThat(page.code()).isEqualTo(200);
    }

    private HttpResponse<?> render(Visit visit) {
        rendered.set(true);
        return HttpResponse.ok("the page");
    }

    private static MutableHttpRequest<?> signedIn(String path) {
        MutableHttpRequest<?> request = HttpRequest.GET(path);
        request.setAttribute(
                SessionFilter.ATTRIBUTE,
                new ConsoleSessions(new ConsoleConfig())
                        .open("mc_test", new Principal("user-ana", Role.USER, "ana", List.of("team"))));
        return request;
    }

    /** The interface answering {@code answers} by method name, and null otherwise. */
    private static <T> T stub(Class<T> type, Map<String, Object> answers) {
        return type.cast(Proxy.newProxyInstance(
                type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> answers.get(method.getName())));
    }
}
