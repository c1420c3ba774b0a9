package io.memorychain.api.refinement;

import io.memorychain.api.error.ApiException;
import io.memorychain.api.request.RequestIds;
import io.memorychain.api.write.WriteContext;
import io.memorychain.avro.Memory;
import io.memorychain.jobs.refine.SessionTools;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The knife of one open session for the refinement agent job, over {@link RefinementSessions}: every write names the
 * session and goes to the sequencer as the job's actor, each with its own request id; a refusal (the sequencer's or the
 * service's input rules) becomes {@link SessionTools.Refused} with its code, shown to the model as the step's result.
 */
final class AgentSessionTools implements SessionTools {

    private final RefinementSessions sessions;
    private final WriteContext base;
    private final String sessionId;

    AgentSessionTools(RefinementSessions sessions, WriteContext base, String sessionId) {
        this.sessions = sessions;
        this.base = base;
        this.sessionId = sessionId;
    }

    private WriteContext ctx() {
        return new WriteContext(base.space(), base.actor(), RequestIds.fromHeader(null), null, null);
    }

    @Override
    public String ledger() {
        SessionView view = call(() -> sessions.session(base.space(), sessionId, base.actor()));
        StringBuilder text = new StringBuilder();
        text.append("Session ")
                .append(sessionId)
                .append(" (trigger ")
                .append(view.session().getTrigger().name().toLowerCase(java.util.Locale.ROOT))
                .append("). ")
                .append(view.budget())
                .append(".\nLEDGER (id | created | importance | flags | tags | text):\n");
        view.ledger().forEach(m -> text.append(line(m)).append('\n'));
        if (view.ledger().isEmpty()) {
            text.append("(empty)\n");
        }
        return text.toString();
    }

    @Override
    public String search(String query) {
        List<Memory> found = call(() -> sessions.search(base.space(), base.actor(), sessionId, query, null, null, 20))
                .memories();
        return found.isEmpty()
                ? "no match"
                : found.stream().map(AgentSessionTools::line).collect(Collectors.joining("\n"));
    }

    @Override
    public String consolidate(List<String> ids, String content, String reason) {
        return call(() -> sessions.consolidate(ctx(), sessionId, ids, content, reason.isEmpty() ? null : reason))
                .memory()
                .getId();
    }

    @Override
    public String update(String id, String content) {
        return "updated " + id + " to version "
                + call(() -> sessions.update(ctx(), sessionId, id, content))
                        .memory()
                        .getVersion();
    }

    @Override
    public String delete(String id, String reason) {
        call(() -> sessions.delete(ctx(), sessionId, id, reason.isEmpty() ? null : reason));
        return "deleted " + id;
    }

    @Override
    public String protect(String id) {
        call(() -> sessions.protect(ctx(), sessionId, id));
        return "protected " + id;
    }

    @Override
    public String complete(String summary) {
        return call(() -> sessions.complete(ctx(), sessionId, summary))
                .session()
                .session()
                .getSummary();
    }

    private static String line(Memory m) {
        String flags = (m.getConstitutional() ? "constitutional " : "") + (m.getPinned() ? "pinned" : "");
        return m.getId() + " | " + m.getCreatedAt() + " | " + m.getImportance() + " | " + flags.strip() + " | "
                + String.join(",", m.getTags()) + " | " + m.getContent().replace('\n', ' ');
    }

    private static <T> T call(Supplier<T> action) {
        try {
            return action.get();
        } catch (ApiException e) {
            throw new Refused(e.code(), e.getMessage());
        }
    }
}
