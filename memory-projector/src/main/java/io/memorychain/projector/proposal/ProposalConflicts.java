package io.memorychain.projector.proposal;

import io.memorychain.avro.Actor;
import io.memorychain.avro.Memory;
import io.memorychain.avro.view.Proposal;
import io.memorychain.domain.category.CategoryAccess;
import io.memorychain.domain.support.LruMap;
import io.memorychain.embeddings.Embedder;
import io.memorychain.events.chain.Canonical;
import io.memorychain.projector.proposal.ProposalFlag.Kind;
import io.memorychain.projector.proposal.ProposalFlag.Target;
import io.memorychain.projector.search.Hit;
import io.memorychain.projector.search.SearchMode;
import io.memorychain.projector.search.SearchRequest;
import io.memorychain.projector.view.IndexUnavailableException;
import io.memorychain.projector.view.MemoryViews;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Conflict flags of open proposals (docs/architecture.md §10), computed when they are read, never stored: two open
 * proposals, or an open proposal and an active memory, whose texts are about the same subject (embedding cosine in the
 * {@link ConflictBand}) but say different things (their normalized texts differ) are a CONFLICT; the same text is a
 * DUPLICATE. Deterministic for a given model and views, and outside the projection, which never calls a model.
 *
 * <p>Cost per call: one embedding per proposal text not seen before (a bounded cache by SHA-256 of the text), one dot
 * product per pair of open proposals, and one kNN search of the space's index per proposal ({@value #MEMORY_CANDIDATES}
 * nearest active memories). Memories come from the local search index; when this instance does not hold the space's
 * index, only proposal-to-proposal flags are given.
 */
public final class ProposalConflicts {

    /** Nearest active memories each proposal is compared with. */
    public static final int MEMORY_CANDIDATES = 5;

    private static final int CACHE_ENTRIES = 4096;
    private static final Pattern NOT_WORD = Pattern.compile("[^\\p{L}\\p{N}]+");
    private static final Set<String> ARTICLES = Set.of("a", "an", "the");
    private static final Logger log = LoggerFactory.getLogger(ProposalConflicts.class);

    private final Embedder embedder;
    private final ConflictBand band;
    private final Map<String, float[]> vectors = new LruMap<>(CACHE_ENTRIES);

    public ProposalConflicts(Embedder embedder, ConflictBand band) {
        this.embedder = embedder;
        this.band = band;
    }

    public ConflictBand band() {
        return band;
    }

    /** Cosine similarity of two texts' embeddings (what the band is compared with). */
    public double similarity(String a, String b) {
        return dot(text("a", a).vector, text("b", b).vector);
    }

    /**
     * Flags of each proposal against the others in the list and against the active memories of the space the reader may
     * see.
     *
     * @param proposals open proposals of {@code space}
     * @return flags by proposal id (every proposal of the list, most similar first; empty when none)
     */
    public Map<String, List<ProposalFlag>> flags(
            MemoryViews views, String space, List<Proposal> proposals, CategoryAccess access, Actor reader) {
        List<Text> texts = proposals.stream()
                .map(p -> text(p.getId(), p.getProposal().getContent()))
                .toList();
        Map<String, List<ProposalFlag>> flags = new LinkedHashMap<>();
        texts.forEach(t -> flags.put(t.id, new ArrayList<>()));
        for (int i = 0; i < texts.size(); i++) {
            for (int j = i + 1; j < texts.size(); j++) {
                Text a = texts.get(i);
                Text b = texts.get(j);
                double similarity = dot(a.vector, b.vector);
                classify(a, b, similarity).ifPresent(kind -> {
                    flags.get(a.id).add(new ProposalFlag(b.id, Target.PROPOSAL, kind, similarity));
                    flags.get(b.id).add(new ProposalFlag(a.id, Target.PROPOSAL, kind, similarity));
                });
            }
        }
        Set<String> allowed = searchable(access, reader);
        for (Text t : texts) {
            flags.get(t.id).addAll(memoryFlags(views, space, t, allowed));
        }
        flags.values()
                .forEach(list -> list.sort(Comparator.comparingDouble(ProposalFlag::similarity)
                        .reversed()
                        .thenComparing(ProposalFlag::id)));
        return flags;
    }

