package io.memorychain.api.spaces;

import io.memorychain.api.auth.Principal;
import io.memorychain.api.backend.ChainReads;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.TreeSet;

/**
 * The spaces a key may open: its exact space names, and the spaces that exist (have a chain) and match one of its
 * patterns ({@code prefix*}, {@code *}). Names only, no content: what a space picker lists.
 */
@Singleton
public class KnownSpaces {

    /** At most this many existing spaces are read to match patterns. */
    public static final int MAX_SPACES = 1_000;

    private final ChainReads backend;

    public KnownSpaces(ChainReads backend) {
        this.backend = backend;
    }

    /**
     * A space as the admin page lists it: events its chain holds here, memories the projection's counters hold (null
     * when it counts none) and whether the counters saw its whole chain.
     */
    public record Summary(String name, long events, Long memories, boolean fullyCounted) {}

    /**
     * The spaces of {@link #visibleTo} with their figures, at most {@code limit}, from the applied seqs and the
     * maintained counters (no scan of any space's memories).
     */
    public List<Summary> summaries(Principal caller, int limit) {
        var views = backend.views();
        return visibleTo(caller).stream()
                .limit(limit)
                .map(name -> {
                    var counts = views.counts(name);
                    long events = views.appliedSeq(name);
                    return new Summary(
                            name, events, counts.countedFrom() == 0 ? null : counts.total(), counts.complete());
                })
                .toList();
    }

    /** Sorted, without duplicates. */
    public List<String> visibleTo(Principal caller) {
        TreeSet<String> names = new TreeSet<>();
        for (String allowed : caller.spaces()) {
            if (!allowed.endsWith("*")) {
                names.add(allowed);
            }
        }
        for (String existing : backend.views().appliedSeqs(MAX_SPACES).keySet()) {
            if (caller.mayUse(existing)) {
                names.add(existing);
            }
        }
        return List.copyOf(names);
    }
}
