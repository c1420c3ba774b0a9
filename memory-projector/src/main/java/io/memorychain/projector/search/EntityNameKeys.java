package io.memorychain.projector.search;

import io.memorychain.avro.Memory;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Entity resolution by exact keys (docs/architecture.md §7, entity channel): the names an entity memory answers to, and
 * the names a query could be saying, as the same normalised strings, so that resolution is one term lookup in the index
 * ({@link MemoryIndex#namedEntities}) however many memories the space holds.
 *
 * <p>Normalisation: accents dropped, lower case, possessives removed ("Alex's", "Charles'"), every other character that
 * is not a letter or digit a word break, words joined by one space: "Hollis &amp; Pratt Logistics" is {@code hollis
 * pratt logistics}.
 *
 * <p>An entity's keys: its name (the summary, else the content up to the first " (", " —", " – ", " - ", ":" or line
 * break: {@code "Atlas — billing platform (entity: project)"} is "Atlas"); a short capitalised parenthesis right after
 * the name ("Critical Success Index (CSI) — ..." also answers to "CSI", "Alex (person)" not to "person"); and each
 * capitalised word of a multi-word name of at least three letters that is not a title ("Dr.", "Prof."): "Alex" and
 * "Moreno" for "Alex Moreno". A word that is also a common English word ("Schools", "Office", "Met", "Park") is a key
 * only in its capitalised form, {@value #CASED}-prefixed, and a query names it only when it writes it capitalised after
 * its first word: "the Met Office radar" names "Met Office Nimrod composite", "who met Lena" does not.
 *
 * <p>A query's keys: every run of up to {@value #MAX_WORDS} consecutive normalised words, plus each capitalised word
 * after the first in its {@value #CASED} form.
 */
public final class EntityNameKeys {

    /** Prefix of the keys that only a capitalised word of a query matches. */
    public static final String CASED = "=";
    /** The longest name, in words, that a query can name. */
    public static final int MAX_WORDS = 6;

    private static final Pattern END_OF_NAME = Pattern.compile(" \\(| —| – | - |:|\\n");
    private static final Pattern ALIAS_AFTER_NAME = Pattern.compile(" \\(([^():]{1,40})\\)");
    private static final Pattern WORD_BREAK = Pattern.compile("[^\\p{L}\\p{N}']+");
    private static final Pattern MARKS = Pattern.compile("\\p{M}+");
    private static final Set<String> TITLES = Set.of("dr", "mr", "mrs", "ms", "mx", "prof", "sir", "dame", "st");

    /**
     * Common English words that are also words of names: a query uses them as plain words far more often than as names,
     * so they name an entity only when capitalised inside a sentence.
     */
    static final Set<String> COMMON = Set.copyOf(List.of(
            // function words
            "the",
            "and",
            "for",
            "are",
            "but",
            "not",
            "you",
            "all",
            "any",
            "can",
            "had",
            "her",
            "was",
            "one",
            "our",
            "out",
            "day",
            "get",
            "has",
            "him",
            "his",
            "how",
            "man",
            "new",
            "now",
            "old",
            "see",
            "two",
            "way",
            "who",
            "did",
            "its",
            "let",
            "put",
            "say",
            "she",
            "too",
            "use",
            "what",
            "when",
            "where",
            "which",
            "why",
            "with",
            "from",
            "they",
            "them",
            "their",
            "this",
            "that",
            "these",
            "those",
            "there",
            "here",
            "have",
            "been",
            "were",
            "will",
            "would",
            "could",
            "should",
            "about",
            "after",
            "before",
            "over",
            "under",
            "into",
            "onto",
            "upon",
            "also",
            "just",
            "like",
            "more",
            "most",
            "much",
            "many",
            "some",
            "such",
            "than",
            "then",
            "very",
            "does",
            "done",
            "doing",
            "your",
            "yours",
            "mine",
            "ours",
            "each",
            "every",
            "other",
            "only",
            "same",
            "both",
            "either",
            "neither",
            "while",
            "again",
            "ever",
            "never",
            "always",
            "still",
            "yet",
            "off",
            "own",
            "per",
            "via",
            "met",
            "meet",
            "may",
            "might",
            "must",
            "shall",
            "yes",
            "no",
            // words often found in names of organisations, places, projects and tools
            "group",
            "team",
            "company",
            "corp",
            "inc",
            "ltd",
            "llc",
            "services",
            "service",
            "solutions",
            "systems",
            "system",
            "studio",
            "studios",
            "labs",
            "lab",
            "foods",
            "food",
            "school",
            "schools",
            "university",
            "college",
            "academy",
            "institute",
            "center",
            "centre",
            "office",
            "offices",
            "agency",
            "department",
            "ministry",
            "council",
            "network",
            "networks",
            "bank",
            "health",
            "care",
            "clinic",
            "hospital",
            "house",
            "home",
            "place",
            "park",
            "lane",
            "street",
            "road",
            "avenue",
            "square",
            "garden",
            "gardens",
            "hill",
            "lake",
            "river",
            "city",
            "town",
            "north",
            "south",
            "east",
            "west",
            "central",
            "united",
            "national",
            "international",
            "global",
            "general",
            "public",
            "open",
            "free",
            "cloud",
            "data",
            "index",
            "project",
            "platform",
            "service",
            "app",
            "apps",
            "pay",
            "workspace",
            "workshop",
            "conference",
            "summit",
            "forest",
            "critical",
            "success",
            "composite",
            "gauge",
            "rain",
            "realty",
            "dental",
            "logistics",
            "lead",
            "manager",
            "engineer",
            "owner",
            "family",
            "friend",
            "friends",
            "mom",
            "dad",
            "mother",
            "father",
            "sister",
            "brother",
            "son",
            "daughter",
            "wife",
            "husband",
            "partner",
            "baby",
            "love",
            "hope",
            "joy",
            "grace",
            "will",
            "may",
            "june",
            "april",
            "august",
            "summer",
            "winter",
            "spring",
            "autumn",
            "fall",
            "first",
            "second",
            "third",
            "best",
            "good",
            "great",
            "big",
            "little",
            "high",
            "low",
            "red",
            "blue",
            "green",
            "black",
            "white",
            "gold",
            "silver",
            "star",
            "sun",
            "moon",
            "light",
            "time",
            "life",
            "world",
            "art",
            "music",
            "book",
            "books",
            "game",
            "games",
            "sport",
            "sports",
            "club",
            "church",
            "market",
            "store",
            "shop",
            "cafe",
            "restaurant",
            "bar",
            "hotel",
            "airport",
            "station",
            "support",
            "sales",
            "marketing",
            "research",
            "development",
            "design",
            "product",
            "products",
            "studio",
            "media",
            "news",
            "press",
            "energy",
            "power",
            "water",
            "air",
            "fire",
            "earth",
            "transactional",
            "trunk",
            "based",
            "isolation"));

    private EntityNameKeys() {}

    /** The entity's name (see the class comment). */
    public static String name(Memory entity) {
        String source = source(entity);
        Matcher end = END_OF_NAME.matcher(source);
        return (end.find() ? source.substring(0, end.start()) : source).strip();
    }

    /** The keys an entity memory answers to; empty when its name has no letter or digit. */
    public static Set<String> ofEntity(Memory entity) {
        String source = source(entity);
        Matcher end = END_OF_NAME.matcher(source);
        boolean cut = end.find();
        String name = (cut ? source.substring(0, end.start()) : source).strip();
        Set<String> keys = new LinkedHashSet<>();
        addName(keys, name);
        if (cut) {
            Matcher alias = ALIAS_AFTER_NAME.matcher(source).region(end.start(), source.length());
            if (alias.lookingAt() && Character.isUpperCase(alias.group(1).codePointAt(0))) {
                addName(keys, alias.group(1));
            }
        }
        List<String> words = words(name);
        if (words.size() > 1) {
            for (String word : words) {
                String key = normalise(word);
                if (key.length() >= 3
                        && Character.isUpperCase(word.codePointAt(0))
                        && !TITLES.contains(key)
                        && key.chars().anyMatch(Character::isLetter)) {
                    keys.add(COMMON.contains(key) ? CASED + word : key);
                }
            }
        }
        return keys;
    }

    /** The keys a query could be naming an entity by. */
    public static Set<String> ofQuery(String query) {
        List<String> words = words(query);
        List<String> normalised = words.stream().map(EntityNameKeys::normalise).toList();
        Set<String> keys = new LinkedHashSet<>();
        for (int i = 0; i < normalised.size(); i++) {
            StringBuilder run = new StringBuilder();
            for (int j = i; j < Math.min(normalised.size(), i + MAX_WORDS); j++) {
                run.append(j == i ? "" : " ").append(normalised.get(j));
                keys.add(run.toString());
            }
            if (i > 0 && Character.isUpperCase(words.get(i).codePointAt(0))) {
                keys.add(CASED + words.get(i));
            }
        }
        return keys;
    }

    private static String source(Memory entity) {
        return entity.getSummary() != null && !entity.getSummary().isBlank()
                ? entity.getSummary()
                : entity.getContent();
    }

    /** The name as a whole, if it is not one common word (then only in its capitalised form). */
    private static void addName(Set<String> keys, String name) {
        List<String> words = words(name);
        String key =
                String.join(" ", words.stream().map(EntityNameKeys::normalise).toList());
        if (key.isEmpty()) {
            return;
        }
        keys.add(words.size() == 1 && COMMON.contains(key) ? CASED + words.get(0) : key);
    }

    /** The words of a text with their case and accents, possessives removed, apostrophes inside words kept. */
    static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        for (String raw : WORD_BREAK.split(stripAccents(text))) {
            String word = raw;
            if (word.endsWith("'s") || word.endsWith("'S")) {
                word = word.substring(0, word.length() - 2);
            }
            word = word.replace("'", "");
            if (!word.isEmpty()) {
                out.add(word);
            }
        }
        return out;
    }

    private static String normalise(String word) {
        return word.toLowerCase(Locale.ROOT);
    }

    private static String stripAccents(String text) {
        return MARKS.matcher(Normalizer.normalize(text.replace('’', '\''), Normalizer.Form.NFD))
                .replaceAll("");
    }
}
