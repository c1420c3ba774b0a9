package io.memorychain.worker;

import io.memorychain.events.AvroTrust;
import io.memorychain.events.registry.SchemaRegistry;
import java.io.PrintStream;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Command-line entry point of the worker. Commands:
 * <ul>
 *   <li>{@code verify}: verifies chains from the events topic (see {@link VerifyCommand#USAGE}).</li>
 *   <li>{@code export-chain}: writes one space's chain as JSON Lines for a second-language verifier (see
 *   {@link ExportChainCommand#USAGE}).</li>
 *   <li>{@code link}: runs the linker job until stopped (see {@link LinkCommand#USAGE}).</li>
 *   <li>{@code refine}: runs the refinement trigger until stopped (see {@link RefineCommand#USAGE}).</li>
 *   <li>{@code tom}: runs the ToM insight job until stopped (see {@link TomCommand#USAGE}).</li>
 *   <li>{@code consolidate}: runs the daily consolidation job until stopped (see
 *   {@link ConsolidateCommand#USAGE}).</li>
 *   <li>{@code reflect}: runs the reflection job until stopped (see {@link ReflectCommand#USAGE}).</li>
 *   <li>{@code lifecycle}: runs the lifecycle worker (decay, TTL) until stopped (see {@link LifecycleCommand#USAGE}).</li>
 *   <li>{@code rollback}: plans (dry run) or applies a rollback of a space (see {@link RollbackCommand#USAGE}).</li>
 *   <li>{@code keygen}: creates the chain signing key several instances share (see {@link KeygenCommand#USAGE}).</li>
 * </ul>
 * Exit status: 0 success, 1 a verified chain is broken, 2 usage error or the command could not run; errors are
 * printed as one message on stderr, never as a stack trace. Results go to stdout, logs and progress to stderr.
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

    /**
     * The registry clients of {@code memory-events}, chosen by the command line.
     */
    static SchemaRegistry openRegistry(RegistrySpec spec) {
        if (spec.url() != null) {
            return new io.memorychain.events.registry.ConfluentRegistryClient(spec.url());
        }
        return new io.memorychain.events.registry.KafkaTopicSchemaRegistry(spec.bootstrapServers(), spec.topic(),
                (short) 1);
    }

    /** Runs one command; returns the exit status. */
    int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            err.println("error: no command");
            err.print(usage());
            return EXIT_ERROR;
        }
        String command = args[0];
        List<String> rest = List.of(args).subList(1, args.length);
        switch (command) {
            case "help", "--help", "-h" -> {
                out.print(usage());
                return EXIT_OK;
            }
            case "verify" -> {
                if (rest.contains("--help") || rest.contains("-h")) {
                    out.println(VerifyCommand.USAGE);
                    return EXIT_OK;
                }
                return verify(rest, out, err);
            }
            case "export-chain" -> {
                if (rest.contains("--help") || rest.contains("-h")) {
                    out.println(ExportChainCommand.USAGE);
                    return EXIT_OK;
                }
                return command("export-chain", ExportChainCommand.USAGE, 2, () -> ExportChainCommand.run(
                        ExportChainCommand.parse(rest), registries, out, err), err);
            }
            case "link" -> {
                if (rest.contains("--help") || rest.contains("-h")) {
                    out.println(LinkCommand.USAGE);
                    return EXIT_OK;
                }
                return link(rest, err);
            }
            case "refine" -> {
                if (rest.contains("--help") || rest.contains("-h")) {
                    out.println(RefineCommand.USAGE);
                    return EXIT_OK;
                }
                return refine(rest, err);
            }
            case "tom" -> {
                if (rest.contains("--help") || rest.contains("-h")) {
                    out.println(TomCommand.USAGE);
                    return EXIT_OK;
                }
                return tom(rest, err);
            }
            case "consolidate" -> {
                if (rest.contains("--help") || rest.contains("-h")) {
                    out.println(ConsolidateCommand.USAGE);
                    return EXIT_OK;
                }
                return consolidate(rest, err);
            }
            case "reflect" -> {
                if (rest.contains("--help") || rest.contains("-h")) {
                    out.println(ReflectCommand.USAGE);
                    return EXIT_OK;
                }
                return command("reflect", ReflectCommand.USAGE, 3, () -> ReflectCommand.run(
                        ReflectCommand.parse(rest, System.getenv()), registries, err), err);
            }
            case "lifecycle" -> {
                if (rest.contains("--help") || rest.contains("-h")) {
                    out.println(LifecycleCommand.USAGE);
                    return EXIT_OK;
                }
                return lifecycle(rest, err);
            }
            case "rollback" -> {
                if (rest.contains("--help") || rest.contains("-h")) {
                    out.println(RollbackCommand.USAGE);
                    return EXIT_OK;
                }
                return command("rollback", RollbackCommand.USAGE, 2, () -> RollbackCommand.run(
                        RollbackCommand.parse(rest), registries, out, err), err);
            }
            case "keygen" -> {
                if (rest.contains("--help") || rest.contains("-h")) {
                    out.println(KeygenCommand.USAGE);
                    return EXIT_OK;
                }
                return command("keygen", KeygenCommand.USAGE, 1, () -> KeygenCommand.run(KeygenCommand.parse(rest), out), err);
            }
            default -> {
                err.println("error: unknown command '" + command + "'");
                err.print(usage());
                return EXIT_ERROR;
            }
        }
    }

    private int verify(List<String> args, PrintStream out, PrintStream err) {
        return command("verify", VerifyCommand.USAGE, 3, () -> VerifyCommand.run(VerifyCommand.parse(args), registries,
                out, err), err);
    }

    private int link(List<String> args, PrintStream err) {
        return command("link", LinkCommand.USAGE, 2, () -> LinkCommand.run(LinkCommand.parse(args), registries, err), err);
    }

    private int refine(List<String> args, PrintStream err) {
        return command("refine", RefineCommand.USAGE, 3, () -> RefineCommand.run(RefineCommand.parse(args), registries,
                err), err);
    }

    private int tom(List<String> args, PrintStream err) {
        return command("tom", TomCommand.USAGE, 3, () -> TomCommand.run(TomCommand.parse(args, System.getenv()),
                registries, err), err);
    }

    private int consolidate(List<String> args, PrintStream err) {
        return command("consolidate", ConsolidateCommand.USAGE, 3, () -> ConsolidateCommand.run(
                ConsolidateCommand.parse(args, System.getenv()), registries, err), err);
    }

    private int lifecycle(List<String> args, PrintStream err) {
        return command("lifecycle", LifecycleCommand.USAGE, 3, () -> LifecycleCommand.run(LifecycleCommand.parse(args),
                registries, err), err);
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
            err.println("usage: memory-worker " + usage.lines().limit(usageLines)
                    .reduce((a, b) -> a + "\n" + b).orElse(name) + "\n(memory-worker " + name + " --help for details)");
            return EXIT_ERROR;
        } catch (RuntimeException e) {
            Logger log = LoggerFactory.getLogger(WorkerMain.class);
            log.debug("{} failed", name, e);
            err.println("error: " + describe(e));
            return EXIT_ERROR;
        }
    }

    private static String usage() {
        return USAGE + VerifyCommand.USAGE.indent(2) + "\n" + ExportChainCommand.USAGE.indent(2) + "\n" + LinkCommand.USAGE.indent(2) + "\n"
                + RefineCommand.USAGE.indent(2) + "\n" + TomCommand.USAGE.indent(2) + "\n"
                + LifecycleCommand.USAGE.indent(2) + "\n" + ConsolidateCommand.USAGE.indent(2) + "\n"
                + ReflectCommand.USAGE.indent(2) + "\n"
                + RollbackCommand.USAGE.indent(2) + "\n" + KeygenCommand.USAGE.indent(2);
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
