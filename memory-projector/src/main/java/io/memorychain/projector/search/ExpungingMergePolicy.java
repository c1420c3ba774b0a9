package io.memorychain.projector.search;

import java.io.IOException;
import java.util.List;
import java.util.Map;
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
 *
 * <p>And while {@link #rewriteAll} is set (a {@link GraphBuild}), {@code forceMerge(1)} of an index that is already one
 * segment rewrites that segment too (the default leaves it as it is), so a graphless segment gets its graph.
 */
final class ExpungingMergePolicy extends FilterMergePolicy {

    private volatile boolean rewriteAll;

    ExpungingMergePolicy() {
        super(new TieredMergePolicy());
    }

    /** True: a forced merge to one segment rewrites a lone segment that was there when the merge was asked for. */
    void rewriteAll(boolean on) {
        rewriteAll = on;
    }

    @Override
    public MergeSpecification findForcedMerges(
            SegmentInfos infos,
            int maxSegmentCount,
            Map<SegmentCommitInfo, Boolean> segmentsToMerge,
            MergeContext context)
            throws IOException {
        if (rewriteAll && maxSegmentCount == 1 && infos.size() == 1) {
            SegmentCommitInfo lone = infos.info(0);
            // TRUE marks a segment that was there when forceMerge began: its rewrite is FALSE, so this ends
            if (Boolean.TRUE.equals(segmentsToMerge.get(lone))
                    && !context.getMergingSegments().contains(lone)) {
                MergeSpecification spec = new MergeSpecification();
                spec.add(new MergePolicy.OneMerge(List.of(lone)));
                return spec;
            }
            return null;
        }
        return super.findForcedMerges(infos, maxSegmentCount, segmentsToMerge, context);
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
