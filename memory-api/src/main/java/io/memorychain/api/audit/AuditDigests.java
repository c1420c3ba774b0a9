package io.memorychain.api.audit;

import io.memorychain.api.error.ApiException;
import io.memorychain.api.request.Spaces;
import io.memorychain.avro.Actor;
import io.memorychain.avro.view.AuditEntry;
import io.memorychain.domain.support.LruMap;
import jakarta.inject.Singleton;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Monthly digests of a space's audit log (docs/architecture.md §13), counted from the audit view: each month's counts
 * are kept in memory and brought up to date from the last entry read (the log is append-only).
 */
@Singleton
public class AuditDigests {

    static final int MAX_NOTABLE = 50;
    private static final Set<String> NOTABLE = Set.of(
            "MemoriesConsolidated",
            "RefinementStarted",
            "RefinementCompleted",
            "ProposalResolved",
            "MemoryProtected",
            "MemoryUnprotected",
            "DuplicatesRemoved",
            "MemoryExpired");

    /** Months kept counted (space and month), least recently asked dropped first. */
    static final int MONTHS_KEPT = 64;

    private final AuditLog log;
    private final Map<String, Tally> tallies = new LruMap<>(MONTHS_KEPT);

    public AuditDigests(AuditLog log) {
        this.log = log;
    }

    /**
     * @param month {@code YYYY-MM} (UTC)
     * @throws ApiException 400 INVALID_ARGUMENT for a month not in that form
     */
    public AuditDigest digest(String space, Actor reader, String month) {
        Spaces.require(space);
        YearMonth ym;
        try {
            ym = YearMonth.parse(month == null ? "" : month.strip());
        } catch (DateTimeParseException e) {
            throw ApiException.invalid("month must be YYYY-MM, e.g. 2026-11, was '" + month + "'");
        }
        Tally tally = tally(space, ym);
        synchronized (tally) {
            tally.catchUp(log, space);
            List<AuditEntryJson> blocks =
                    tally.blocks.stream().map(e -> log.entry(space, reader, e)).toList();
            List<AuditEntryJson> notable =
                    tally.notable.stream().map(e -> log.entry(space, reader, e)).toList();
            Map<String, Long> types = sorted(tally.byType);
            Map<String, Long> actors = sorted(tally.byActor);
            return new AuditDigest(
                    space,
                    ym.toString(),
                    tally.events,
                    types,
                    actors,
                    blocks,
                    notable,
                    markdown(space, ym, tally.events, types, actors, blocks, notable));
        }
    }

    private Tally tally(String space, YearMonth month) {
        synchronized (tallies) {
            return tallies.computeIfAbsent(space + '\0' + month, k -> new Tally(month));
        }
    }

    /**
     * A month's counts up to the last entry read ({@code lastSeq}): the log only grows, so the next digest of the month
     * reads only what was appended since (a month of 100,000 events is read once, not on every call).
     */
    private static final class Tally {
        private final AuditQuery range;
        private final Map<String, Long> byType = new HashMap<>();
        private final Map<String, Long> byActor = new HashMap<>();
        private final List<AuditEntry> blocks = new ArrayList<>();
        private final List<AuditEntry> notable = new ArrayList<>();
        private long events;
        private long lastSeq = -1;

        Tally(YearMonth month) {
            range = new AuditQuery(
                    null,
                    null,
                    Set.of(),
                    null,
                    month.atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant(),
                    month.plusMonths(1).atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant(),
                    false);
        }

        void catchUp(AuditLog log, String space) {
            if (lastSeq < 0) {
                lastSeq = log.seqBefore(space, range.since());
            }
            log.scan(space, lastSeq, range, e -> {
                lastSeq = e.getSeq();
                if (e.getOccurredAt().isBefore(range.since())) {
                    return true;
                }
                events++;
                byType.merge(e.getEventType(), 1L, Long::sum);
                byActor.merge(actor(e), 1L, Long::sum);
                if ("BlockUpdated".equals(e.getEventType())) {
                    blocks.add(e);
                } else if (NOTABLE.contains(e.getEventType()) && notable.size() < MAX_NOTABLE) {
                    notable.add(e);
                }
                return true;
            });
        }
    }

    private static String actor(AuditEntry e) {
        return e.getActor().getType().name().toLowerCase(Locale.ROOT) + ":"
                + e.getActor().getId();
    }

    private static Map<String, Long> sorted(Map<String, Long> counts) {
        Map<String, Long> out = new LinkedHashMap<>();
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
                        .thenComparing(Map.Entry.comparingByKey()))
                .forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }

    static String markdown(
            String space,
            YearMonth month,
            long events,
            Map<String, Long> byType,
            Map<String, Long> byActor,
            List<AuditEntryJson> blocks,
            List<AuditEntryJson> notable) {
        StringBuilder md = new StringBuilder();
        md.append("# Audit Digest — ")
                .append(month.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH))
                .append(' ')
                .append(month.getYear())
                .append(" (space ")
                .append(space)
                .append(")\n\n## Summary\n");
        md.append("- ")
                .append(events)
                .append(" chain events by ")
                .append(byActor.size())
                .append(" actor(s)\n");
        md.append("- ")
                .append(byType.getOrDefault("RefinementStarted", 0L))
                .append(" refinement session(s) started, ")
                .append(byType.getOrDefault("RefinementCompleted", 0L))
                .append(" completed\n");
        md.append("- ").append(blocks.size()).append(" core block change(s)\n");
        md.append("- ")
                .append(byType.getOrDefault("DecayTransitioned", 0L))
                .append(" decay transition(s), ")
                .append(byType.getOrDefault("MemoryExpired", 0L))
                .append(" expiry(ies), ")
                .append(byType.getOrDefault("MemoryDeleted", 0L))
                .append(" deletion(s), ")
                .append(byType.getOrDefault("MemoriesConsolidated", 0L))
                .append(" consolidation(s)\n");
        md.append("\n## By event type\n");
        byType.forEach(
                (type, n) -> md.append("- ").append(type).append(": ").append(n).append('\n'));
        md.append("\n## By actor\n");
        byActor.forEach((actor, n) ->
                md.append("- ").append(actor).append(": ").append(n).append('\n'));
        md.append("\n## Block changes\n");
        lines(md, blocks);
        md.append("\n## Notable events\n");
        lines(md, notable);
        return md.toString();
    }

    static void lines(StringBuilder md, List<AuditEntryJson> entries) {
        if (entries.isEmpty()) {
            md.append("- none\n");
        }
        for (AuditEntryJson e : entries) {
            md.append("- ")
                    .append(e.occurredAt(), 0, Math.min(16, e.occurredAt().length()))
                    .append(" seq ")
                    .append(e.seq())
                    .append(' ')
                    .append(e.actor().type())
                    .append(':')
                    .append(e.actor().id())
                    .append(": ")
                    .append(e.description())
                    .append('\n');
        }
    }
}
