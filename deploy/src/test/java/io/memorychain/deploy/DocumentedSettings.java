package io.memorychain.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code MEMORY_*} environment variables the service and the workers understand, as documented: every key of the
 * configuration table of memory-api/README.md in its environment form ({@code memory.kafka.bootstrap-servers} ->
 * {@code MEMORY_KAFKA_BOOTSTRAP_SERVERS}, as Micronaut maps them), plus the variables those documents and the service's
 * application.yml name themselves ({@code MEMORY_HTTP_PORT}, {@code MEMORY_LLM_API_KEY}, ...).
 */
final class DocumentedSettings {

    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern TABLE_KEY = Pattern.compile("^\\| `(memory\\.[a-z0-9.-]+)`", Pattern.MULTILINE);
    private static final Pattern ENV_NAME = Pattern.compile("\\bMEMORY_[A-Z0-9_]+\\b");

    private DocumentedSettings() {}

    static Set<String> environmentNames() {
        Set<String> names = new TreeSet<>();
        String readme = read(ROOT.resolve("memory-api/README.md"));
        Matcher key = TABLE_KEY.matcher(readme);
        while (key.find()) {
            names.add(key.group(1).toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_'));
        }
        for (String doc : new String[] {
            readme,
            read(ROOT.resolve("memory-api/src/main/resources/application.yml")),
            read(ROOT.resolve("memory-llm/README.md"))
        }) {
            Matcher env = ENV_NAME.matcher(doc);
            while (env.find()) {
                names.add(env.group());
            }
        }
        return names;
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
