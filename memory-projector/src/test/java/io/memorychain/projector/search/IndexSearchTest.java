package io.memorychain.projector.search;

import static io.memorychain.projector.search.TestMemories.active;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

class IndexSearchTest {

    private static final int DIMS = 8;

    /** Counts the rewrites of kNN queries, i.e. the HNSW graph searches. */
    private static final class CountingSearcher extends IndexSearcher {
        final AtomicInteger knnRewrites = new AtomicInteger();

        CountingSearcher(IndexReader reader) {
            super(reader);
        }

        @Override
        public Query rewrite(Query original) throws IOException {
            if (original instanceof KnnFloatVectorQuery) {
                knnRewrites.incrementAndGet();
            }
            return super.rewrite(original);
        }
    }

    @Test
    void eachSearchWalksTheGraphOnceInVectorAndHybridMode() throws IOException {
        Random random = new Random(1);
        Analyzer analyzer = MemoryDocuments.analyzer();
        try (ByteBuffersDirectory directory = new ByteBuffersDirectory();
                IndexWriter writer = new IndexWriter(
                        directory, new IndexWriterConfig(analyzer).setIndexSort(TopByScoreThenId.INDEX_ORDER))) {
            for (int i = 0; i < 50; i++) {
                writer.addDocument(MemoryDocuments.toDocument(
                        active("s", "m" + i, "note " + i), TestVectors.randomUnit(random, DIMS)));
            }
            writer.commit();
            try (DirectoryReader reader = DirectoryReader.open(directory)) {
                IndexSearch search =
                        new IndexSearch(new RequestQueries(analyzer), IndexSettings.DEFAULTS.withDimensions(DIMS));
                float[] query = TestVectors.randomUnit(random, DIMS);
                for (SearchMode mode : List.of(SearchMode.VECTOR, SearchMode.HYBRID)) {
                    CountingSearcher searcher = new CountingSearcher(reader);
                    List<Hit> hits = search.run(
                            searcher,
                            SearchRequest.builder("s")
                                    .text("note")
                                    .vector(query)
                                    .mode(mode)
                                    .topK(5)
                                    .build(),
                            query);
                    assertThat(hits).as(mode.name()).hasSize(5);
                    assertThat(searcher.knnRewrites).as(mode.name()).hasValue(1);
                }
            }
        }
    }
}
