package io.memorychain.api.categories;

import io.memorychain.domain.category.CategoryPolicy;
import io.memorychain.domain.category.CategoryPolicy.Category;
import io.memorychain.domain.category.CategoryPolicy.ContextMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Reads the categories file (docs/architecture.md §13) into a {@link CategoryPolicy}:
 *
 * <pre>
 * categories:
 *   system:
 *     - name: profile
 *       context: all          # all | rag
 *     - name: event
 *       context: rag
 *       rag_length: 30        # required for rag: at most this many memories of the category per retrieval
 *   custom: []
 * allowlists:
 *   planner: [goals, tasks, projects]
 * </pre>
 *
 * Strict: unknown keys, duplicate names, non-string names (an unquoted {@code yes} is a boolean in YAML), allowlists
 * naming unknown categories and bad values are errors naming the file and the entry, so a typo fails startup instead of
 * silently widening or narrowing what an agent may use.
 */
final class CategoryPolicyYaml {

    /** The default file, on the classpath of memory-api. */
    public static final String DEFAULT_RESOURCE = "categories.yaml";

    private static final Set<String> TOP_KEYS = Set.of("categories", "allowlists");
    private static final Set<String> GROUPS = Set.of("system", "custom");
    private static final Set<String> CATEGORY_KEYS =
            Set.of("name", "context", "rag_length", "ttl", "ttl_importance_below", "purge_after");

    private CategoryPolicyYaml() {}

