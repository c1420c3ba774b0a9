package io.memorychain.projector.search;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.Tier;
import io.memorychain.projector.support.StoreKeys;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.IntPoint;
import org.apache.lucene.document.IntRange;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.util.BytesRef;

/**
 * The Lucene document of one memory version: field names, the mapping from {@link Memory}, the analyzers and the way
 * back to {@link MemoryMeta}. Text is not stored (the views are the source of truth); filter fields are indexed as
 * exact terms or points, and the few fields a reranker needs are stored.
 */
final class MemoryDocuments {

    /**
     * The version of what a document holds. An index on disk is reused only when committed with the same one
     * ({@link SearchIndexes}): bump it whenever {@link #toDocument}, the analyzers, the field names or the index's
     * order change. 2: segments sorted by id ({@link TopByScoreThenId#INDEX_ORDER}).
     */
    static final int FORMAT = 2;

    static final String KEY = "key";
    static final String SPACE = "space";
    static final String ID = "id";
    static final String TEXT = "text";
    static final String CODES = "codes";
    static final String VECTOR = "vector";
    static final String STATE = "state";
    /** "true" for a memory the chain recorded as dormant (DecayTransitioned), pinned ones excepted. */
    static final String DORMANT = "dormant";

    static final String KIND = "kind";
    static final String TIER = "tier";
    static final String CATEGORY = "category";
    static final String USER_ID = "user_id";
    static final String AGENT_ID = "agent_id";
    static final String RUN_ID = "run_id";
    static final String ACTOR_ID = "actor_id";
    static final String ROLE = "role";
    static final String THREAD_ID = "thread_id";
    /** One exact term per tag (the tags are also in the text fields, for keyword search). */
    static final String TAG = "tag";

    static final String PINNED = "pinned";
    static final String IMPORTANCE = "importance";
    static final String CREATED_AT = "created_at";
    static final String UPDATED_AT = "updated_at";
    static final String VERSION = "version";
    /** The days of the memory ({@link MemoryDates#all}): one epoch-day range per span, creation day first. */
    static final String DATES = "dates";
    /** "true" when the content mentions a date ({@link MemoryDates#mentioned}). */
    static final String MENTIONS_DATE = "mentions_date";
    /** Entity memories only: the keys of {@link EntityNameKeys#ofEntity}, one exact term each. */
    static final String ENTITY_NAME = "entity_name";

    /** Stored fields read back into {@link MemoryMeta}. */
    static final Set<String> META_FIELDS =
            Set.of(ID, SPACE, VERSION, STATE, KIND, TIER, CATEGORY, IMPORTANCE, PINNED, CREATED_AT, UPDATED_AT);

    private MemoryDocuments() {}

    /**
     * English analysis (possessives, stop words, Porter stemming) for the prose fields, so "deploying" finds
     * "deployment"; identifiers survive intact in the {@code codes} field.
     */
    static Analyzer analyzer() {
        return new PerFieldAnalyzerWrapper(new EnglishAnalyzer(), Map.of(CODES, new CodeAnalyzer()));
    }

    static Term key(String space, String id) {
        return new Term(KEY, StoreKeys.of(space, id));
    }

    static String category(String category) {
        return category == null ? SearchRequest.UNCATEGORIZED : category;
    }