    /** The flags of one open proposal among the space's open proposals (which may include it). */
    public List<ProposalFlag> flagsOf(
            MemoryViews views,
            String space,
            Proposal proposal,
            List<Proposal> open,
            CategoryAccess access,
            Actor reader) {
        Text self = text(proposal.getId(), proposal.getProposal().getContent());
        List<ProposalFlag> out = new ArrayList<>();
        for (Proposal other : open) {
            if (other.getId().equals(proposal.getId())) {
                continue;
            }
            Text t = text(other.getId(), other.getProposal().getContent());
            double similarity = dot(self.vector, t.vector);
            classify(self, t, similarity)
                    .ifPresent(kind -> out.add(new ProposalFlag(t.id, Target.PROPOSAL, kind, similarity)));
        }
        out.addAll(memoryFlags(views, space, self, searchable(access, reader)));
        out.sort(Comparator.comparingDouble(ProposalFlag::similarity).reversed().thenComparing(ProposalFlag::id));
        return out;
    }

    /**
     * The flags of a text that is neither a proposal nor a memory yet (a fact extracted from a message,
     * docs/architecture.md §20) against the active memories of the space the reader may see: DUPLICATE for the same
     * words or a cosine above the band, CONFLICT inside it; most similar first.
     */
    public List<ProposalFlag> flagsOfText(
            MemoryViews views, String space, String content, CategoryAccess access, Actor reader) {
        return flagsOfText(views, space, text("text", content), access, reader);
    }

    /**
     * As {@link #flagsOfText(MemoryViews, String, String, CategoryAccess, Actor)} with the text's vector at hand (a
     * memory's own, from the views: the same model embedding the same text), so nothing is embedded again.
     */
    public List<ProposalFlag> flagsOfText(
            MemoryViews views, String space, String content, float[] vector, CategoryAccess access, Actor reader) {
        return flagsOfText(views, space, new Text("text", normalize(content), vector), access, reader);
    }

    private List<ProposalFlag> flagsOfText(
            MemoryViews views, String space, Text text, CategoryAccess access, Actor reader) {
        List<ProposalFlag> out = memoryFlags(views, space, text, searchable(access, reader));
        out.sort(Comparator.comparingDouble(ProposalFlag::similarity).reversed().thenComparing(ProposalFlag::id));
        return out;
    }

    private List<ProposalFlag> memoryFlags(MemoryViews views, String space, Text proposal, Set<String> allowed) {
        List<Hit> hits;
        try {
            hits = views.search(SearchRequest.builder(space)
                    .vector(proposal.vector)
                    .mode(SearchMode.VECTOR)
                    .topK(MEMORY_CANDIDATES)
                    .allowedCategories(allowed)
                    .build());
        } catch (IndexUnavailableException e) {
            log.debug("No memory conflicts for proposal {}: {}", proposal.id, e.getMessage());
            return List.of();
        }
        List<ProposalFlag> out = new ArrayList<>();
        for (Hit hit : hits) {
            Optional<Memory> memory = views.memory(space, hit.id());
            if (hit.vector() == null || memory.isEmpty()) {
                continue;
            }
            double similarity = hit.vector().score();
            Text m = new Text(hit.id(), normalize(memory.get().getContent()), null);
            classify(proposal, m, similarity)
                    .ifPresent(kind -> out.add(new ProposalFlag(hit.id(), Target.MEMORY, kind, similarity)));
        }
        return out;
    }

    private Optional<Kind> classify(Text a, Text b, double similarity) {
        if (a.normalized.equals(b.normalized) || similarity > band.max()) {
            return Optional.of(Kind.DUPLICATE);
        }
        return similarity >= band.min() ? Optional.of(Kind.CONFLICT) : Optional.empty();
    }

    /**
     * Words only, lower-cased, without articles: texts that differ only in case, punctuation, spacing or "the" say the
     * same thing ("User prefers dark mode" / "The user prefers dark mode.").
     */
    static String normalize(String text) {
        List<String> words = new ArrayList<>();
        for (String word : NOT_WORD.split(text.toLowerCase(Locale.ROOT))) {
            if (!word.isEmpty() && !ARTICLES.contains(word)) {
                words.add(word);
            }
        }
        return String.join(" ", words);
    }

    /** The categories a search may return to the reader: null for any (SearchRequest's allowlist semantics). */
    static Set<String> searchable(CategoryAccess access, Actor reader) {
        return access.allowedFor(reader)
                .map(set -> {
                    Set<String> allowed = new HashSet<>(set);
                    allowed.add(SearchRequest.UNCATEGORIZED);
                    return allowed;
                })
                .orElse(null);
    }

    private Text text(String id, String content) {
        String key = Canonical.hex(Canonical.sha256(content.getBytes(StandardCharsets.UTF_8)));
        float[] vector;
        synchronized (vectors) {
            vector = vectors.get(key);
        }
        if (vector == null) {
            vector = embedder.embed(content);
            synchronized (vectors) {
                vectors.put(key, vector);
            }
        }
        return new Text(id, normalize(content), vector);
    }

    private static double dot(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += (double) a[i] * b[i];
        }
        return sum;
    }

    private record Text(String id, String normalized, float[] vector) {}
}
