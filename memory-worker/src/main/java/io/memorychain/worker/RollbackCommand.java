package io.memorychain.worker;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.domain.EventDescriptions;
import io.memorychain.domain.rollback.RollbackPlan;
import io.memorychain.domain.rollback.RollbackPlanException;
import io.memorychain.domain.rollback.RollbackSpec;
import io.memorychain.events.Requests;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.SpaceChainReader;
import io.memorychain.events.content.ChainContent;
import io.memorychain.events.content.MasterKey;
import io.memorychain.events.publish.MemoryPublisher;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.projector.rollback.RollbackPlans;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * {@code rollback}: the time machine (docs/architecture.md §17) from the command line. Reads the space's chain, prints
 * the plan (what changes, memory by memory); with {@code --apply} publishes it as an admin's {@code RollbackSpace}
 * request and waits for the sequencer's outcome. Dry run by default.
 */
final class RollbackCommand {

    static final String USAGE = """
            rollback --bootstrap-servers HOST:PORT --space S (--to-seq N | --to-time T)
                     [--memory ID | --session ID | --reflection ID | --actor A --from-seq X [--to-seq Y]]
                     [--reason TEXT --apply]

              Rolls a space back by replaying its chain: the whole space (or one --memory) to its state at --to-seq or
              --to-time (ISO-8601), one refinement --session (its state before the session; no --to-seq), what one
              approved --reflection applied (its state before the decision; no --to-seq), or one
              --actor's events (type:id or id) from --from-seq to --to-seq (default: the head). Prints the plan, one
              line per memory and edge; dry run (nothing published) unless --apply, which needs --reason and appends
              RollbackApplied and the restoring events in one transaction (VERSION_CONFLICT when the space moved since
              the plan: run again).

              --registry-url       schema registry speaking the Confluent REST API
              --registry-topic     the embedded registry's topic (default: <prefix>_memory_schemas)
              --topic-prefix       prefix of the topic names (default: none)
              --admin              the admin id recorded as the actor (default: ops)
              --timeout            how long to wait for the outcome (ISO-8601 duration, default PT60S)
              --content-key-file   the service's keys/content-master.key, to read the encrypted texts (default: the
                                   file MEMORY_CONTENT_KEY_FILE names; without one, --apply is refused on an
                                   encrypted chain)

              Progress (offsets of the space's partition read / to read) goes to stderr, the plan and the outcome to stdout.
              Exit status: 0 planned or applied, 1 the sequencer rejected it, 2 usage error or it could not run.""";

    private static final int CONTENT_SNIPPET = 60;

    record Options(
            String bootstrapServers,
            String space,
            RollbackSpec spec,
            String reason,
            boolean apply,
            String admin,
            Duration timeout,
            RegistrySpec registry,
            Topics topics,
            Path contentKeyFile) {}

    private RollbackCommand() {}

    static Options parse(List<String> args) throws UsageException {
        Map<String, String> values = CommandLine.parse(
                args,
                Set.of(
                        "--bootstrap-servers",
                        "--space",
                        "--to-seq",
                        "--to-time",
                        "--memory",
                        "--session",
                        "--reflection",
                        "--actor",
                        "--from-seq",
                        "--reason",
                        "--registry-url",
                        "--registry-topic",
                        "--topic-prefix",
                        "--admin",
                        "--timeout",
                        "--content-key-file"),
                Set.of("--apply"));
        String bootstrap = CommandLine.required(values, "--bootstrap-servers", "");
        String space = CommandLine.required(values, "--space", "");
        RollbackSpec spec;
        try {
            spec = RollbackSpec.of(
                    values.get("--memory"),
                    values.get("--session"),
                    values.get("--actor"),
                    values.get("--reflection"),
                    seq(values, "--from-seq"),
                    seq(values, "--to-seq"),
                    time(values.get("--to-time")));
        } catch (RollbackPlanException e) {
            throw new UsageException(e.getMessage()
                    .replace("_seq", "-seq")
                    .replace("to_time", "to-time")
                    .replace("memory_id", "--memory")
                    .replace("session_id", "--session")
                    .replace("reflection_id", "--reflection"));
        }
        boolean apply = values.containsKey("--apply");
        String reason = CommandLine.reasonForApply(values);
        Duration timeout = CommandLine.timeout(values, "PT60S");
        Topics topics = CommandLine.topics(values);
        return new Options(
                bootstrap,
                space,
                spec,
                reason,
                apply,
                values.getOrDefault("--admin", "ops"),
                timeout,
                CommandLine.registry(values, bootstrap, topics),
                topics,
                values.containsKey("--content-key-file") ? Path.of(values.get("--content-key-file")) : null);
    }

    private static Long seq(Map<String, String> values, String name) throws UsageException {
        String value = values.get(name);
        if (value == null) {
            return null;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new UsageException(name + " must be a whole number, not '" + value + "'");
        }
    }

    private static Instant time(String value) throws UsageException {
        try {
            return value == null ? null : Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw new UsageException(
                    "--to-time must be an ISO-8601 instant such as 2026-11-25T06:00:00Z, not '" + value + "'");
        }
    }

