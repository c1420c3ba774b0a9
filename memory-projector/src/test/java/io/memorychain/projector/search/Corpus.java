package io.memorychain.projector.search;

import java.util.Random;
import java.util.StringJoiner;

/** Deterministic generated English-like text over a fixed vocabulary (for ranking and equivalence tests). */
final class Corpus {

    private static final String[] WORDS = ("agent memory user prefers coffee tea morning meeting project deadline "
                    + "invoice payment refund customer order shipping delay report budget quarter review design kafka "
                    + "stream index search vector query latency cluster broker topic partition offset schema deploy release "
                    + "staging production incident outage alert monitor dashboard metric trace log error warning retry "
                    + "timeout network database backup restore migration table column row lunch dinner travel flight hotel "
                    + "berlin paris london tokyo weekend holiday birthday family friend colleague manager team hiring "
                    + "interview contract lawyer policy privacy consent security token password rotation certificate "
                    + "garden plant water flower music guitar piano concert book novel author chapter recipe pasta bread "
                    + "running cycling swimming gym yoga doctor appointment medicine allergy peanut dog cat walk park")
            .split(" ");

    private final Random random;

    Corpus(Random random) {
        this.random = random;
    }

    String word() {
        return WORDS[random.nextInt(WORDS.length)];
    }

    String sentence(int words) {
        StringJoiner s = new StringJoiner(" ");
        for (int i = 0; i < words; i++) {
            s.add(word());
        }
        return s.toString();
    }
}
