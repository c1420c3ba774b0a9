package io.memorychain.projector.retrieval;

import io.memorychain.avro.Memory;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Entity resolution for graph traversal (docs/architecture.md §7, "fuzzy match on names"): an entity memory is named
 * by a query when its name, or one of the capitalised words of its name (a first name, a surname: "Alex" for
 * "Alex Moreno"), occurs in the query as whole words, ignoring case. The name is the entity's summary, else its
 * content up to the first " (", " —", " - ", ":" or line break: {@code "Atlas — billing platform (entity: project)"}
 * is "Atlas".
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
        String name = name(entity);
        String q = query.toLowerCase(Locale.ROOT);
        if (name.length() >= 2 && occurs(q, name)) {
            return true;
        }
        for (String word : name.split("[\\s,]+")) {
            if (word.length() >= 3 && Character.isUpperCase(word.codePointAt(0)) && occurs(q, word)) {
                return true;
            }
        }
        return false;
    }

    private static boolean occurs(String lowerCaseQuery, String phrase) {
        return Pattern.compile("(?<![\\p{L}\\p{N}])" + Pattern.quote(phrase.toLowerCase(Locale.ROOT))
                + "(?![\\p{L}\\p{N}])").matcher(lowerCaseQuery).find();
    }
}
