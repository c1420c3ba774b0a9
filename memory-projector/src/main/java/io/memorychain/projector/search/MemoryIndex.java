package io.memorychain.projector.search;

import io.memorychain.avro.Memory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.util.IOUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The search index of the memories of one stream task: BM25 over content, summary and tags, plus HNSW kNN over
 * caller-supplied embeddings (cosine similarity), with hybrid reciprocal rank fusion. It is a secondary index, never
 * the source of truth: it is {@link #rebuild rebuilt} from the memories store when the task is (re)assigned, then
 * follows the projection with {@link #upsert} and {@link #delete}. An index on disk can be {@link #commit committed}
 * with caller data (the task's position, see {@link SearchIndexes}) and {@link #reopen reopened} by a later process
 * only when its last commit carries exactly the data the caller expects; anything written after the last commit is
 * lost, as is the whole index when it is opened to be rebuilt.
 *
 * <p><b>Documents</b> are keyed by (space, id) and hold only the latest version the caller gave: an upsert replaces the
 * previous version (last write wins, so upsert in event order). Every state is indexed; searches choose the states they
 * admit (see {@link SearchRequest}).
 *
 * <p><b>Visibility:</b> a search sees every upsert, delete and rebuild that returned before the search started, in any
 * thread (read-your-writes). The reader is reopened lazily by the first search after writes, so bursts of writes are
 * cheap and the first search after them pays one near-real-time reopen; call {@link #refresh()} (e.g. from a
 * punctuator) to move that cost off the read path. While a rebuild runs, searches see the index as it was before the
 * rebuild started.
 *
 * <p><b>Threads:</b> one writer thread (upsert, delete, rebuild) and any number of concurrent searchers. The index also
 * runs its own helper threads (daemons): the indexing threads of a rebuild, which end with it, the thread of a
 * background graph build ({@link IndexSettings.Rebuild#graphsLater()}, see {@link #buildingGraphs}), and when
 * {@link IndexSettings.Hnsw#mergeThreads()} is above 1 a pool that builds merged graphs, stopped by {@link #close()}.
 *
 * <p>I/O failures surface as {@link UncheckedIOException}; after a failed write or rebuild, rebuild again.
 */
public final class MemoryIndex implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MemoryIndex.class);
    private static final int PROGRESS_EVERY = 10_000;

    private final IndexSettings settings;
    private final Directory directory;
    private final IndexWriter writer;
    private final FreshSearchers searchers;
    private final IndexSearch search;
    private final ExecutorService mergeExecutor;
    private final VectorCodec codec;
    private final GraphBuild graphs;
    /** What {@link #threadNeighbours} reads; replaced as a whole when a rebuild ends. */
    private volatile ThreadOrder threads = new ThreadOrder();
    /** The input position the content stands at, as the writer thread {@link #advance advanced} it. */
    private final Map<String, Long> position = new java.util.concurrent.ConcurrentHashMap<>();
    /** Set when a write failed: the content may then differ from what its position says, so it is never committed. */
    private volatile boolean damaged;

    /**
     * @param keep true: open the index the directory holds (its last commit); false: start empty, deleting whatever the
     *     directory held (committed at once, so an earlier commit and its data are gone)
     */
    private MemoryIndex(Directory directory, IndexSettings settings, boolean keep) throws IOException {
        this.settings = settings;
        this.directory = directory;
        this.mergeExecutor = MergeThreads.pool(settings.hnsw().mergeThreads());
        this.codec = new VectorCodec(settings.hnsw(), mergeExecutor);
        ExpungingMergePolicy mergePolicy = new ExpungingMergePolicy();
        Analyzer analyzer = MemoryDocuments.analyzer();
        IndexWriterConfig config = new IndexWriterConfig(analyzer)
                .setOpenMode(keep ? IndexWriterConfig.OpenMode.APPEND : IndexWriterConfig.OpenMode.CREATE)
                .setCommitOnClose(false)
                .setMergePolicy(mergePolicy)
                .setCodec(codec)
                .setIndexSort(TopByScoreThenId.INDEX_ORDER)
                .setRAMBufferSizeMB(settings.ramBufferMb());
        IndexWriter opened;
        try {
            opened = new IndexWriter(directory, config);
        } catch (IOException | RuntimeException e) {
            MergeThreads.shutdown(mergeExecutor);
            throw e;
        }
        this.writer = opened;
        if (!keep) {
            writer.commit(); // an empty index without commit data: files and data of an earlier process are deleted
        }
        this.searchers = new FreshSearchers(writer);
        this.graphs = new GraphBuild(
                writer,
                mergePolicy,
                () -> { // searches move onto the graphs, readers free the old files
                    searchers.written();
                    refresh();
                });
        this.search = new IndexSearch(new RequestQueries(analyzer), settings);
    }

    /**
     * An index held in the heap: for tests and small indexes. kNN reads vectors through heap buffers and was measured
     * about 2.4x slower for kNN than {@link #onDisk} on 10k 384-d vectors (one noisy probe); prefer {@link #onDisk} in
     * production.
     */
    public static MemoryIndex inMemory(IndexSettings settings) {
        return open(new ByteBuffersDirectory(), settings);
    }

    /**
     * An empty index in a folder owned by the caller (e.g. under the Streams state dir), memory-mapped. Whatever the
     * folder held is discarded.
     */
    public static MemoryIndex onDisk(Path folder, IndexSettings settings) {
        try {
            IOUtils.rm(folder); // not left to the writer: it fails when a file of the old commit is missing
            return open(new MMapDirectory(folder), settings);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open search index folder " + folder, e);
        }
    }

    /**
     * The index committed in the folder, opened for reading and writing, when its last commit carries exactly
     * {@code expected} as commit data (see {@link #commit}) and every file of that commit passes its checksum
     * ({@link org.apache.lucene.index.LeafReader#checkIntegrity()}, which reads every file once); else null, with the
     * reason logged: no index, another commit data, or a missing, corrupt, too old or too new file. The
     * {@link #threadNeighbours} order is empty until {@link #reloadThreads}. An index committed before its graphs were
     * built (see {@link #buildingGraphs}) starts building them again.
     */
    public static MemoryIndex reopen(Path folder, IndexSettings settings, Map<String, String> expected) {
        CommittedIndex committed = CommittedIndex.verify(folder, expected);
        if (committed == null) {
            return null;
        }
        try {
            MemoryIndex index = new MemoryIndex(committed.directory(), settings, true);
            if (committed.graphless()) { // committed before its graph build ended
                index.graphs.start();
            }
            return index;
        } catch (IOException | RuntimeException e) {
            log.warn("The search index in {} cannot be reused: {}", folder, e.toString());
            IOUtils.closeWhileHandlingException(committed.directory());
            return null;
        }
    }

    private static MemoryIndex open(Directory directory, IndexSettings settings) {
        try {
            return new MemoryIndex(directory, settings, false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open search index", e);
        }
    }

    /**
     * Records that the content now reflects the input up to {@code offset} of {@code source} (e.g. a topic partition of
     * the task). Call from the writer thread, for every input record, before its writes.
     */
    public void advance(String source, long offset) {
        position.put(source, offset);
    }

    /** Sets the whole position, e.g. the stores' position the index was just rebuilt or reopened at. */
    public void position(Map<String, Long> at) {
        position.clear();
        position.putAll(at);
    }

    /** The position the content stands at (see {@link #advance}). */
    public Map<String, Long> position() {
        return Map.copyOf(position);
    }

    /**
     * Makes every write so far durable as one Lucene commit carrying {@code data} (what {@link #reopen} compares). Call
     * from the writer thread, between writes, so the data describes exactly the content committed. Refused
     * (IllegalStateException) after a failed write: the content may then differ from what the data says.
     */
    public void commit(Map<String, String> data) {
        if (damaged) {
            throw new IllegalStateException("a write to the search index failed: not committed");
        }
        try {
            writer.setLiveCommitData(Map.copyOf(data).entrySet());
            writer.commit();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot commit the search index", e);
        }
    }

    /**
     * Replaces the in-memory {@link #threadNeighbours} order with one built from the given memories, which must be the
     * versions the index holds (e.g. a scan of the memories store an index was reopened for).
     */
    public void reloadThreads(Iterator<Memory> memories) {
        ThreadOrder loaded = new ThreadOrder();
        memories.forEachRemaining(loaded::put);
        threads = loaded;
    }

    public IndexSettings settings() {
        return settings;
    }

    /**
     * Indexes this version of the memory, replacing any earlier version of the same (space, id).
     *
     * @param embedding the memory's embedding, {@link IndexSettings#dimensions()} long, finite and non-zero; null when
     *     it has none yet (the memory is then found by BM25 only)
     */
    public void upsert(Memory memory, float[] embedding) {
        try {
            float[] unit = UnitVectors.unitCopy(embedding, settings.dimensions(), "embedding");
            writer.updateDocument(
                    MemoryDocuments.key(memory.getSpace(), memory.getId()), MemoryDocuments.toDocument(memory, unit));
        } catch (IOException e) {
            damaged = true;
            throw new UncheckedIOException("cannot index memory " + memory.getSpace() + "/" + memory.getId(), e);
        } catch (RuntimeException e) {
            damaged = true;
            throw e;
        }
        threads.put(memory);
        searchers.written();
    }

    /** Removes the memory from the index (no-op when absent). */
    public void delete(String space, String id) {
        try {
            writer.deleteDocuments(MemoryDocuments.key(space, id));
        } catch (IOException e) {
            damaged = true;
            throw new UncheckedIOException("cannot delete memory " + space + "/" + id + " from the index", e);
        }
        threads.remove(space, id);
        searchers.written();
    }

    /**
     * Rewrites the segments that hold deleted documents without them and reopens the searchers, so the deleted
     * documents' terms and stored text leave the index files (Lucene otherwise keeps them until a merge): after an
     * erasure (docs/architecture.md §12). Segment files no reader or commit uses any more are deleted from disk.
     */
    public void expungeDeletes() {
        try {
            if (graphs.pending()) { // its merge keeps deletions made meanwhile: expunge again when it ends
                graphs.expungeAfter();
            }
            writer.forceMergeDeletes(true);
            // measured on Lucene 9.12: forceMergeDeletes(true) can return before its merges ran (they were pending
            // in the scheduler), so wait for them here: erasures are rare and the merges touch only the segments
            // that hold deletions
            long deadline = System.nanoTime() + EXPUNGE_TIMEOUT_NANOS;
            // a graph build's merge (which expunges again when it ends) is not waited for: it can take minutes
            while ((writer.hasPendingMerges()
                            || !graphs.pending() && !writer.getMergingSegments().isEmpty())
                    && System.nanoTime() < deadline) {
                Thread.sleep(5); // waiting for Lucene's merge threads; no condition to wait on is exposed
            }
        } catch (IOException e) {
            damaged = true;
            throw new UncheckedIOException("cannot expunge deleted documents from the index", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while expunging deleted documents", e);
        }
        searchers.written();
        refresh();
    }

    private static final long EXPUNGE_TIMEOUT_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(60);

    /**
     * Replaces the whole content of the index with the given entries (e.g. a scan of the memories store), logging
     * progress. Searches running meanwhile see the previous content; when this returns they see the new one.
     *
     * <p>The iterator is only used by the calling thread; {@link IndexSettings.Rebuild#threads()} threads index what it
     * returns, each entry on the thread its (space, id) hashes to. So the entries of one memory are indexed in
     * iteration order by one thread, and an entry for a (space, id) seen earlier in the iteration still replaces it, as
     * {@link #upsert} would (a store scan has one entry per key anyway). Each thread builds its own segment and HNSW
     * graph (see {@link IndexSettings.Rebuild} for the segment count). If the iteration or indexing fails, the
     * exception propagates once every thread has stopped, and the index holds a partial content: rebuild again.
     *
     * @return the number of entries indexed
     */
    public long rebuild(Iterator<IndexEntry> entries) {
        long started = System.nanoTime();
        IndexSettings.Rebuild how = settings.rebuild();
        log.info("search index rebuild started ({} threads)", how.threads());
        long count;
        ThreadOrder rebuilt = new ThreadOrder();
        try {
            searchers.hold();
            codec.stopGraphs(true); // deleteAll waits for running merges
            try {
                writer.deleteAll();
            } finally {
                codec.stopGraphs(false);
            }
            writer.getConfig().setRAMBufferSizeMB(how.ramBufferMb());
            codec.graphless(how.graphsLater());
            count = new PartitionedIndexing(how.threads(), entry -> index(entry, rebuilt)).run(entries, fed -> {
                if (fed % PROGRESS_EVERY == 0) {
                    log.info("search index rebuild: {} memories read ({}/s)", fed, rate(fed, started));
                }
            });
            if (how.maxSegments() > 0) {
                long merging = System.nanoTime();
                writer.forceMerge(how.maxSegments());
                log.info(
                        "search index rebuild: merged to at most {} segments in {} ms",
                        how.maxSegments(),
                        (System.nanoTime() - merging) / 1_000_000);
            }
            writer.flush(); // the buffered documents become segments while the codec still writes them graphless
        } catch (IOException e) {
            damaged = true;
            throw new UncheckedIOException("search index rebuild failed", e);
        } catch (RuntimeException | Error e) {
            damaged = true;
            throw e;
        } finally {
            codec.graphless(false);
            writer.getConfig().setRAMBufferSizeMB(settings.ramBufferMb());
            threads = rebuilt;
            searchers.written(); // also after a failure: searches then see the partial content, not the old one
            releaseSearchers();
        }
        log.info(
                "search index rebuild done: {} memories in {} ms ({}/s), {} segments",
                count,
                (System.nanoTime() - started) / 1_000_000,
                rate(count, started),
                stats().segments());
        if (how.graphsLater()) {
            graphs.start();
        }
        return count;
    }

    /**
     * True while HNSW graphs are being built in the background after a {@link #rebuild} (or a {@link #reopen} of an
     * index committed before its build ended). Meanwhile kNN searches of the segments without a graph are exact.
     */
    public boolean buildingGraphs() {
        return graphs.pending();
    }

    /** Waits until no graph build is pending (see {@link #buildingGraphs}); false when the timeout passed first. */
    public boolean awaitGraphs(java.time.Duration timeout) throws InterruptedException {
        return graphs.await(timeout);
    }

    static boolean graphless(LeafReaderContext leaf) {
        org.apache.lucene.index.FieldInfo vectors =
                leaf.reader().getFieldInfos().fieldInfo(MemoryDocuments.VECTOR);
        return vectors != null
                && GraphlessVectorsFormat.NAME.equals(vectors.getAttribute(
                        org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat.PER_FIELD_FORMAT_KEY));
    }

    /** One rebuild entry: safe from several threads at once (entries of one key come from one thread, in order). */
    private void index(IndexEntry entry, ThreadOrder rebuilt) throws IOException {
        Memory memory = entry.memory();
        float[] unit = UnitVectors.unitCopy(entry.embedding(), settings.dimensions(), "embedding");
        writer.updateDocument(
                MemoryDocuments.key(memory.getSpace(), memory.getId()), MemoryDocuments.toDocument(memory, unit));
        rebuilt.put(memory);
    }

    private void releaseSearchers() {
        try {
            searchers.release();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reopen the search index", e);
        }
    }

    private static long rate(long count, long startedNanos) {
        long nanos = Math.max(1, System.nanoTime() - startedNanos);
        return count * 1_000_000_000L / nanos;
    }

    /** The best {@code topK} memories for the request, best first (see {@link Hit} for the scores). */
    public List<Hit> search(SearchRequest request) {
        float[] query = UnitVectors.unitCopy(request.vector(), settings.dimensions(), "query vector");
        return read("search failed", searcher -> search.run(searcher, request, query));
    }

    /**
     * The active memories written just before and just after each given memory in its thread (docs/architecture.md §7,
     * thread context): same space and {@code thread_id}, the nearest strictly earlier and strictly later
     * {@code created_at} (among equal ones, the greatest id before and the smallest after). Memories without a thread
     * are absent from the answer. Answered from an in-memory {@link ThreadOrder} kept with the index's writes, which
     * holds what the index holds: the same answer as {@link #threadNeighboursBySearch} without its two sorted searches
     * per memory.
     */
    public Map<String, ThreadNeighbours> threadNeighbours(String space, Collection<Memory> memories) {
        return threads.neighbours(space, memories);
    }

    /**
     * {@link #threadNeighbours} by two sorted searches of the index per memory, as queries did before the
     * {@link ThreadOrder}: the reference it is tested against (ThreadOrderTest) and measured against
     * (ThreadNeighboursHarness in memory-bench). Not used by queries.
     */
    public Map<String, ThreadNeighbours> threadNeighboursBySearch(String space, Collection<Memory> memories) {
        return read("thread neighbour search failed", searcher -> search.threadNeighbours(searcher, space, memories));
    }

    /**
     * The entity memories of the space, in any state, that answer to one of the given keys (docs/architecture.md §7,
     * entity channel; {@link EntityNameKeys}): one term lookup, whatever the size of the space. At most {@code max}, in
     * id order.
     */
    public List<String> namedEntities(String space, Collection<String> keys, int max) {
        return read("entity name lookup failed", searcher -> search.namedEntities(searcher, space, keys, max));
    }

    /** Number of indexed memories of the space, in any state. */
    public int count(String space) {
        return read("count failed", searcher -> searcher.count(new TermQuery(new Term(MemoryDocuments.SPACE, space))));
    }

    /** Documents, deleted versions and segments of the index as searches see it (after completed writes). */
    public IndexStats stats() {
        return read("cannot read index stats", searcher -> {
            IndexReader reader = searcher.getIndexReader();
            int graphless = (int)
                    reader.leaves().stream().filter(MemoryIndex::graphless).count();
            return new IndexStats(
                    reader.numDocs(), reader.numDeletedDocs(), reader.leaves().size(), graphless);
        });
    }

    /** What a searcher of completed writes answers ({@link FreshSearchers#acquire}), released after. */
    private <T> T read(String failure, SearcherRead<T> read) {
        try {
            IndexSearcher searcher = searchers.acquire();
            try {
                return read.apply(searcher);
            } finally {
                searchers.release(searcher);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(failure, e);
        }
    }

    @FunctionalInterface
    private interface SearcherRead<T> {
        T apply(IndexSearcher searcher) throws IOException;
    }

    /**
     * Makes completed writes visible now, so the next search does not pay the reopen. Optional: searches refresh by
     * themselves when needed.
     */
    public void refresh() {
        try {
            searchers.refresh();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reopen the search index", e);
        }
    }

    /** Closes readers, then the writer (nothing is committed: writes after the last {@link #commit} are lost). */
    @Override
    public void close() {
        codec.stopGraphs(true); // closing the writer waits for running merges
        try {
            IOUtils.close(graphs, searchers, writer, directory, () -> MergeThreads.shutdown(mergeExecutor));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the search index", e);
        }
    }
}
