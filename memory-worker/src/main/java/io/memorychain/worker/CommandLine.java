package io.memorychain.worker;

import io.memorychain.events.Topics;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The option syntax every worker command shares: {@code --name value}, {@code --name=value} and flags. */
final class CommandLine {

    /** Options that may be empty: a topic prefix of "" is the default catalogue. */
    private static final Set<String> MAY_BE_EMPTY = Set.of("--topic-prefix");

    private CommandLine() {}

    /**
     * @param valued options that take a value
     * @param flags options without a value (present: "true")
     * @return the options given, by name
     */
    static Map<String, String> parse(List<String> args, Set<String> valued, Set<String> flags) throws UsageException {
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (flags.contains(arg)) {
                put(values, arg, "true");
                continue;
            }
            String name = arg;
            String value;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                name = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            } else if (i + 1 < args.size() && !args.get(i + 1).startsWith("--")) {
                value = args.get(++i);
            } else {
                value = null;
            }
            if (!valued.contains(name)) {
                throw new UsageException("unknown option '" + arg + "'");
            }
            if (value == null || (value.isBlank() && !MAY_BE_EMPTY.contains(name))) {
                throw new UsageException(name + " needs a value");
            }
            put(values, name, value);
        }
        return values;
    }

    private static void put(Map<String, String> values, String name, String value) throws UsageException {
        if (values.putIfAbsent(name, value) != null) {
            throw new UsageException(name + " given twice");
        }
    }

    static String required(Map<String, String> values, String name, String hint) throws UsageException {
        String value = values.get(name);
        if (value == null) {
            throw new UsageException(name + " is required" + hint);
        }
        return value;
    }

    /** {@code --reason}, required with {@code --apply} (an ops command's dry run needs none). */
    static String reasonForApply(Map<String, String> values) throws UsageException {
        String reason = values.get("--reason");
        if (values.containsKey("--apply") && (reason == null || reason.isBlank())) {
            throw new UsageException("--apply needs --reason (kept on the chain)");
        }
        return reason;
    }

    /** {@code --timeout} as an ISO-8601 duration, {@code fallback} when absent. */
    static java.time.Duration timeout(Map<String, String> values, String fallback) throws UsageException {
        try {
            return java.time.Duration.parse(values.getOrDefault("--timeout", fallback));
        } catch (java.time.format.DateTimeParseException e) {
            throw new UsageException("--timeout must be an ISO-8601 duration such as " + fallback);
        }
    }

    static Topics topics(Map<String, String> values) {
        return Topics.withPrefix(values.getOrDefault("--topic-prefix", ""));
    }

    /** {@code --registry-url} (a Confluent-API registry) or the embedded registry's topic (default of the prefix). */
    static RegistrySpec registry(Map<String, String> values, String bootstrap, Topics topics) throws UsageException {
        String url = values.get("--registry-url");
        String registryTopic = values.get("--registry-topic");
        if (url != null && registryTopic != null) {
            throw new UsageException("give at most one of --registry-url and --registry-topic");
        }
        return url != null
                ? new RegistrySpec(url, null, bootstrap)
                : new RegistrySpec(null, registryTopic != null ? registryTopic : topics.schemas(), bootstrap);
    }
}
