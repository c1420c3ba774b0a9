package io.memorychain.projector;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryState;
import io.memorychain.avro.view.AuditEntry;
import io.memorychain.avro.view.HistoryEntry;
import io.memorychain.avro.view.Proposal;
import io.memorychain.avro.view.RefinementEdit;
import io.memorychain.avro.view.RefinementSession;
import io.memorychain.avro.view.ThreadChange;
import io.memorychain.projector.view.ListQuery;
import io.memorychain.projector.view.MemoryViews;
import io.memorychain.projector.view.Page;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Everything the views say about a space, for comparing live views with a replay. */
public record ViewSnapshot(
        Map<MemoryState, List<Memory>> byState,
        String core,
        int coreTokens,
        Map<String, List<HistoryEntry>> history,
        List<AuditEntry> audit,
        List<ThreadChange> spaceLevelChanges,
        long appliedSeq,
        List<Proposal> openProposals,
        List<RefinementSession> refinements,
        Map<String, List<RefinementEdit>> refinementEdits) {

    public static ViewSnapshot of(MemoryViews views, String space) {
        Map<MemoryState, List<Memory>> byState = new TreeMap<>();
        Map<String, List<HistoryEntry>> history = new TreeMap<>();
        for (MemoryState state : MemoryState.values()) {
            List<Memory> all = new ArrayList<>();
            String after = null;
            do {
                Page<Memory> page = views.list(space, new ListQuery(null, null, state, after, 100));
                all.addAll(page.items());
                after = page.next();
            } while (after != null);
            byState.put(state, all);
            all.forEach(m -> history.put(m.getId(), views.history(space, m.getId())));
        }
        var core = views.core(space);
        List<RefinementSession> refinements = views.refinements(space);
        Map<String, List<RefinementEdit>> edits = new TreeMap<>();
        refinements.forEach(r -> edits.put(r.getSessionId(), views.refinementEdits(space, r.getSessionId())));
        return new ViewSnapshot(
                byState,
                core.text(),
                core.tokens(),
                history,
                views.audit(space, 0, Integer.MAX_VALUE),
                views.threadChanges(space, "", 0, Integer.MAX_VALUE),
                views.appliedSeq(space),
                views.openProposals(space),
                refinements,
                edits);
    }
}
