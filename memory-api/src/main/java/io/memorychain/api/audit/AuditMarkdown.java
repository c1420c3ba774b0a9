package io.memorychain.api.audit;

import java.util.List;

/** Audit entries as a Markdown document: the audit log's {@code format=markdown}, e.g. a user's own history. */
final class AuditMarkdown {

    private AuditMarkdown() {}

    /** @param userId whose history this is (null: the space's log as filtered) */
    static String of(String space, String userId, List<AuditEntryJson> entries) {
        StringBuilder md = new StringBuilder();
        md.append(
                        userId == null
                                ? "# Audit log of space " + space
                                : "# History of user " + userId + " in space " + space)
                .append("\n\n");
        md.append(entries.size()).append(" chain event(s)");
        if (!entries.isEmpty()) {
            md.append(", seq ")
                    .append(entries.get(0).seq())
                    .append(" to ")
                    .append(entries.get(entries.size() - 1).seq());
        }
        md.append(userId == null ? "" : ": every event touching a memory of this user")
                .append(".\n\n## Events\n");
        AuditDigests.lines(md, entries);
        return md.toString();
    }
}
