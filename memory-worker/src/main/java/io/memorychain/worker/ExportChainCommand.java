package io.memorychain.worker;

import io.memorychain.events.Topics;
import io.memorychain.events.chain.ChainExport;
import io.memorychain.events.chain.KeyRing;
import io.memorychain.events.registry.SchemaRegistry;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * {@code export-chain}: writes one space's chain as JSON Lines (docs/chain-format.md) for a verifier that does not
 * trust our Java code ({@code node verifier/verify.mjs FILE}); progress on stderr.
 */
final class ExportChainCommand {

    static final String USAGE = """
            export-chain --bootstrap-servers HOST:PORT --space S [--out FILE] [--keys FILE.pub]
                   [--registry-url URL | --registry-topic TOPIC] [--topic-prefix P]

              Writes the chain of space S from the events topic (<prefix>memory.events.v1) as JSON Lines: a header
              (writer schemas by id, public keys), then one line per event with the record value exactly as on the
              topic (base64) and its decoded JSON. Check it with: node verifier/verify.mjs FILE (docs/chain-format.md).

              --out                the file to write (default: stdout); written to FILE.tmp, then renamed
              --keys               public keys to put in the header, lines of '<key id> <hex public key>' (the .pub
                                   file next to the sequencer's signing key); without it the header lists none
              --registry-url       schema registry speaking the Confluent REST API
              --registry-topic     the embedded registry's topic (default: <prefix>_memory_schemas)
              --topic-prefix       prefix of the topic names (default: none)

              Prints 'exported N event(s) of S, head seq H' on stderr. Exit status: 0 written, 2 usage error or the
              export could not be written.""";

    private static final long PROGRESS_EVERY = 10_000;

    /** @param out null for stdout; @param keys null for none */
    record Options(String bootstrapServers, String space, Path out, Path keys, RegistrySpec registry, Topics topics) {}

    private ExportChainCommand() {}

    static Options parse(List<String> args) throws UsageException {
        Map<String, String> values = CommandLine.parse(
                args,
                Set.of(
                        "--bootstrap-servers",
                        "--space",
                        "--out",
                        "--keys",
                        "--registry-url",
                        "--registry-topic",
                        "--topic-prefix"),
                Set.of());
        String bootstrap = CommandLine.required(values, "--bootstrap-servers", "");
        String space = CommandLine.required(values, "--space", "");
        Path keys = values.containsKey("--keys") ? Path.of(values.get("--keys")) : null;
        if (keys != null && (!Files.isReadable(keys) || Files.isDirectory(keys))) {
            throw new UsageException("--keys: cannot read " + keys);
        }
        Path out = values.containsKey("--out") ? Path.of(values.get("--out")) : null;
        Topics topics = CommandLine.topics(values);
        return new Options(bootstrap, space, out, keys, CommandLine.registry(values, bootstrap, topics), topics);
    }

    static int run(Options options, RegistryFactory registries, PrintStream stdout, PrintStream err)
            throws UsageException {
        KeyRing keys = KeyRing.of();
        if (options.keys() != null) {
            try {
                keys = KeyRing.read(options.keys());
            } catch (RuntimeException e) {
                throw new UsageException("--keys: " + options.keys() + " is not a public key file of lines '<key id> "
                        + "<hex public key>' (" + WorkerMain.describe(e) + ")");
            }
        }
        Map<String, Object> consumerConfig =
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServers());
        try (SchemaRegistry registry = registries.open(options.registry())) {
            ChainExport export =
                    new ChainExport(consumerConfig, options.topics().events(), registry, keys, Clock.systemUTC());
            ChainExport.Progress progress = (done, total) -> {
                if (done % PROGRESS_EVERY == 0 || done == total) {
                    err.println("export-chain: " + done + " / " + total + " record(s)");
                }
            };
            ChainExport.Summary summary;
            if (options.out() == null) {
                summary = export.export(options.space(), stdout, progress);
                stdout.flush();
            } else {
                summary = toFile(export, options, progress);
            }
            err.println("exported " + summary.events() + " event(s) of " + options.space() + ", head seq "
                    + summary.headSeq() + (options.out() == null ? "" : " to " + options.out()));
            if (summary.events() == 0) {
                err.println("note: no events of space '" + options.space() + "' in "
                        + options.topics().events());
            }
            return WorkerMain.EXIT_OK;
        }
    }

    private static ChainExport.Summary toFile(ChainExport export, Options options, ChainExport.Progress progress) {
        Path target = options.out().toAbsolutePath();
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        try {
            if (target.getParent() != null) {
                Files.createDirectories(target.getParent());
            }
            ChainExport.Summary summary;
            try (OutputStream file = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
                summary = export.export(options.space(), file, progress);
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return summary;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target, e);
        }
    }
}
