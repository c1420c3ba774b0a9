package io.memorychain.api.refinement;

import io.memorychain.api.backend.ChainReads;
import io.memorychain.api.backend.ServiceChatModels;
import io.memorychain.api.config.RefinementAgentConfig;
import io.memorychain.api.request.RequestIds;
import io.memorychain.api.write.WriteContext;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.view.RefinementSession;
import io.memorychain.jobs.refine.RefineAgent;
import io.memorychain.jobs.refine.RefineOutcome;
import io.memorychain.jobs.refine.RefineSettings;
import io.memorychain.llm.ChatModel;
import io.memorychain.llm.ChatModels;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.runtime.server.event.ServerStartupEvent;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The refinement agent job (docs/architecture.md §9, "Run by the system"), on its own thread in the service. Every
 * {@code memory.refinement.agent.check-interval} it looks at the open session of each space this instance holds:
 *
 * <ul>
 *   <li>open longer than {@code session-timeout} (this process's wall clock against the session's {@code started_at},
 *       which the sequencer stamped): it publishes {@code CompleteRefinement} as {@code worker:refinement-timeout} with
 *       the reason as the summary; the sequencer records the close (and refuses it if the session was closed
 *       meanwhile). The projections never look at a clock;
 *   <li>else, when the space has a model ({@code memory.llm.*}, {@code memory.llm.agents.<space>.*}): the model runs
 *       the session ({@link RefineAgent}) as {@code worker:refinement-agent}; a run that leaves it open (the model
 *       failed after its retries, a bound was reached) is logged with the reason and tried again after
 *       {@code retry-interval};
 *   <li>without a model nothing runs for the space ({@code /health}: {@code workers.refinement_agent: skipped: no
 *       model} when no space has one).
 * </ul>
 */
@Singleton
public class RefinementAgentJob implements ApplicationEventListener<ServerStartupEvent> {

    private static final Logger log = LoggerFactory.getLogger(RefinementAgentJob.class);
    public static final Actor AGENT = new Actor(ActorType.WORKER, RefineSettings.ACTOR);
    public static final Actor TIMEOUT = new Actor(ActorType.WORKER, RefineSettings.TIMEOUT_ACTOR);

    private final ChainReads backend;
    private final RefinementSessions sessions;
    private final RefinementAgentConfig config;
    private final Clock clock;
    private final RefineAgent agent;
    private final Map<String, Instant> leftOpenAt = new ConcurrentHashMap<>();
    private final Map<String, String> leftOpenWhy = new ConcurrentHashMap<>();
    /** Spaces with an open session and no model: their sessions wait for an outside agent or the timeout. */
    private final java.util.Set<String> withoutModel = new java.util.concurrent.ConcurrentSkipListSet<>();

