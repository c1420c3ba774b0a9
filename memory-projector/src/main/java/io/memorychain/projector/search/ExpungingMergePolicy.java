package io.memorychain.projector.search;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.apache.lucene.index.FilterMergePolicy;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.TieredMergePolicy;

/**
 * Lucene's default merge policy, except that {@code forceMergeDeletes} rewrites every segment holding a deleted
 * document, however few its deletions: the default rewrites only segments with more than 10 % deleted documents, so a
 * large segment holding one erased memory among thousands would keep its text. Used after an erasure
 * (docs/architecture.md §12), so the erased memory's terms and stored text leave the index files at once.
 */
final class ExpungingMergePolicy extends FilterMergePolicy {

    ExpungingMergePolicy() {
        super(new TieredMergePolicy());
    }

    @Override
    public MergeSpecification findForcedDeletesMerges(SegmentInfos infos, MergeContext context) throws IOException {
        Set<SegmentCommitInfo> merging = context.getMergingSegments();
        MergeSpecification spec = null;
        for (SegmentCommitInfo info : infos) {
            if (!merging.contains(info) && context.numDeletesToMerge(info) > 0) {
                if (spec == null) {
                    spec = new MergeSpecification();
                }
                spec.add(new MergePolicy.OneMerge(List.of(info)));
            }
        }
        return spec;
    }
}
