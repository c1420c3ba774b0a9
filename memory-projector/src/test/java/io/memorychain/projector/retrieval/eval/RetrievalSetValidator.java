package io.memorychain.projector.retrieval.eval;

import io.memorychain.avro.MemoryState;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Checks that a {@link RetrievalSet} is consistent and that its labels can be honoured by a correct search: every
 * referenced key exists, expected memories are active, in the query's space and pass the query's own filters, must-not
 * memories are ones no correct search may return, multi-hop answers really are within two links of the entity the query
 * names, and the set is as large and as varied as {@link Requirements} asks.
 */
public final class RetrievalSetValidator {

    /** Links a multi-hop answer may be away from the entity named in {@code via}. */
    public static final int MAX_HOPS = 2;

    private final RetrievalSet set;
    private final Map<String, LabelledMemory> byKey;
    private final List<String> problems = new ArrayList<>();

    private RetrievalSetValidator(RetrievalSet set) {
        this.set = set;
        this.byKey = set.memoriesByKey();
    }

    /** Every problem found, in a stable order; empty when the set is valid. */
    public static List<String> problems(RetrievalSet set, Requirements requirements) {
        RetrievalSetValidator v = new RetrievalSetValidator(set);
        v.checkSpacesAndKeys();
        v.checkConsolidations();
        v.checkLinks();
        v.checkQueries();
        v.checkRequirements(requirements);
        return List.copyOf(v.problems);
    }

    private void problem(String message) {
        problems.add(message);
    }

    private void checkSpacesAndKeys() {
        duplicates(set.spaces(), Space::id).forEach(id -> problem("duplicate space " + id));
        duplicates(set.memories(), LabelledMemory::key).forEach(k -> problem("duplicate memory key " + k));
        Set<String> spaces = spaceIds();
        for (LabelledMemory m : set.memories()) {
            if (!spaces.contains(m.space())) {
                problem("memory " + m.key() + " is in unknown space " + m.space());
            }
        }
    }

    private void checkConsolidations() {
        Set<String> consumed = new HashSet<>();
        Set<String> results =
                set.consolidations().stream().map(Consolidation::result).collect(Collectors.toSet());
        for (Consolidation c : set.consolidations()) {
            LabelledMemory result = byKey.get(c.result());
            if (result == null) {
                problem("consolidation result " + c.result() + " is not a memory");
            }
            if (c.inputs().size() < 2) {
                problem("consolidation " + c.result() + " needs at least two inputs");
            }
            for (String input : c.inputs()) {
                LabelledMemory in = byKey.get(input);
                if (in == null) {
                    problem("consolidation " + c.result() + ": input " + input + " is not a memory");
                    continue;
                }
                if (!consumed.add(input)) {
                    problem("memory " + input + " is the input of more than one consolidation");
                }
                if (results.contains(input)) {
                    problem("consolidation result " + input + " is itself consolidated (no chains)");
                }
                if (result != null && !in.space().equals(result.space())) {
                    problem("consolidation " + c.result() + ": input " + input + " is in another space");
                }
                if (result != null && in.daysAgo() < result.daysAgo()) {
                    problem("consolidation " + c.result() + " is older than its input " + input);
                }
            }
        }
    }

    private void checkLinks() {
        Set<String> seen = new HashSet<>();
        for (Link l : set.links()) {
            LabelledMemory from = byKey.get(l.from());
            LabelledMemory to = byKey.get(l.to());
            String name = "link " + l.from() + " -" + l.type() + "-> " + l.to();
            if (from == null || to == null) {
                problem(name + " references an unknown memory");
            } else if (!from.space().equals(to.space())) {
                problem(name + " crosses spaces");
            }
            if (l.from().equals(l.to())) {
                problem(name + " links a memory to itself");
            }
            if (!seen.add(l.from() + "|" + l.type() + "|" + l.to())) {
                problem("duplicate " + name);
            }
        }
    }

    private void checkQueries() {
        duplicates(set.queries(), LabelledQuery::id).forEach(id -> problem("duplicate query id " + id));
        Set<String> spaces = spaceIds();
        for (LabelledQuery q : set.queries()) {
            if (!spaces.contains(q.space())) {
                problem("query " + q.id() + " is in unknown space " + q.space());
            }
            duplicates(q.expected(), Function.identity())
                    .forEach(k -> problem("query " + q.id() + " expects " + k + " twice"));
            q.expected().forEach(key -> checkExpected(q, key));
            q.mustNot().forEach(key -> checkMustNot(q, key));
            checkType(q);
        }
    }

