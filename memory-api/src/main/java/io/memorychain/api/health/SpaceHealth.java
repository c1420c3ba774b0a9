package io.memorychain.api.health;

import io.memorychain.api.alerts.AlertService;
import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.api.chain.ChainCheckpoints;
import io.memorychain.api.chain.ChainVerification;
import io.memorychain.api.chain.CheckpointJson;
import io.memorychain.api.chain.VerifiedHead;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.grants.GrantService;
import io.memorychain.api.ops.OpsCountsService;
import io.memorychain.api.profile.ProfileService;
import io.memorychain.api.request.Spaces;
import io.memorychain.avro.view.RefinementSession;
import io.memorychain.avro.view.Reflection;
import io.memorychain.projector.view.MemoryCounts;
import io.memorychain.projector.view.MemoryViews;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A space's health (the console's health page), from figures the service already keeps, so a page load reads a few
 * dozen keys and never the space's memories: the projection's maintained counters (memories by tier, state, decay
 * status, kind and category), the ops view's daily counts (memories created, consolidations), the refinement sessions
 * and reflections of the space (their own small views), what waits for a person (the same services as the inbox), the
 * last chain verification and checkpoint this instance ran (no chain read on a page load: {@link #verify} reads it),
 * the background workers and the Streams applications' lag.
 */
@Singleton
public class SpaceHealth {

    /** Days of history shown. */
    public static final int DAYS = 30;
    /** Figures shown per worker at most. */
    static final int MAX_FIGURES = 8;

    private final MemoryBackend backend;
    private final OpsCountsService ops;
    private final AlertService alerts;
    private final ProfileService profiles;
    private final GrantService grants;
    private final ChainVerification verification;
    private final ChainCheckpoints checkpoints;

    public SpaceHealth(
            MemoryBackend backend,
            OpsCountsService ops,
            AlertService alerts,
            ProfileService profiles,
            GrantService grants,
            ChainVerification verification,
            ChainCheckpoints checkpoints) {
        this.backend = backend;
        this.ops = ops;
        this.alerts = alerts;
        this.profiles = profiles;
        this.grants = grants;
        this.verification = verification;
        this.checkpoints = checkpoints;
    }

    /** The space's health now. */
    public HealthReport report(String space) {
        String s = Spaces.require(space);
        MemoryViews views = backend.views();
        MemoryCounts counts = views.counts(s);
        LocalDate today = LocalDate.ofInstant(backend.clock().instant(), ZoneOffset.UTC);
        LocalDate first = today.minusDays(DAYS - 1L);
        Map<LocalDate, long[]> days = new TreeMap<>();
        for (LocalDate d = first; !d.isAfter(today); d = d.plusDays(1)) {
            days.put(d, new long[4]);
        }
        boolean opsKept = dailyOps(s, first, today, days);
        List<RefinementSession> sessions = views.refinements(s);
        for (RefinementSession r : sessions) {
            bump(days, r.getStartedAt(), 2);
        }
        List<Reflection> reflections = views.reflections(s);
        int pendingReflections = 0;
        for (Reflection r : reflections) {
            bump(days, r.getProposedAt(), 3);
            if (r.getStatus() != null && "PENDING".equals(r.getStatus().name())) {
                pendingReflections++;
            }
        }
        List<HealthReport.Day> history = new ArrayList<>();
        days.forEach((d, v) -> history.add(new HealthReport.Day(d.toString(), v[0], v[1], v[2], v[3])));

        Map<String, Integer> pending = new LinkedHashMap<>();
        pending.put("reflections", pendingReflections);
        pending.put("proposals", views.openProposals(s).size());
        pending.put("consents", profiles.consents(s, "pending").size());
        pending.put("alerts", alerts.alerts(s, true).size());
        pending.put("grants", (int) grants.list(s).stream()
                .filter(g -> "pending".equals(g.status()))
                .count());
        pending.put("refinement", views.openRefinement(s).isPresent() ? 1 : 0);

        return new HealthReport(
                s,
                counts.byFacet(),
                counts.countedFrom(),
                views.appliedSeq(s),
                history,
                opsKept,
                pending,
                chain(s),
                workers(),
                backend.streamsLags(),
                backend.streamStates());
    }

    /** Verifies the space's chain (continuing after the last verified head) and signs a checkpoint of its head. */
    public CheckpointJson verify(String space) {
        return checkpoints.checkpoint(Spaces.require(space));
    }

    private boolean dailyOps(String space, LocalDate first, LocalDate today, Map<LocalDate, long[]> days) {
        OpsCountsService.OpsPage page;
        try {
            page = ops.counts(
                    space,
                    first.atStartOfDay(ZoneOffset.UTC).toInstant().toString(),
                    today.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant().toString(),
                    "day");
        } catch (ApiException e) {
            return false; // this instance keeps no ops counts, or they are being rebuilt
        }
        for (OpsCountsService.OpsBucket b : page.buckets()) {
            if (!"ok".equals(b.status())) {
                continue;
            }
            int slot = switch (b.op()) {
                case "create" -> 0;
                case "merge" -> 1;
                default -> -1;
            };
            if (slot >= 0) {
                long[] day = days.get(LocalDate.ofInstant(Instant.parse(b.start()), ZoneOffset.UTC));
                if (day != null) {
                    day[slot] += b.count();
                }
            }
        }
        return true;
    }

    private static void bump(Map<LocalDate, long[]> days, Instant at, int slot) {
        if (at != null) {
            long[] day = days.get(LocalDate.ofInstant(at, ZoneOffset.UTC));
            if (day != null) {
                day[slot]++;
            }
        }
    }

    private HealthReport.Chain chain(String space) {
        Optional<VerifiedHead> v = verification.last(space);
        Optional<CheckpointJson> c = checkpoints.last(space);
        return new HealthReport.Chain(
                v.map(VerifiedHead::seq).orElse(null),
                v.map(VerifiedHead::events).orElse(null),
                v.map(h -> h.at().truncatedTo(ChronoUnit.SECONDS).toString()).orElse(null),
                v.map(VerifiedHead::ok).orElse(null),
                v.map(VerifiedHead::problem).orElse(null),
                c.map(CheckpointJson::seq).orElse(null),
                c.map(CheckpointJson::hash).orElse(null),
                c.map(CheckpointJson::keyId).orElse(null),
                c.map(CheckpointJson::signedAt).orElse(null));
    }

    /** The background workers: a map of figures is a running worker, a text is why it is skipped. */
    private List<HealthReport.Worker> workers() {
        List<HealthReport.Worker> out = new ArrayList<>();
        backend.workerFigures().forEach((name, figures) -> {
            if (figures instanceof Map<?, ?> map) {
                Map<String, String> shown = new LinkedHashMap<>();
                map.forEach((k, v) -> {
                    if (shown.size() < MAX_FIGURES
                            && !(v instanceof Map)
                            && !(v instanceof List)
                            && !"state".equals(k)) {
                        shown.put(String.valueOf(k), String.valueOf(v));
                    }
                });
                Object state = map.get("state");
                out.add(new HealthReport.Worker(
                        name, state == null ? "running" : String.valueOf(state).toLowerCase(Locale.ROOT), null, shown));
            } else {
                String text = String.valueOf(figures);
                boolean skipped = text.startsWith("skipped");
                out.add(new HealthReport.Worker(
                        name,
                        skipped ? "skipped" : text,
                        skipped ? text.replaceFirst("^skipped:?\\s*", "") : null,
                        Map.of()));
            }
        });
        return out;
    }
}
