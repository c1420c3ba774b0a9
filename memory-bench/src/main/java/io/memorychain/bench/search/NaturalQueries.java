package io.memorychain.bench.search;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Fifty distinct natural-language queries, as an agent would send to {@code memory.query}: the latency harness embeds
 * each with the real model (so tokenization and inference see varied inputs) and searches with the same text. Their
 * content words are also words of the generated corpus ({@link SyntheticMemories}), so BM25 walks realistic posting
 * lists instead of matching nothing.
 */
final class NaturalQueries {

    static final List<String> ALL = List.of(
            "which editor theme does the user prefer",
            "when is the quarterly budget review meeting",
            "what language should answers be written in",
            "does the customer have any food allergies",
            "how do we deploy the billing service to kubernetes",
            "who reviews pull requests on the payments team",
            "where does the user travel every month",
            "what did we decide about the release candidate",
            "which timezone is the user working in",
            "what are the goals for the hiring roadmap this quarter",
            "how long are the standup meetings usually",
            "what is the invoice number for the last cloud bill",
            "which database does the analytics pipeline use",
            "what feedback did the customer give about latency",
            "does the user like espresso or tea in the morning",
            "who is on call for the search cluster this week",
            "what is the deadline for the migration project",
            "how should meeting notes be formatted",
            "which laptop model does the designer use",
            "what are the steps to rotate the signing keys",
            "when did the team last run a disaster recovery drill",
            "what is the preferred format for status reports",
            "which vendors are approved for travel booking",
            "how many vacation days are left this year",
            "what was the root cause of the outage in march",
            "which customers are on the enterprise plan",
            "what is the password policy for service accounts",
            "who approved the budget increase for marketing",
            "what dependencies block the mobile app release",
            "how does the user want reminders to be sent",
            "what are the dietary preferences for the offsite dinner",
            "which metrics does the dashboard track for checkout",
            "when is the next performance review cycle",
            "what did the manager say about remote work",
            "which programming languages does the intern know",
            "how is the staging environment different from production",
            "what is the escalation path for security incidents",
            "which regions host the kafka brokers",
            "what are the rules for naming feature flags",
            "who owns the documentation for the public api",
            "what is the retention period for audit logs",
            "how often are database backups verified",
            "which clients asked for an invoice in euros",
            "what music does the user listen to while coding",
            "when does the support contract with the vendor expire",
            "what are the open questions from the design review",
            "which tests are flaky in the integration suite",
            "how does the team estimate story points",
            "what gift ideas were noted for the birthday",
            "which conference talks does the user plan to attend");

    private static final Set<String> STOP_WORDS = Set.of(
            "a", "an", "and", "are", "as", "at", "be", "by", "did", "do", "does", "for", "from", "give", "have", "how",
            "in", "is", "it", "last", "many", "of", "on", "or", "say", "should", "the", "this", "to", "usually", "was",
            "we", "what", "when", "where", "which", "while", "who", "with", "any", "about", "long", "often", "next",
            "left", "year", "week", "every");

    private NaturalQueries() {}

    /** The distinct content words of the queries, in order of first appearance. */
    static List<String> contentWords() {
        Set<String> words = new LinkedHashSet<>();
        for (String q : ALL) {
            for (String w : q.toLowerCase(Locale.ROOT).split("[^a-z]+")) {
                if (w.length() > 2 && !STOP_WORDS.contains(w)) {
                    words.add(w);
                }
            }
        }
        return List.copyOf(words);
    }
}
