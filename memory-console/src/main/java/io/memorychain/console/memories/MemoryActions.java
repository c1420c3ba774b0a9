package io.memorychain.console.memories;

import io.memorychain.api.auth.Operation;
import io.memorychain.api.erasure.Erasures;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.memories.Memories;
import io.memorychain.api.memories.MemoryJson;
import io.memorychain.avro.MemoryFlag;
import io.memorychain.console.web.Console;
import io.memorychain.console.web.Console.Done;
import io.memorychain.console.web.Visit;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import java.util.Map;

/**
 * The memory page's changes, each a form posted here and answered with a redirect to the memory page: the same service
 * calls as {@code POST /memories/{id}:pin|unpin|protect|unprotect|restore} and {@code :erase}. Each carries the version
 * the page showed, so a change made meanwhile is a version conflict, not a silent overwrite.
 */
@Controller("/console/s/{space}/memories/{id}")
@ExecuteOn(TaskExecutors.BLOCKING)
public class MemoryActions {

    /**
     * The buttons the page shows: where the key's role may run the operation (the services decide the rest, e.g. the
     * sequencer refuses to unprotect for non-admins) and the memory's state offers it; none on a tombstone and none for
     * read-only keys.
     */
    public record Allowed(boolean pin, boolean protect, boolean restore, boolean erase) {

        public boolean any() {
            return pin || protect || restore || erase;
        }

        static Allowed of(Visit visit, MemoryJson m, boolean tombstone) {
            if (tombstone || visit.principal().role() != io.memorychain.api.auth.Role.USER && !visit.admin()) {
                return new Allowed(false, false, false, false);
            }
            return new Allowed(
                    visit.may(m.pinned() ? Operation.UNPIN_MEMORY : Operation.PIN_MEMORY),
                    visit.may(m.constitutional() ? Operation.UNPROTECT_MEMORY : Operation.PROTECT_MEMORY),
                    "soft_deleted".equals(m.state()) && visit.may(Operation.RESTORE_MEMORY),
                    visit.may(Operation.ERASE_MEMORY));
        }
    }

    private final Console console;
    private final Memories memories;
    private final Erasures erasures;

    public MemoryActions(Console console, Memories memories, Erasures erasures) {
        this.console = console;
        this.memories = memories;
        this.erasures = erasures;
    }

    /** {@code action}: pin, unpin, protect, unprotect or restore; {@code version}: the version the page showed. */
    @Post(value = "/change", consumes = MediaType.APPLICATION_FORM_URLENCODED)
    public HttpResponse<?> change(
            HttpRequest<?> request,
            @PathVariable String space,
            @PathVariable String id,
            @Nullable @Body Map<String, String> form) {
        return console.post(request, form, space, page(space, id), visit -> {
            Integer version = version(form.get("version"));
            return switch (String.valueOf(form.get("action"))) {
                case "pin" -> flag(visit, Operation.PIN_MEMORY, id, version, MemoryFlag.PINNED, true, "Pinned.");
                case "unpin" -> flag(visit, Operation.UNPIN_MEMORY, id, version, MemoryFlag.PINNED, false, "Unpinned.");
                case "protect" ->
                    flag(
                            visit,
                            Operation.PROTECT_MEMORY,
                            id,
                            version,
                            MemoryFlag.CONSTITUTIONAL,
                            true,
                            "Protected: it can no longer be deleted or consolidated.");
                case "unprotect" ->
                    flag(
                            visit,
                            Operation.UNPROTECT_MEMORY,
                            id,
                            version,
                            MemoryFlag.CONSTITUTIONAL,
                            false,
                            "No longer protected.");
                case "restore" -> {
                    visit.authorize(Operation.RESTORE_MEMORY);
                    memories.restore(visit.change(version), id);
                    yield Done.message("Restored.");
                }
                default -> throw ApiException.invalid("action must be pin, unpin, protect, unprotect or restore");
            };
        });
    }

    /** Erasure for good: a reason and the confirmation checkbox are required; then the page shows the proof. */
    @Post(value = "/erase", consumes = MediaType.APPLICATION_FORM_URLENCODED)
    public HttpResponse<?> erase(
            HttpRequest<?> request,
            @PathVariable String space,
            @PathVariable String id,
            @Nullable @Body Map<String, String> form) {
        return console.post(request, form, space, page(space, id) + "/erase", visit -> {
            visit.authorize(Operation.ERASE_MEMORY);
            if (!"yes".equals(form.get("confirm"))) {
                throw ApiException.invalid("check the box to confirm that the erasure cannot be undone");
            }
            erasures.erase(visit.change(null), id, form.get("reason"));
            return Done.to("Erased for good. Its text is unreadable everywhere; the proof is below.", page(space, id));
        });
    }

    private Done flag(
            Visit visit,
            Operation operation,
            String id,
            Integer version,
            MemoryFlag flag,
            boolean value,
            String message) {
        visit.authorize(operation);
        memories.flag(visit.change(version), id, flag, value);
        return Done.message(message);
    }

    private static Integer version(String version) {
        if (version == null || version.isBlank()) {
            return null;
        }
        try {
            return Integer.valueOf(version.strip());
        } catch (NumberFormatException e) {
            throw ApiException.invalid("version must be a number");
        }
    }

    static String page(String space, String id) {
        return "/console/s/" + space + "/memories/" + id;
    }
}
