package io.memorychain.jobs.consolidate;

import io.memorychain.embeddings.OnnxSentenceEmbedder;
import io.memorychain.projector.SharedEmbedder;

/**
 * The pairs measured to choose {@link io.memorychain.embeddings.CosineThresholds#nearExact()} and the band's low end
 * (docs/architecture.md §12): copies that differ only in case, punctuation or whitespace, true paraphrases, numeric
 * steps and distinct-but-similar facts. {@link ConsolidateBenchmark} prints their cosines (run it through
 * {@link ConsolidateBenchmarkRun}: a plain {@code java -cp} launch crashed in the embedder's native code here);
 * {@link #main} does the same from an IDE.
 */
public final class NearExactCalibration {

    static final String[][] PAIRS = {
        {"near-exact", "Alice is allergic to peanuts.", "alice is allergic to peanuts"},
        {"near-exact", "The user lives in Berlin.", "The user lives in Berlin!"},
        {"near-exact", "Project Atlas uses PostgreSQL 16.", "project atlas uses postgresql 16"},
        {"near-exact", "The user prefers dark mode in all editors.", "The user  prefers dark mode, in all editors."},
        {"near-exact", "The deploy pipeline runs on GitHub Actions.", "THE DEPLOY PIPELINE RUNS ON GITHUB ACTIONS."},
        {"near-exact", "The user has a dog named Rex.", "The user has a dog named Rex"},
        {"paraphrase", "Alice is allergic to peanuts.", "Alice has a peanut allergy."},
        {"paraphrase", "The user lives in Berlin.", "The user's home city is Berlin, Germany."},
        {"paraphrase", "Project Atlas uses PostgreSQL 16.", "The Atlas project database is Postgres."},
        {"paraphrase", "The user prefers dark mode in all editors.", "User wants the editor color scheme to be dark."},
        {"paraphrase", "The user has a dog named Rex.", "The user owns a dog called Rex."},
        {"paraphrase", "The user prefers tea over coffee.", "The user would rather drink tea than coffee."},
        {"numeric-step", "The user runs 5 km every morning.", "The user runs 10 km every morning."},
        {"numeric-step", "Project Atlas uses PostgreSQL 16.", "Project Atlas uses PostgreSQL 15."},
        {"distinct", "Alice is allergic to peanuts.", "Bob is allergic to peanuts."},
        {"distinct", "The user has a dog named Rex.", "The user has a cat named Tom."},
        {"distinct", "The user lives in Berlin.", "The user works in Munich."},
        {"distinct", "The user prefers tea over coffee.", "The user drinks green tea every morning."},
    };

    private NearExactCalibration() {}

    public static void main(String[] args) {
        OnnxSentenceEmbedder embedder = SharedEmbedder.get();
        for (String[] p : PAIRS) {
            double s = ConsolidatePlanner.cosine(embedder.embed(p[1]), embedder.embed(p[2]));
            System.out.printf("| %s | %s / %s | %.3f |%n", p[0], p[1], p[2], s);
        }
    }
}