    private final java.util.concurrent.atomic.AtomicBoolean started = new java.util.concurrent.atomic.AtomicBoolean();
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong leftOpen = new AtomicLong();
    private final AtomicLong timedOut = new AtomicLong();
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "refinement-agent");
        t.setDaemon(true);
        return t;
    });
    private final ServiceChatModels models;
    private volatile Instant lastCheckAt;

    public RefinementAgentJob(
            ChainReads backend, RefinementSessions sessions, RefinementAgentConfig config, ServiceChatModels models) {
        this.backend = backend;
        this.sessions = sessions;
        this.config = config;
        this.models = models;
        this.clock = Clock.systemUTC();
        this.agent = new RefineAgent(config.settings()); // invalid settings fail the start, naming the property
    }

    @Override
    public void onApplicationEvent(ServerStartupEvent event) {
        if (!config.isEnabled() || !started.compareAndSet(false, true)) {
            return; // the HTTP and the gRPC server each announce their start: one schedule
        }
        long every = config.getCheckInterval().toMillis();
        thread.scheduleWithFixedDelay(
                () -> {
                    try {
                        check(clock.instant());
                    } catch (RuntimeException e) {
                        log.warn("refinement-agent: check failed: {}", e.toString()); // and again next interval
                    }
                },
                every,
                every,
                TimeUnit.MILLISECONDS);
        log.info(
                "refinement-agent running: every {}, session timeout {}, max {} steps / {} tokens per run",
                config.getCheckInterval(),
                config.getSessionTimeout(),
                config.getMaxSteps(),
                config.getMaxTokens());
    }

    @PreDestroy
    void stop() {
        thread.shutdownNow();
    }

    /** One pass over the spaces this instance holds, at {@code now}. */
    public synchronized void check(Instant now) {
        lastCheckAt = now;
        for (String space : backend.views().appliedSeqs(Integer.MAX_VALUE).keySet()) {
            check(space, now);
        }
    }

    /** The pass for one space, at {@code now}: close a stale session, or run an open one with the space's model. */
    public synchronized void check(String space, Instant now) {
        Optional<RefinementSession> open = backend.views().openRefinement(space);
        if (open.isEmpty()) {
            withoutModel.remove(space);
            return;
        }
        RefinementSession session = open.get();
        String id = session.getSessionId();
        if (!now.isBefore(session.getStartedAt().plus(config.getSessionTimeout()))) {
            closeStale(space, session, now);
            return;
        }
        ChatModel model = models().forAgent(space);
        if (!model.configured()) {
            withoutModel.add(space); // it waits for an outside agent, or the timeout
            return;
        }
        withoutModel.remove(space);
        Instant before = leftOpenAt.get(id);
        if (before != null && now.isBefore(before.plus(config.getRetryInterval()))) {
            return;
        }
        WriteContext ctx = new WriteContext(space, AGENT, null, null, null);
        RefineOutcome outcome;
        try {
            outcome = agent.run(space, model, new AgentSessionTools(sessions, ctx, id));
        } catch (RuntimeException e) {
            outcome = new RefineOutcome.LeftOpen("run failed: " + e, 0, 0);
        }
        if (outcome instanceof RefineOutcome.Completed c) {
            completed.incrementAndGet();
            leftOpenAt.remove(id);
            leftOpenWhy.remove(id);
            log.info(
                    "refinement-agent: session {} of space {} completed in {} steps ({} tokens): {}",
                    id,
                    space,
                    c.steps(),
                    c.tokens(),
                    c.line());
        } else {
            RefineOutcome.LeftOpen l = (RefineOutcome.LeftOpen) outcome;
            leftOpen.incrementAndGet();
            leftOpenAt.put(id, now);
            leftOpenWhy.put(id, l.reason());
            log.warn(
                    "refinement-agent: session {} of space {} left open after {} steps ({} tokens): {}",
                    id,
                    space,
                    l.steps(),
                    l.tokens(),
                    l.reason());
        }
    }

    private void closeStale(String space, RefinementSession session, Instant now) {
        String id = session.getSessionId();
        String why = leftOpenWhy.get(id);
        String summary = "Closed by timeout: open since " + session.getStartedAt() + ", longer than "
                + config.getSessionTimeout() + " (checked at " + now + ")"
                + (why == null ? "" : "; the agent's last run left it open: " + why);
        try {
            sessions.complete(new WriteContext(space, TIMEOUT, RequestIds.fromHeader(null), null, null), id, summary);
            timedOut.incrementAndGet();
            leftOpenAt.remove(id);
            leftOpenWhy.remove(id);
            log.info("refinement-agent: session {} of space {} closed: {}", id, space, summary);
        } catch (RuntimeException e) {
            log.warn("refinement-agent: could not close stale session {} of space {}: {}", id, space, e.toString());
        }
    }

    private ChatModels models() {
        return models.get();
    }

    /** {@code /health} {@code workers.refinement_agent}: figures, or why it does not run. */
    public Object figures() {
        if (!config.isEnabled()) {
            return "off";
        }
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("state", models().settings().anyConfigured() ? "RUNNING" : "skipped: no model");
        figures.put("completed", completed.get());
        figures.put("left_open", leftOpen.get());
        figures.put("timed_out", timedOut.get());
        figures.put("last_check_at", lastCheckAt == null ? null : lastCheckAt.toString());
        figures.put("open_without_model", List.copyOf(withoutModel));
        return figures;
    }
}
