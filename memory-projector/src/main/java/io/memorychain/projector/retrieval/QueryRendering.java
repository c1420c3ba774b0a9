package io.memorychain.projector.retrieval;

import io.memorychain.avro.Memory;
import io.memorychain.domain.EventDescriptions;
import io.memorychain.domain.core.CoreFormatter;

/** How results are written into an agent's context, and what they cost in tokens. */
final class QueryRendering {

    static final int RELATED_SNIPPET = 120;

    private QueryRendering() {}

    /** {@code [category] text}, the text being the summary when there is one, else the content. */
    static String text(Memory m) {
        String body = m.getSummary() != null && !m.getSummary().isBlank() ? m.getSummary() : m.getContent();
        return (m.getCategory() == null ? "" : "[" + m.getCategory() + "] ") + body.strip();
    }

    static String relatedText(Memory m) {
        return EventDescriptions.snippet(text(m), RELATED_SNIPPET);
    }

    /** The item's lines: its bullet, then its related bullets indented. */
    static String bullet(QueryResult.Item item) {
        StringBuilder sb = new StringBuilder("- ").append(item.text().replace("\n", "\n  "));
        for (QueryResult.Related r : item.related()) {
            sb.append("\n  - ").append(r.relation()).append(": ").append(r.text());
        }
        return sb.toString();
    }

    static int tokens(String text) {
        return text.isEmpty() ? 0 : CoreFormatter.countTokens(text);
    }
}
