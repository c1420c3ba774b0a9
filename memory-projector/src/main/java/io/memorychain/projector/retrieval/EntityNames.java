package io.memorychain.projector.retrieval;

import io.memorychain.avro.Memory;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Entity resolution for graph traversal (seed 001 section 11.2): an entity memory is named by a query when its name,
 * as whole words, occurs in the query (case-insensitive). The name is the entity's summary, else its content up to
 * the first " (", " —", " - ", ":" or line break: {@code "Atlas — billing platform (entity: project)"} is "Atlas".
 */
final class EntityNames {

    private static final Pattern END_OF_NAME = Pattern.compile(" \\(| —| – | - |:|\\n");

    private EntityNames() {
    }

    static String name(Memory entity) {
        String source = entity.getSummary() != null && !entity.getSummary().isBlank() ? entity.getSummary()
                : entity.getContent();
        var m = END_OF_NAME.matcher(source);
        return (m.find() ? source.substring(0, m.start()) : source).strip();
    }

    static boolean named(String query, Memory entity) {
        String name = name(entity).toLowerCase(Locale.ROOT);
        if (name.length() < 2) {
            return false;
        }
        return Pattern.compile("(?<![\\p{L}\\p{N}])" + Pattern.quote(name) + "(?![\\p{L}\\p{N}])")
                .matcher(query.toLowerCase(Locale.ROOT)).find();
    }
}