    /** Plans (and applies); returns the exit status. */
    static int run(Options options, RegistryFactory registries, PrintStream out, PrintStream err)
            throws UsageException {
        try (SchemaRegistry registry = registries.open(options.registry());
                WorkerContent content = WorkerContent.open(
                        options.bootstrapServers(), options.topics(), registry, options.contentKeyFile())) {
            SpaceChainReader reader = new SpaceChainReader(
                    Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServers()),
                    options.topics().events(),
                    registry,
                    java.time.Duration.ofMinutes(2),
                    content.content());
            RollbackPlan plan;
            try {
                plan = new RollbackPlans(reader).plan(options.space(), options.spec(), new ProgressLine(err));
            } catch (RollbackPlanException e) {
                throw new UsageException(e.getMessage());
            }
            print(plan, out);
            boolean ciphertext = !content.content().decrypts()
                    && plan.memories().stream()
                            .anyMatch(m -> m.target() != null && ChainContent.hasEncryptedText(m.target()));
            if (ciphertext && !options.apply()) {
                out.println("NOTE: the chain's texts are encrypted and " + WorkerContent.ENV + " is not set: they "
                        + "are shown as ciphertext, and --apply needs the key (--content-key-file)");
            }
            if (ciphertext && options.apply()) {
                // the plan's target snapshots would carry ciphertext, which the sequencer would seal as text
                throw new IllegalStateException("the chain's texts are encrypted and " + WorkerContent.ENV
                        + " is not set: name the service's keys/" + MasterKey.FILE_NAME + " with --content-key-file or "
                        + WorkerContent.ENV
                        + " so the rollback restores the texts, not their ciphertext");
            }
            if (!options.apply()) {
                out.println(
                        "DRY RUN: nothing published" + (plan.isEmpty() ? "" : "; add --reason TEXT --apply to apply"));
                return WorkerMain.EXIT_OK;
            }
            if (plan.isEmpty()) {
                out.println("NOTHING TO ROLL BACK");
                return WorkerMain.EXIT_OK;
            }
            try (MemoryPublisher publisher =
                    new MemoryPublisher(options.bootstrapServers(), options.topics(), registry)) {
                String requestId =
                        "rollback:" + options.space() + ":" + plan.digest().substring(0, 16) + ":" + UUID.randomUUID();
                MemoryOutcome outcome = Outcomes.await(
                        publisher.publish(Requests.request(
                                        options.space(),
                                        Requests.actor(io.memorychain.avro.ActorType.ADMIN, options.admin()),
                                        plan.toRequest(options.reason()))
                                .setRequestId(requestId)
                                .build()),
                        options.timeout(),
                        requestId,
                        "it may still be applied: plan again to see");
                if (!outcome.getAccepted()) {
                    out.println("REJECTED code=" + outcome.getCode() + " " + outcome.getMessage());
                    return WorkerMain.EXIT_BROKEN;
                }
                out.println(
                        "APPLIED space=" + options.space() + " seq=" + outcome.getSeq() + " request_id=" + requestId);
                return WorkerMain.EXIT_OK;
            }
        }
    }

    static void print(RollbackPlan plan, PrintStream out) {
        out.println("PLAN space=" + plan.space() + " scope="
                + plan.scope().name().toLowerCase(java.util.Locale.ROOT)
                + (plan.scopeId() == null ? "" : " id=" + plan.scopeId()) + " target_seq=" + plan.targetSeq()
                + (plan.targetTime() == null ? "" : " target_time=" + plan.targetTime())
                + (plan.rangeToSeq() == null ? "" : " range=" + (plan.targetSeq() + 1) + ".." + plan.rangeToSeq())
                + " head_seq=" + plan.headSeq() + " digest=" + plan.digest());
        for (RollbackPlan.MemoryChange m : plan.memories()) {
            Memory now = m.current();
            if (m.action() == RollbackPlan.Action.DELETE) {
                out.println("  DELETE  " + m.memoryId() + " " + state(now) + " -> soft_deleted (not there at seq "
                        + plan.targetSeq() + ") \"" + snippet(now) + "\" [" + m.event() + "]");
            } else {
                Memory target = m.target();
                String content = now.getContent().equals(target.getContent())
                        ? "\"" + snippet(target) + "\""
                        : "\"" + snippet(now) + "\" -> \"" + snippet(target) + "\"";
                out.println("  RESTORE " + m.memoryId() + " v" + now.getVersion() + " " + state(now) + " -> "
                        + state(target) + " " + content + " [" + m.event() + "]");
            }
        }
        for (RollbackPlan.EdgeChange e : plan.edges()) {
            out.println("  EDGE    " + e.fromId() + " -> " + e.toId() + " " + e.currentType() + " -> " + e.targetType()
                    + (e.targetType() == null ? "" : String.format(java.util.Locale.ROOT, " %.2f", e.targetStrength()))
                    + " " + e.events());
        }
        out.println(plan.memories().size() + " memor" + (plan.memories().size() == 1 ? "y" : "ies") + ", "
                + plan.edges().size() + " edge(s); " + plan.eventsRead() + " event(s) replayed");
    }

    private static String state(Memory m) {
        return m.getState().name().toLowerCase(java.util.Locale.ROOT);
    }

    private static String snippet(Memory m) {
        return EventDescriptions.snippet(m.getContent(), CONTENT_SNIPPET);
    }
}
