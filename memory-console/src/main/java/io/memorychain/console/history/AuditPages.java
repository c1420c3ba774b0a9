package io.memorychain.console.history;

import io.memorychain.api.audit.AuditDigest;
import io.memorychain.api.audit.AuditDigests;
import io.memorychain.api.audit.AuditLog;
import io.memorychain.api.audit.AuditTimeline;
import io.memorychain.api.auth.Operation;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.export.SpaceTransfer;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.console.web.Console;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.json.JsonMapper;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The audit pages of a space: the timeline newest first with its filters ({@link AuditLog#timeline}, the log REST's
 * {@code /audit} reads), the monthly digest ({@code /audit/digest}'s {@link AuditDigests}) and the space's export as
 * JSON or Markdown downloads ({@code /export}'s {@link SpaceTransfer#exportRead}). The roles are the operations': the
 * log and the digest are content (not for admins), the export is an admin's only under a grant.
 */
@Controller("/console/s/{space}/audit")
@ExecuteOn(TaskExecutors.BLOCKING)
public class AuditPages {

    /** The event types the type filter suggests: the chain's event payloads. */
    static final List<String> EVENT_TYPES =
            MemoryEvent.getClassSchema().getField("payload").schema().getTypes().stream()
                    .map(org.apache.avro.Schema::getName)
                    .sorted()
                    .toList();

    /** A timeline page and the links around it. */
    public record Timeline(
            AuditFilters filters,
            AuditTimeline page,
            String olderHref,
            String newestHref,
            List<String> eventTypes,
            List<Integer> limits,
            boolean paged) {}

    private final Console console;
    private final AuditLog log;
    private final AuditDigests digests;
    private final SpaceTransfer transfer;
    private final JsonMapper json;
    private final Clock clock = Clock.systemUTC();

    public AuditPages(Console console, AuditLog log, AuditDigests digests, SpaceTransfer transfer, JsonMapper json) {
        this.console = console;
        this.log = log;
        this.digests = digests;
        this.transfer = transfer;
        this.json = json;
    }

    @Get
    public HttpResponse<?> timeline(
            HttpRequest<?> request,
            @PathVariable String space,
            @Nullable @QueryValue String actor,
            @Nullable @QueryValue String type,
            @Nullable @QueryValue String memory,
            @Nullable @QueryValue String label,
            @Nullable @QueryValue String from,
            @Nullable @QueryValue String to,
            @Nullable @QueryValue Integer limit,
            @Nullable @QueryValue Long before) {
        return console.page(request, space, visit -> {
            visit.authorize(Operation.LIST_AUDIT);
            AuditFilters filters = AuditFilters.of(actor, type, memory, label, from, to, limit);
            AuditTimeline page = log.timeline(visit.space(), visit.actor(), filters.query(), before, filters.limit());
            String base = "/console/s/" + visit.space() + "/audit";
            Map<String, Object> params = new HashMap<>();
            params.put(
                    "timeline",
                    new Timeline(
                            filters,
                            page,
                            page.olderThan() == null ? null : filters.href(base, page.olderThan()),
                            before == null ? null : filters.href(base, null),
                            EVENT_TYPES,
                            filters.limits(),
                            before != null));
            params.put("exportable", visit.may(Operation.EXPORT_SPACE));
            return console.render(visit, "audit", "Audit", "audit", params);
        });
    }

    @Get("/digest")
    public HttpResponse<?> digest(
            HttpRequest<?> request, @PathVariable String space, @Nullable @QueryValue String month) {
        return console.page(request, space, visit -> {
            visit.authorize(Operation.AUDIT_DIGEST);
            String asked = month == null || month.isBlank()
                    ? YearMonth.now(clock.withZone(ZoneOffset.UTC)).toString()
                    : month.strip();
            AuditDigest digest = digests.digest(visit.space(), visit.actor(), asked);
            Map<String, Object> params = new HashMap<>();
            params.put("digest", digest);
            params.put("month", asked);
            return console.render(visit, "audit", "Audit digest", "digest", params);
        });
    }

    /** The digest's Markdown document as a download. */
    @Get("/digest.md")
    public HttpResponse<?> digestMarkdown(
            HttpRequest<?> request, @PathVariable String space, @Nullable @QueryValue String month) {
        return console.page(request, space, visit -> {
            visit.authorize(Operation.AUDIT_DIGEST);
            AuditDigest digest = digests.digest(visit.space(), visit.actor(), month);
            return download(
                    digest.markdown().getBytes(StandardCharsets.UTF_8),
                    "text/markdown;charset=utf-8",
                    visit.space() + "-audit-digest-" + digest.month() + ".md");
        });
    }

    /**
     * The space's export ({@code format} json or markdown) as a download. The export service builds one document for
     * every transport (REST's {@code GET /export} too), bounded by the space's active memories.
     */
    @Get("/export")
    public HttpResponse<?> export(
            HttpRequest<?> request, @PathVariable String space, @Nullable @QueryValue String format) {
        return console.page(request, space, visit -> {
            visit.authorize(Operation.EXPORT_SPACE);
            SpaceTransfer.Exported exported = transfer.exportRead(visit.space(), visit.actor(), null, format);
            if (exported.markdown() != null) {
                return download(
                        exported.markdown().getBytes(StandardCharsets.UTF_8),
                        "text/markdown;charset=utf-8",
                        visit.space() + "-export.md");
            }
            return download(
                    bytes(exported),
                    MediaType.APPLICATION_JSON,
                    visit.space() + "-export-seq-" + exported.export().headSeq() + ".json");
        });
    }

    private byte[] bytes(SpaceTransfer.Exported exported) {
        try {
            return json.writeValueAsBytes(exported.export());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static HttpResponse<byte[]> download(byte[] body, String type, String filename) {
        if (!filename.matches("[A-Za-z0-9._-]+")) {
            throw ApiException.invalid("no download name for this space");
        }
        return HttpResponse.ok(body)
                .contentType(type)
                .header(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"" + filename + "\"");
    }
}