    /** Loads a categories file. */
    public static CategoryPolicy load(Path file) {
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return parse(reader, file.toString());
        } catch (NoSuchFileException e) {
            throw new InvalidCategoriesException(file + ": no such categories file (memory.categories-file)");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the categories file " + file + ": " + e.getMessage(), e);
        }
    }

    /** Loads the default {@value #DEFAULT_RESOURCE} shipped with memory-api. */
    public static CategoryPolicy loadDefault() {
        String source = "classpath:" + DEFAULT_RESOURCE;
        InputStream in = CategoryPolicyYaml.class.getClassLoader().getResourceAsStream(DEFAULT_RESOURCE);
        if (in == null) {
            throw new InvalidCategoriesException(source + ": not found on the classpath");
        }
        try (Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
            return parse(reader, source);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + source + ": " + e.getMessage(), e);
        }
    }

    /** @param source names the file in error messages */
    public static CategoryPolicy parse(Reader yaml, String source) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        Object root;
        try {
            root = new Yaml(new SafeConstructor(options)).load(yaml);
        } catch (YAMLException e) {
            throw new InvalidCategoriesException(source + ": not valid YAML: " + e.getMessage());
        }
        return new Parser(source).policy(root);
    }

    /** A categories file that cannot be used; the message names the file and the entry. */
    public static final class InvalidCategoriesException extends IllegalArgumentException {

        private static final long serialVersionUID = 1L;

        public InvalidCategoriesException(String message) {
            super(message);
        }
    }

    private record Parser(String source) {

        CategoryPolicy policy(Object root) {
            Map<String, Object> top = map(root, "the document");
            if (top.isEmpty()) {
                throw error("the document", "is empty; expected 'categories' and 'allowlists'");
            }
            unknownKeys(top, TOP_KEYS, "the document");
            Map<String, Category> categories = categories(top.get("categories"));
            Map<String, Set<String>> allowlists = allowlists(top.get("allowlists"), categories);
            try {
                return new CategoryPolicy(categories, allowlists);
            } catch (IllegalArgumentException e) {
                throw new InvalidCategoriesException(source + ": " + e.getMessage());
            }
        }

        private Map<String, Category> categories(Object node) {
            Map<String, Category> out = new LinkedHashMap<>();
            if (node == null) {
                return out;
            }
            Map<String, Object> groups = map(node, "categories");
            unknownKeys(groups, GROUPS, "categories");
            for (String group : List.of("system", "custom")) {
                List<Object> entries = list(groups.get(group), "categories." + group);
                for (int i = 0; i < entries.size(); i++) {
                    String where = "categories." + group + "[" + i + "]";
                    Category c = category(entries.get(i), where);
                    if (out.putIfAbsent(c.name(), c) != null) {
                        throw error(where, "repeats the category name '" + c.name() + "'");
                    }
                }
            }
            return out;
        }

        private Category category(Object node, String where) {
            Map<String, Object> entry = map(node, where);
            Object rawName = entry.get("name");
            if (!(rawName instanceof String name) || name.isBlank() || !name.equals(name.strip())) {
                throw error(
                        where,
                        "needs a 'name': a non-blank string without surrounding spaces, got " + describe(rawName));
            }
            where = where + " (" + name + ")";
            unknownKeys(entry, CATEGORY_KEYS, where);
            Object rawContext = entry.get("context");
            if (!(rawContext instanceof String context)) {
                throw error(where, "needs 'context: all' or 'context: rag', got " + describe(rawContext));
            }
            ContextMode mode = switch (context.toLowerCase(Locale.ROOT)) {
                case "all" -> ContextMode.ALL;
                case "rag" -> ContextMode.RAG;
                default -> throw error(where, "has context '" + context + "'; use all or rag");
            };
            Object rawLength = entry.get("rag_length");
            if (rawLength == null && mode == ContextMode.RAG) {
                throw error(
                        where, "has context rag and needs 'rag_length' (how many memories retrieval returns at most)");
            }
            int ragLength = 0;
            if (rawLength != null) {
                if (!(rawLength instanceof Integer length) || length < (mode == ContextMode.RAG ? 1 : 0)) {
                    throw error(
                            where,
                            "has rag_length " + describe(rawLength) + "; use a whole number"
                                    + (mode == ContextMode.RAG ? " of at least 1" : " of at least 0"));
                }
                ragLength = length;
            }
            return new Category(name, mode, ragLength, lifecycle(entry, where));
        }

        /** ttl, ttl_importance_below and purge_after (docs/architecture.md §12, §9: no purge unless configured). */
        private CategoryPolicy.Lifecycle lifecycle(Map<String, Object> entry, String where) {
            java.time.Duration ttl = duration(entry.get("ttl"), where, "ttl");
            java.time.Duration purgeAfter = duration(entry.get("purge_after"), where, "purge_after");
            Object rawBelow = entry.get("ttl_importance_below");
            int below = CategoryPolicy.Lifecycle.DEFAULT_IMPORTANCE_BELOW;
            if (rawBelow != null) {
                if (!(rawBelow instanceof Integer value) || value < 1 || value > 6) {
                    throw error(
                            where, "has ttl_importance_below " + describe(rawBelow) + "; use 1..6 (6: any importance)");
                }
                below = value;
            }
            if (ttl == null && (purgeAfter != null || rawBelow != null)) {
                throw error(where, "sets purge_after or ttl_importance_below without a ttl");
            }
            try {
                return new CategoryPolicy.Lifecycle(ttl, below, purgeAfter);
            } catch (IllegalArgumentException e) {
                throw error(where, e.getMessage());
            }
        }

        private java.time.Duration duration(Object raw, String where, String key) {
            if (raw == null || "never".equals(raw)) {
                return null;
            }
            try {
                return java.time.Duration.parse(String.valueOf(raw));
            } catch (java.time.format.DateTimeParseException e) {
                throw error(where, "has " + key + " " + describe(raw) + "; use an ISO-8601 duration such as P60D");
            }
        }

        private Map<String, Set<String>> allowlists(Object node, Map<String, Category> categories) {
            Map<String, Set<String>> out = new LinkedHashMap<>();
            if (node == null) {
                return out;
            }
            Map<String, Object> lists = map(node, "allowlists");
            for (Map.Entry<String, Object> e : lists.entrySet()) {
                String where = "allowlists." + e.getKey();
                if (e.getValue() == null) {
                    throw error(where, "is empty; give a list of categories ([] allows only uncategorized memories)");
                }
                Set<String> names = new LinkedHashSet<>();
                for (Object item : list(e.getValue(), where)) {
                    if (!(item instanceof String name) || name.isBlank()) {
                        throw error(where, "lists " + describe(item) + "; category names are strings (quote them)");
                    }
                    names.add(name);
                }
                Set<String> unknown = new TreeSet<>(names);
                unknown.removeAll(categories.keySet());
                if (!unknown.isEmpty()) {
                    throw error(
                            where,
                            "names unknown categories " + unknown + "; define them under categories.system "
                                    + "or categories.custom (known: "
                                    + String.join(", ", new TreeSet<>(categories.keySet())) + ")");
                }
                out.put(e.getKey(), Set.copyOf(names));
            }
            return out;
        }

        @SuppressWarnings("unchecked")
        private Map<String, Object> map(Object node, String where) {
            if (node == null) {
                return Map.of();
            }
            if (!(node instanceof Map<?, ?> m)) {
                throw error(where, "must be a mapping, got " + describe(node));
            }
            for (Object key : m.keySet()) {
                if (!(key instanceof String s) || s.isBlank()) {
                    throw error(where, "has the key " + describe(key) + "; keys are non-blank strings (quote them)");
                }
            }
            return (Map<String, Object>) m;
        }

        private List<Object> list(Object node, String where) {
            if (node == null) {
                return List.of();
            }
            if (!(node instanceof List<?> l)) {
                throw error(where, "must be a list, got " + describe(node));
            }
            return new ArrayList<>(l);
        }

        private void unknownKeys(Map<String, Object> map, Set<String> known, String where) {
            Set<String> unknown = new TreeSet<>(map.keySet());
            unknown.removeAll(known);
            if (!unknown.isEmpty()) {
                throw error(where, "has unknown keys " + unknown + "; expected " + new TreeSet<>(known));
            }
        }

        private InvalidCategoriesException error(String where, String problem) {
            return new InvalidCategoriesException(source + ": " + where + " " + problem);
        }

        private static String describe(Object value) {
            if (value == null) {
                return "nothing";
            }
            if (value instanceof String s) {
                return "'" + s + "'";
            }
            return value + " (" + value.getClass().getSimpleName().toLowerCase(Locale.ROOT) + ")";
        }
    }
}
