package io.memorychain.worker;

import io.memorychain.events.AvroTrust;
import io.memorychain.events.registry.SchemaRegistry;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Command-line entry point of the worker. Commands:
 *
 * <ul>
 *   <li>{@code verify}: verifies chains from the events topic (see {@link VerifyCommand#USAGE}).
 *   <li>{@code export-chain}: writes one space's chain as JSON Lines for a second-language verifier (see
 *       {@link ExportChainCommand#USAGE}).
 *   <li>{@code link}: runs the linker job until stopped (see {@link LinkCommand#USAGE}).
 *   <li>{@code refine}: runs the refinement trigger until stopped (see {@link RefineCommand#USAGE}).
 *   <li>{@code tom}: runs the ToM insight job until stopped (see {@link TomCommand#USAGE}).
 *   <li>{@code consolidate}: runs the daily consolidation job until stopped (see {@link ConsolidateCommand#USAGE}).
 *   <li>{@code reflect}: runs the reflection job until stopped (see {@link ReflectCommand#USAGE}).
 *   <li>{@code lifecycle}: runs the lifecycle worker (decay, TTL) until stopped (see {@link LifecycleCommand#USAGE}).
 *   <li>{@code rollback}: plans (dry run) or applies a rollback of a space (see {@link RollbackCommand#USAGE}).
 *   <li>{@code erase}: shows (dry run) or erases one memory for good (see {@link EraseCommand#USAGE}).
 *   <li>{@code keygen}: creates the chain signing key several instances share (see {@link KeygenCommand#USAGE}).
 * </ul>
 *
 * Exit status: 0 success, 1 a verified chain is broken, 2 usage error or the command could not run; errors are printed
 * as one message on stderr, never as a stack trace. Results go to stdout, logs and progress to stderr.
 *
 * <p>{@link #main} trusts the generated Avro classes first ({@link AvroTrust}), so {@code java -jar} needs no
 * {@code -D} flag.
 */
public final class WorkerMain {

    static final int EXIT_OK = 0;
    static final int EXIT_BROKEN = 1;
    static final int EXIT_ERROR = 2;

    private static final String USAGE = """
            usage: memory-worker <command> [options]

            commands:
            """;

    private final RegistryFactory registries;

    WorkerMain(RegistryFactory registries) {
        this.registries = registries;
    }

    public static void main(String[] args) {
        AvroTrust.install();
        int status = new WorkerMain(WorkerMain::openRegistry).run(args, System.out, System.err);
        System.out.flush();
        System.exit(status);
    }

    /** The registry clients of {@code memory-events}, chosen by the command line. */
    static SchemaRegistry openRegistry(RegistrySpec spec) {
        if (spec.url() != null) {
            return new io.memorychain.events.registry.ConfluentRegistryClient(spec.url());
        }
        return new io.memorychain.events.registry.KafkaTopicSchemaRegistry(
                spec.bootstrapServers(), spec.topic(), (short) 1);
    }

    /** What a command does with its arguments (after the command's name); returns the exit status. */
    @FunctionalInterface
    private interface Runner {
        int run(List<String> args, PrintStream out, PrintStream err) throws UsageException;
    }

    /** A command: its usage (the first {@code usageLines} are shown on a usage error) and how it runs. */
    private record Entry(String usage, int usageLines, Runner runner) {}

    /** The commands, in the order the usage lists them. */
    private Map<String, Entry> commands() {
        Map<String, Entry> commands = new LinkedHashMap<>();
        commands.put(
                "verify",
                new Entry(
                        VerifyCommand.USAGE,
                        3,
                        (args, out, err) -> VerifyCommand.run(VerifyCommand.parse(args), registries, out, err)));
        commands.put(
                "export-chain",
                new Entry(
                        ExportChainCommand.USAGE,
                        2,
                        (args, out, err) ->
                                ExportChainCommand.run(ExportChainCommand.parse(args), registries, out, err)));
        commands.put(
                "link",
                new Entry(
                        LinkCommand.USAGE,
                        2,
                        (args, out, err) -> LinkCommand.run(LinkCommand.parse(args), registries, err)));
        commands.put(
                "refine",
                new Entry(
                        RefineCommand.USAGE,
                        3,
                        (args, out, err) -> RefineCommand.run(RefineCommand.parse(args), registries, err)));
        commands.put(
                "tom",
                new Entry(
                        TomCommand.USAGE,
                        3,
                        (args, out, err) -> TomCommand.run(TomCommand.parse(args, System.getenv()), registries, err)));
        commands.put(
                "lifecycle",
                new Entry(
                        LifecycleCommand.USAGE,
                        3,
                        (args, out, err) -> LifecycleCommand.run(LifecycleCommand.parse(args), registries, err)));
        commands.put(
                "consolidate",
                new Entry(
                        ConsolidateCommand.USAGE,
                        3,
                        (args, out, err) -> ConsolidateCommand.run(
                                ConsolidateCommand.parse(args, System.getenv()), registries, err)));
        commands.put(
                "reflect",
                new Entry(
                        ReflectCommand.USAGE,
                        3,
                        (args, out, err) ->
                                ReflectCommand.run(ReflectCommand.parse(args, System.getenv()), registries, err)));
        commands.put(
                "rollback",
                new Entry(
                        RollbackCommand.USAGE,
                        2,
                        (args, out, err) -> RollbackCommand.run(RollbackCommand.parse(args), registries, out, err)));
        commands.put(
                "erase",
                new Entry(
                        EraseCommand.USAGE,
                        2,
                        (args, out, err) -> EraseCommand.run(EraseCommand.parse(args), registries, out, err)));
        commands.put(
                "keygen",
                new Entry(
                        KeygenCommand.USAGE, 1, (args, out, err) -> KeygenCommand.run(KeygenCommand.parse(args), out)));
        return commands;
    }

    /** Runs one command; returns the exit status. */
    int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            err.println("error: no command");
            err.print(usage());
            return EXIT_ERROR;
        }
        String name = args[0];
        List<String> rest = List.of(args).subList(1, args.length);
        if (List.of("help", "--help", "-h").contains(name)) {
            out.print(usage());
            return EXIT_OK;
        }
        Entry entry = commands().get(name);
        if (entry == null) {
            err.println("error: unknown command '" + name + "'");
            err.print(usage());
            return EXIT_ERROR;
        }
        if (rest.contains("--help") || rest.contains("-h")) {
            out.println(entry.usage());
            return EXIT_OK;
        }
        return command(
                name, entry.usage(), entry.usageLines(), () -> entry.runner().run(rest, out, err), err);
    }

    /** A command that parses its arguments, then runs; returns the exit status. */
    @FunctionalInterface
    private interface Command {
        int run() throws UsageException;
    }

    /** Runs a command: a usage error prints the first {@code usageLines} of its usage, a failure one line. */
    private static int command(String name, String usage, int usageLines, Command command, PrintStream err) {
        try {
            return command.run();
        } catch (UsageException e) {
            err.println("error: " + e.getMessage());
            err.println("usage: memory-worker "
                    + usage.lines()
                            .limit(usageLines)
                            .reduce((a, b) -> a + "\n" + b)
                            .orElse(name) + "\n(memory-worker " + name + " --help for details)");
            return EXIT_ERROR;
        } catch (RuntimeException e) {
            Logger log = LoggerFactory.getLogger(WorkerMain.class);
            log.debug("{} failed", name, e);
            err.println("error: " + describe(e));
            return EXIT_ERROR;
        }
    }

    private String usage() {
        return USAGE
                + String.join(
                        "\n",
                        commands().values().stream()
                                .map(e -> e.usage().indent(2))
                                .toList());
    }

    /** The exception's message and its causes', on one line. */
    static String describe(Throwable e) {
        StringBuilder message = new StringBuilder();
        Throwable t = e;
        for (int depth = 0; t != null && depth < 5; depth++, t = t.getCause()) {
            String text = t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
            if (message.indexOf(text) < 0) {
                message.append(message.length() == 0 ? "" : ": ").append(text);
            }
        }
        return message.toString();
    }
}
