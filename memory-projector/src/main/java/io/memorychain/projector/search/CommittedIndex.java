package io.memorychain.projector.search;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.util.IOUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A search index committed in a folder that may be reused ({@link MemoryIndex#reopen}): its last commit carries exactly
 * the expected commit data and every file of that commit passes its checksum
 * ({@link org.apache.lucene.index.LeafReader#checkIntegrity()}, which reads every file once).
 *
 * @param directory the open directory (the caller owns it)
 * @param graphless whether a segment still lacks its vector graphs (committed before its graph build ended)
 */
record CommittedIndex(Directory directory, boolean graphless) {

    private static final Logger log = LoggerFactory.getLogger(CommittedIndex.class);

    /**
     * The committed index, or null with the reason logged: no index, another commit data, or a missing, corrupt, too
     * old or too new file.
     */
    static CommittedIndex verify(Path folder, Map<String, String> expected) {
        if (!Files.isDirectory(folder)) {
            log.info("No search index in {}", folder);
            return null;
        }
        Directory directory = null;
        try {
            directory = new MMapDirectory(folder);
            if (!DirectoryReader.indexExists(directory)) {
                log.info("No search index in {}", folder);
                directory.close();
                return null;
            }
            Map<String, String> committed =
                    SegmentInfos.readLatestCommit(directory).getUserData();
            if (!committed.equals(expected)) {
                log.info(
                        "The search index in {} was committed at {}, the task expects {}", folder, committed, expected);
                directory.close();
                return null;
            }
            boolean graphless = false;
            try (DirectoryReader reader = DirectoryReader.open(directory)) {
                for (LeafReaderContext leaf : reader.leaves()) {
                    leaf.reader().checkIntegrity();
                    graphless |= MemoryIndex.graphless(leaf);
                }
            }
            return new CommittedIndex(directory, graphless);
        } catch (IOException | RuntimeException e) { // CorruptIndexException, IndexFormatToo{Old,New}Exception, ...
            log.warn("The search index in {} cannot be reused: {}", folder, e.toString());
            if (directory != null) {
                IOUtils.closeWhileHandlingException(directory);
            }
            return null;
        }
    }
}