    /** The document of a memory version; {@code unitEmbedding} must be L2-normalised (or null). */
    static Document toDocument(Memory m, float[] unitEmbedding) {
        Document d = new Document();
        d.add(new StringField(KEY, StoreKeys.of(m.getSpace(), m.getId()), Field.Store.NO));
        d.add(new StringField(ID, m.getId(), Field.Store.YES));
        d.add(new SortedDocValuesField(ID, new BytesRef(m.getId())));
        d.add(new StringField(SPACE, m.getSpace(), Field.Store.YES));
        String text = searchableText(m);
        d.add(new TextField(TEXT, text, Field.Store.NO));
        d.add(new TextField(CODES, text, Field.Store.NO));
        if (unitEmbedding != null) { // dot product of unit vectors = cosine
            d.add(new KnnFloatVectorField(VECTOR, unitEmbedding, VectorSimilarityFunction.DOT_PRODUCT));
        }
        d.add(new StringField(STATE, m.getState().name(), Field.Store.YES));
        boolean dormant = !m.getPinned() && m.getDecayStatus() == io.memorychain.avro.DecayStatus.DORMANT;
        d.add(new StringField(DORMANT, Boolean.toString(dormant), Field.Store.NO));
        d.add(new StringField(KIND, m.getKind().name(), Field.Store.YES));
        d.add(new StringField(TIER, m.getTier().name(), Field.Store.YES));
        d.add(new StringField(CATEGORY, category(m.getCategory()), Field.Store.NO));
        if (m.getCategory() != null) {
            d.add(new StoredField(CATEGORY, m.getCategory()));
        }
        addScope(d, USER_ID, m.getUserId());
        addScope(d, AGENT_ID, m.getAgentId());
        addScope(d, RUN_ID, m.getRunId());
        addScope(d, ACTOR_ID, m.getActorId());
        addScope(d, ROLE, m.getRole());
        addScope(d, THREAD_ID, m.getThreadId());
        for (String tag : m.getTags()) {
            d.add(new StringField(TAG, tag, Field.Store.NO));
        }
        d.add(new StringField(PINNED, Boolean.toString(m.getPinned()), Field.Store.YES));
        d.add(new IntPoint(IMPORTANCE, m.getImportance()));
        d.add(new StoredField(IMPORTANCE, m.getImportance()));
        d.add(new LongPoint(UPDATED_AT, m.getUpdatedAt().toEpochMilli()));
        d.add(new StoredField(UPDATED_AT, m.getUpdatedAt().toEpochMilli()));
        d.add(new LongPoint(CREATED_AT, m.getCreatedAt().toEpochMilli()));
        d.add(new StoredField(CREATED_AT, m.getCreatedAt().toEpochMilli()));
        d.add(new NumericDocValuesField(CREATED_AT, m.getCreatedAt().toEpochMilli()));
        d.add(new StoredField(VERSION, m.getVersion()));
        List<DateSpan> dates = MemoryDates.all(m);
        for (DateSpan span : dates) {
            d.add(new IntRange(DATES, new int[] {(int) span.first().toEpochDay()}, new int[] {
                (int) span.last().toEpochDay()
            }));
        }
        d.add(new StringField(MENTIONS_DATE, Boolean.toString(dates.size() > 1), Field.Store.NO));
        if (m.getKind() == MemoryKind.ENTITY) {
            for (String key : EntityNameKeys.ofEntity(m)) {
                d.add(new StringField(ENTITY_NAME, key, Field.Store.NO));
            }
        }
        return d;
    }

    private static String searchableText(Memory m) {
        StringBuilder text = new StringBuilder(m.getContent());
        if (m.getSummary() != null) {
            text.append('\n').append(m.getSummary());
        }
        for (String tag : m.getTags()) {
            text.append('\n').append(tag);
        }
        return text.toString();
    }

    private static void addScope(Document d, String field, String value) {
        if (value != null) {
            d.add(new StringField(field, value, Field.Store.NO));
        }
    }

    static MemoryMeta meta(Document d) {
        return new MemoryMeta(
                d.get(SPACE),
                d.getField(VERSION).numericValue().intValue(),
                MemoryState.valueOf(d.get(STATE)),
                MemoryKind.valueOf(d.get(KIND)),
                Tier.valueOf(d.get(TIER)),
                d.get(CATEGORY),
                d.getField(IMPORTANCE).numericValue().intValue(),
                Boolean.parseBoolean(d.get(PINNED)),
                Instant.ofEpochMilli(d.getField(CREATED_AT).numericValue().longValue()),
                Instant.ofEpochMilli(d.getField(UPDATED_AT).numericValue().longValue()));
    }
}