    private void checkExpected(LabelledQuery q, String key) {
        LabelledMemory m = byKey.get(key);
        String name = "query " + q.id() + ": expected " + key;
        if (m == null) {
            problem(name + " is not a memory");
        } else if (!m.space().equals(q.space())) {
            problem(name + " is in space " + m.space());
        } else if (set.state(key) != MemoryState.ACTIVE) {
            problem(name + " is superseded");
        } else if (!q.admits(m)) {
            problem(name + " does not pass the query's own filters or categories");
        }
        if (q.mustNot().contains(key)) {
            problem(name + " is also in must_not");
        }
    }

    /** A must-not memory must be one that filtering alone keeps out, so a correct search never returns it. */
    private void checkMustNot(LabelledQuery q, String key) {
        LabelledMemory m = byKey.get(key);
        if (m == null) {
            problem("query " + q.id() + ": must_not " + key + " is not a memory");
        } else if (m.space().equals(q.space()) && set.state(key) == MemoryState.ACTIVE && q.admits(m)) {
            problem("query " + q.id() + ": must_not " + key
                    + " is active and passes the query's filters, so only ranking could keep it out");
        }
    }

    private void checkType(LabelledQuery q) {
        switch (q.type()) {
            case FILTERED -> {
                if (q.filters().isEmpty()) {
                    problem("filtered query " + q.id() + " has no filters");
                }
            }
            case CATEGORY -> {
                if (q.categories() == null || q.categories().isEmpty()) {
                    problem("category query " + q.id() + " has no categories");
                }
            }
            case SUPERSEDED -> {
                if (q.mustNot().stream()
                        .noneMatch(k -> byKey.containsKey(k) && set.state(k) == MemoryState.SUPERSEDED)) {
                    problem("superseded query " + q.id() + " lists no superseded memory in must_not");
                }
                if (q.expected().stream().noneMatch(k -> set.consolidationOf(k).isPresent())) {
                    problem("superseded query " + q.id() + " expects no consolidated memory");
                }
            }
            case MULTIHOP -> checkMultihop(q);
            default -> {}
        }
    }

    private void checkMultihop(LabelledQuery q) {
        if (q.via().isEmpty()) {
            problem("multihop query " + q.id() + " names no entity in via");
            return;
        }
        Set<String> reachable = new HashSet<>();
        for (String start : q.via()) {
            LabelledMemory m = byKey.get(start);
            if (m == null || !m.space().equals(q.space())) {
                problem("multihop query " + q.id() + ": via " + start + " is not a memory of its space");
            } else {
                reachable.addAll(set.within(start, MAX_HOPS));
            }
        }
        for (String key : q.expected()) {
            if (!reachable.contains(key)) {
                problem("multihop query " + q.id() + ": " + key + " is not within " + MAX_HOPS + " links of "
                        + q.via());
            }
        }
    }

    private void checkRequirements(Requirements r) {
        if (set.spaces().size() < r.minSpaces()) {
            problem(set.spaces().size() + " spaces, at least " + r.minSpaces() + " required");
        }
        if (set.memories().size() < r.minMemories()) {
            problem(set.memories().size() + " memories, at least " + r.minMemories() + " required");
        }
        if (set.queries().size() < r.minQueries()) {
            problem(set.queries().size() + " queries, at least " + r.minQueries() + " required");
        }
        Map<QueryType, Integer> counts = new EnumMap<>(QueryType.class);
        set.queries().forEach(q -> counts.merge(q.type(), 1, Integer::sum));
        r.minQueriesPerType().forEach((type, min) -> {
            int n = counts.getOrDefault(type, 0);
            if (n < min) {
                problem(n + " " + type.label() + " queries, at least " + min + " required");
            }
        });
    }

    private Set<String> spaceIds() {
        return set.spaces().stream().map(Space::id).collect(Collectors.toSet());
    }

    private static <T> List<String> duplicates(List<T> items, Function<T, String> id) {
        Map<String, Integer> counts = new HashMap<>();
        items.forEach(i -> counts.merge(id.apply(i), 1, Integer::sum));
        return items.stream().map(id).distinct().filter(k -> counts.get(k) > 1).toList();
    }
}
