package io.memorychain.projector.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.QueryBuilder;
import org.junit.jupiter.api.Test;

/**
 * {@link TopByScoreThenId} against Lucene's search sorted by score then id, on indexes sorted by id whose scores tie by
 * the hundred, written in segments of every size, with deleted documents, under restrictions dense and selective.
 */
class TopByScoreThenIdTest {

    private static final String[] WORDS = {"travel", "detail", "during", "session", "plan", "tea", "blue", "city"};
    private static final Query SPACE = new TermQuery(new Term("space", "s"));

    /**
     * Restrictions admitting every document, most of them (searched as the keywords with accepted documents) and a
     * tenth of them (searched as a conjunction).
     */
    private static final List<Query> RESTRICTIONS = List.of(
            SPACE,
            new BooleanQuery.Builder()
                    .add(SPACE, Occur.FILTER)
                    .add(new TermQuery(new Term("group", "g0")), Occur.MUST_NOT)
                    .build(),
            new BooleanQuery.Builder()
                    .add(SPACE, Occur.FILTER)
                    .add(new TermInSetQuery("group", List.of(new BytesRef("g1"), new BytesRef("g2"))), Occur.FILTER)
                    .build());

    private static final Sort BY_SCORE_THEN_ID =
            new Sort(SortField.FIELD_SCORE, new SortField("id", SortField.Type.STRING));

    @Test
    void answersAsTheSearchSortedByScoreThenIdDoesOnIndexesFullOfTies() throws IOException {
        Random random = new Random(7);
        for (int round = 0; round < 20; round++) {
            List<String[]> docs = documents(random, 200 + random.nextInt(1_800));
            try (Directory dir = index(docs, 1 + random.nextInt(300));
                    DirectoryReader reader = DirectoryReader.open(dir)) {
                IndexSearcher searcher = new IndexSearcher(reader);
                for (String text : List.of("travel detail during session", "tea", "blue city plan", "nothing")) {
                    Query keywords = keywords(text);
                    for (Query restriction : RESTRICTIONS) {
                        Query query = new BooleanQuery.Builder()
                                .add(keywords, Occur.MUST)
                                .add(restriction, Occur.FILTER)
                                .build();
                        for (int n : new int[] {1, 5, 20, 80, 5_000}) {
                            ScoreDoc[] expected = searcher.search(query, n, BY_SCORE_THEN_ID, true).scoreDocs;
                            assertThat(ids(searcher, TopByScoreThenId.search(searcher, keywords, restriction, n)))
                                    .as("round %d, '%s', %s, n %d", round, text, restriction, n)
                                    .containsExactlyElementsOf(ids(searcher, expected));
                            assertThat(ids(searcher, TopByScoreThenId.search(searcher, query, n)))
                                    .as("round %d, '%s', %s, n %d, as one query", round, text, restriction, n)
                                    .containsExactlyElementsOf(ids(searcher, expected));
                        }
                    }
                }
            }
        }
    }

    @Test
    void theAnswerDoesNotDependOnTheOrderOrSegmentsTheDocumentsWereWrittenIn() throws IOException {
        Random random = new Random(11);
        List<String[]> docs = documents(random, 3_000);
        List<String[]> shuffled = new ArrayList<>(docs);
        Collections.shuffle(shuffled, random);
        try (Directory one = index(docs, 50);
                Directory other = index(shuffled, 700);
                DirectoryReader a = DirectoryReader.open(one);
                DirectoryReader b = DirectoryReader.open(other)) {
            IndexSearcher first = new IndexSearcher(a);
            IndexSearcher second = new IndexSearcher(b);
            Query keywords = keywords("travel detail during session");
            for (Query restriction : RESTRICTIONS) {
                assertThat(ids(first, TopByScoreThenId.search(first, keywords, restriction, 20)))
                        .as("%s", restriction)
                        .hasSize(20)
                        .containsExactlyElementsOf(
                                ids(second, TopByScoreThenId.search(second, keywords, restriction, 20)));
            }
        }
    }

    /** Texts of two or three words from a small vocabulary: many documents hold the same words, so scores tie. */
    private static List<String[]> documents(Random random, int count) {
        List<String[]> docs = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            StringBuilder text = new StringBuilder();
            int words = 2 + random.nextInt(2);
            for (int w = 0; w < words; w++) {
                text.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
            }
            docs.add(new String[] {"m" + String.format("%06d", random.nextInt(1_000_000)) + "-" + i, text.toString()});
        }
        return docs;
    }

    private static Directory index(List<String[]> docs, int docsPerSegment) throws IOException {
        Directory dir = new ByteBuffersDirectory();
        IndexWriterConfig config = new IndexWriterConfig(new StandardAnalyzer())
                .setMergePolicy(NoMergePolicy.INSTANCE)
                .setIndexSort(TopByScoreThenId.INDEX_ORDER);
        try (IndexWriter writer = new IndexWriter(dir, config)) {
            int inSegment = 0;
            for (String[] d : docs) {
                Document doc = new Document();
                doc.add(new StringField("id", d[0], Field.Store.YES));
                doc.add(new SortedDocValuesField("id", new BytesRef(d[0])));
                doc.add(new StringField("space", "s", Field.Store.NO));
                doc.add(new StringField("group", "g" + Math.floorMod(d[0].hashCode(), 20), Field.Store.NO));
                doc.add(new TextField("text", d[1], Field.Store.NO));
                doc.add(new TextField("codes", d[1].replace(' ', '_'), Field.Store.NO));
                writer.addDocument(doc);
                if (++inSegment == docsPerSegment) {
                    writer.flush();
                    inSegment = 0;
                }
            }
            for (String[] d : docs) { // deleted documents (older versions) are never answers
                if (Math.floorMod(d[0].hashCode(), 7) == 0) {
                    writer.deleteDocuments(new Term("id", d[0]));
                }
            }
        }
        return dir;
    }

    /** Shaped as the index's keyword query: prose and codes disjunctions. */
    private static Query keywords(String text) {
        QueryBuilder builder = new QueryBuilder(new StandardAnalyzer());
        BooleanQuery.Builder keywords = new BooleanQuery.Builder();
        Query prose = builder.createBooleanQuery("text", text, Occur.SHOULD);
        if (prose != null) {
            keywords.add(prose, Occur.SHOULD);
        }
        keywords.add(new TermQuery(new Term("codes", text.replace(' ', '_'))), Occur.SHOULD);
        return keywords.build();
    }

    private static List<String> ids(IndexSearcher searcher, ScoreDoc[] hits) throws IOException {
        List<String> ids = new ArrayList<>(hits.length);
        for (ScoreDoc hit : hits) {
            ids.add(searcher.storedFields().document(hit.doc).get("id") + "@" + hit.score);
        }
        return ids;
    }
}
