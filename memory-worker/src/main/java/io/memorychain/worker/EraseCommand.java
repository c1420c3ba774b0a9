package io.memorychain.worker;

import io.memorychain.avro.ActorType;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryErased;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.events.Requests;
import io.memorychain.events.Topics;
import io.memorychain.events.chain.SpaceChainReader;
import io.memorychain.events.content.ChainContent;
import io.memorychain.events.publish.MemoryPublisher;
import io.memorychain.events.registry.SchemaRegistry;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * {@code erase}: erasure by crypto-shredding (docs/architecture.md §12) from the command line, for the operator who
 * handles a data subject's request. Reads the space's chain and shows the memory's metadata (never its text: admins see
 * metadata only); with {@code --apply} publishes an admin's {@code EraseMemory} and waits for the sequencer's outcome.
 * Dry run by default, since an erasure cannot be undone. The request id is derived from the space and the memory, so
 * running it again never erases twice and reports the first outcome.
 */
final class EraseCommand {

    static final String USAGE = """
            erase --bootstrap-servers HOST:PORT --space S --memory ID [--reason TEXT --apply]

              Erases one memory for good: the sequencer destroys its data key and appends MemoryErased, after which its
              texts read as [erased] in every view, the search index, exports and workers, and the chain still
              verifies. Without --apply it reads the space's chain and prints the memory's metadata (state, version,
              kind, tier, seqs; never its text) and publishes nothing. --apply needs --reason (kept on the chain) and
              prints the MemoryErased event's seq; GET /v1/spaces/S/memories/ID/erasure then shows the proof.

              --registry-url       schema registry speaking the Confluent REST API
              --registry-topic     the embedded registry's topic (default: <prefix>_memory_schemas)
              --topic-prefix       prefix of the topic names (default: none)
              --admin              the admin id recorded as the actor (default: ops)
              --timeout            how long to wait for the outcome (ISO-8601 duration, default PT60S)

              Progress (offsets of the space's partition read / to read) goes to stderr, the memory and the outcome to
              stdout. Exit status: 0 shown, erased or already erased, 1 the sequencer rejected it, 2 usage error (an
              unknown memory too) or it could not run.""";

    record Options(
            String bootstrapServers,
            String space,
            String memoryId,
            String reason,
            boolean apply,
            String admin,
            Duration timeout,
            RegistrySpec registry,
            Topics topics) {}

    /** The memory as the chain last wrote it, and the seq of its erasure if there was one. */
    private record Found(Memory last, long firstSeq, long lastSeq, Long erasedSeq) {}

    private EraseCommand() {}

    static Options parse(List<String> args) throws UsageException {
        Map<String, String> values = CommandLine.parse(
                args,
                Set.of(
                        "--bootstrap-servers",
                        "--space",
                        "--memory",
                        "--reason",
                        "--registry-url",
                        "--registry-topic",
                        "--topic-prefix",
                        "--admin",
                        "--timeout"),
                Set.of("--apply"));
        String bootstrap = CommandLine.required(values, "--bootstrap-servers", "");
        String space = CommandLine.required(values, "--space", "");
        String memory = CommandLine.required(values, "--memory", "");
        boolean apply = values.containsKey("--apply");
        String reason = CommandLine.reasonForApply(values);
        Duration timeout = CommandLine.timeout(values, "PT60S");
        Topics topics = CommandLine.topics(values);
        return new Options(
                bootstrap,
                space,
                memory,
                reason,
                apply,
                values.getOrDefault("--admin", "ops"),
                timeout,
                CommandLine.registry(values, bootstrap, topics),
                topics);
    }

    /** Shows (and erases); returns the exit status. */
    static int run(Options options, RegistryFactory registries, PrintStream out, PrintStream err)
            throws UsageException {
        try (SchemaRegistry registry = registries.open(options.registry())) {
            // no decryption: the command shows metadata only, whoever runs it
            SpaceChainReader reader = new SpaceChainReader(
                    Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServers()),
                    options.topics().events(),
                    registry,
                    Duration.ofMinutes(2),
                    ChainContent.PLAINTEXT);
            Found found = find(reader, options.space(), options.memoryId(), err);
            if (found == null) {
                throw new UsageException(
                        "no memory " + options.memoryId() + " on the chain of space " + options.space());
            }
            print(found, out);
            if (found.erasedSeq() != null) {
                out.println("ALREADY ERASED at seq " + found.erasedSeq());
                return WorkerMain.EXIT_OK;
            }
            if (!options.apply()) {
                out.println("DRY RUN: nothing published; add --reason TEXT --apply to erase it for good");
                return WorkerMain.EXIT_OK;
            }
            try (MemoryPublisher publisher =
                    new MemoryPublisher(options.bootstrapServers(), options.topics(), registry)) {
                String requestId = "erase:" + options.space() + ":" + options.memoryId();
                MemoryOutcome outcome = Outcomes.await(
                        publisher.publish(Requests.erase(
                                        options.space(),
                                        Requests.actor(ActorType.ADMIN, options.admin()),
                                        options.memoryId(),
                                        options.reason())
                                .setRequestId(requestId)
                                .build()),
                        options.timeout(),
                        requestId,
                        "it may still be applied: run the command again to see");
                if (!outcome.getAccepted()) {
                    out.println("REJECTED code=" + outcome.getCode() + " " + outcome.getMessage());
                    return WorkerMain.EXIT_BROKEN;
                }
                out.println("ERASED space=" + options.space() + " memory=" + options.memoryId() + " seq="
                        + outcome.getSeq() + " request_id=" + requestId + "; proof: GET /v1/spaces/" + options.space()
                        + "/memories/" + options.memoryId() + "/erasure");
                return WorkerMain.EXIT_OK;
            }
        }
    }

    private static Found find(SpaceChainReader reader, String space, String memoryId, PrintStream err) {
        Found[] found = new Found[1];
        reader.read(space, event -> found[0] = next(found[0], event, memoryId), new ProgressLine(err));
        return found[0];
    }

    private static Found next(Found found, MemoryEvent event, String memoryId) {
        if (event.getPayload() instanceof MemoryErased erased
                && erased.getMemoryId().equals(memoryId)) {
            return found == null ? null : new Found(found.last(), found.firstSeq(), event.getSeq(), event.getSeq());
        }
        Memory[] last = new Memory[1];
        ChainContent.forEachMemory(event.getPayload(), m -> {
            if (m.getId().equals(memoryId)) {
                last[0] = m;
            }
        });
        if (last[0] == null) {
            return found;
        }
        return new Found(
                last[0],
                found == null ? event.getSeq() : found.firstSeq(),
                event.getSeq(),
                found == null ? null : found.erasedSeq());
    }

    private static void print(Found found, PrintStream out) {
        Memory m = found.last();
        out.println("MEMORY space=" + m.getSpace() + " id=" + m.getId() + " state=" + lower(m.getState()) + " version="
                + m.getVersion() + " kind=" + lower(m.getKind()) + " tier=" + lower(m.getTier())
                + (m.getCategory() == null ? "" : " category=" + m.getCategory()) + " first_seq=" + found.firstSeq()
                + " last_seq=" + found.lastSeq() + " (texts not shown)");
    }

    private static String lower(Enum<?> value) {
        return value == null ? "-" : value.name().toLowerCase(Locale.ROOT);
    }
}
