package io.memorychain.jobs.reflect;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memorychain.avro.Memory;
import io.memorychain.avro.ReflectionMilestone;
import io.memorychain.avro.view.Reflection;
import io.memorychain.avro.view.ReflectionStatus;
import io.memorychain.llm.ChatMessage;
import io.memorychain.llm.ChatRequest;
import io.memorychain.llm.JsonSchema;
import java.util.List;
import java.util.Map;

/**
 * The five phases of a reflection (docs/architecture.md §18, seed 001 §10.3) as prompts with JSON-schema output: SURVEY
 * (what to focus on), META_REFLECTION (past reflections and the evolution record), CONSOLIDATE (new and updated
 * memories, links, contradictions), REWRITE_CORE (core block edits), SUMMARIZE (the human-readable summary and
 * questions). Each phase's reply is the next phase's input. The 10th, 25th, 50th and 100th reflection of a space (its
 * evolution milestones) add one prompt after the meta-reflection, per milestone: a first evolution summary, a
 * consolidation of the evolution record's threads, a major synthesis, a deep retrospective.
 */
final class ReflectPrompts {

    static final String PURPOSE = ReflectionEngine.PURPOSE;
    private static final ObjectMapper JSON = new ObjectMapper();

    enum Phase {
        SURVEY("""
                You are the sleep-time reflection of a long-term memory. Phase 1, SURVEY: read the core memory, the \
                recent episodes and the memories, and list the 1-5 areas most worth consolidating now, most \
                important first. Reply with JSON only: {"priorities":["..."]}.""", survey()),
        META_REFLECTION("""
                Phase 2, META-REFLECTION: read the summaries of the past reflections and the evolution record. Note \
                patterns recurring across reflections, how the understanding of the user evolved, assumptions that \
                were revised (rejected reflections teach what the user did not want), persistent questions. Give \
                short guidance for this reflection and 0-3 insights for the evolution record. Reply with JSON only: \
                {"guidance":"...","evolution_insights":["..."]}.""", meta()),
        CONSOLIDATE("""
                Phase 3, CONSOLIDATE, guided by the priorities and the guidance: extract new facts from the episodes \
                (create_memory), correct or refine existing memories (update_memory, naming memory_id), connect \
                related memories (link_memories, memory_id -> to_id with a relation_type such as related_to, \
                prefers, part-of, depends-on), propose archiving memories that have faded or no longer matter \
                (archive_memory, naming memory_id: hidden from search until restored), turn a workflow repeated in \
                the episodes into a procedure (create_procedure: content = the numbered steps, summary = its name), \
                and flag contradictions for the user. Use only ids given in the input. Every change needs a \
                one-sentence reason. Propose at most 10 changes; fewer is better than guesses. Reply with JSON only: \
                {"changes":[{"type":"create_memory","memory_id":"","to_id":"","content":"...","summary":"",\
                "category":"","importance":3,"relation_type":"","reason":"..."}],"contradictions":["..."]}.""", consolidate()),
        REWRITE_CORE("""
                Phase 4, REWRITE CORE: given the core blocks and the consolidation, propose new full contents for the \
                blocks that should change (active context, promoted critical facts, persona evolved by the \
                insights); keep every block short. Only the labels listed may be written. Propose none when nothing \
                should change. Reply with JSON only: {"block_edits":[{"label":"...","content":"...","reason":"..."}]}.""", rewriteCore()),
        SUMMARIZE("""
                Phase 5, SUMMARIZE: write the reflection summary for the user in Markdown (new knowledge, new \
                connections, contradictions, core memory changes, philosophical evolution), and 0-3 questions for \
                the user. Reply with JSON only: {"summary":"...","questions":["..."]}.""", summarize());

        final String system;
        final JsonSchema schema;

        Phase(String system, JsonSchema schema) {
            this.system = system;
            this.schema = schema;
        }
    }

    /** A prompt outside the five phases: the evolution milestone's (after the meta-reflection). */
    record Prompt(String name, String system, JsonSchema schema) {}

    private static final String MILESTONE_REPLY = """
             Reply with JSON only: {"milestone":"... (Markdown)","evolution_insights":["..."]}: the milestone's \
            text for the user, and 0-5 insights for the evolution record (kept there once the user approves).""";

    private static final Map<ReflectionMilestone, Prompt> MILESTONES = Map.of(
            ReflectionMilestone.SUMMARY, new Prompt("MILESTONE_SUMMARY", """
                    Evolution milestone, the 10th reflection: write the FIRST EVOLUTION SUMMARY. From the past \
                    reflections, their decisions and the evolution record, identify the initial patterns: what kind \
                    of knowledge keeps being extracted, how the understanding of the user has formed, which \
                    proposals the user accepted or rejected and what that teaches.""" + MILESTONE_REPLY, milestoneSchema()),
            ReflectionMilestone.CONSOLIDATION,
                    new Prompt("MILESTONE_CONSOLIDATION", """
                    Evolution milestone, the 25th reflection: CONSOLIDATE THE EVOLUTION RECORD. Merge its insights \
                    into a few threads (each a recurring theme with how it developed), drop the repeated and the \
                    superseded ones, and name the threads still open. The consolidated threads are your \
                    evolution_insights.""" + MILESTONE_REPLY, milestoneSchema()),
            ReflectionMilestone.SYNTHESIS, new Prompt("MILESTONE_SYNTHESIS", """
                    Evolution milestone, the 50th reflection: a MAJOR SYNTHESIS. Across every past reflection and \
                    the evolution record, what has fundamentally changed in the understanding of the user and in \
                    what matters to them? Which assumptions were revised, which questions persist, which patterns \
                    only show across the whole arc?""" + MILESTONE_REPLY, milestoneSchema()),
            ReflectionMilestone.RETROSPECTIVE,
                    new Prompt("MILESTONE_RETROSPECTIVE", """
                    Evolution milestone, the 100th reflection: a DEEP RETROSPECTIVE. Look back over the whole \
                    history of reflections: the stages the understanding went through, what the memory got right \
                    and wrong, what the user's decisions taught, and what to keep doing or change.""" + MILESTONE_REPLY, milestoneSchema()));

    private ReflectPrompts() {}

    static ChatRequest request(String space, String system, JsonSchema schema, String input, int maxTokens) {
        return new ChatRequest(
                space, PURPOSE, List.of(ChatMessage.system(system), ChatMessage.user(input)), schema, maxTokens, 0.0);
    }

    /** The prompt of the milestone reflection (docs/architecture.md §18: the 10th, 25th, 50th and 100th). */
    static Prompt milestone(ReflectionMilestone milestone) {
        return MILESTONES.get(milestone);
    }

    /** The milestone's name as the summary shows it. */
    static String title(ReflectionMilestone milestone) {
        return switch (milestone) {
            case SUMMARY -> "first evolution summary";
            case CONSOLIDATION -> "evolution record consolidated";
            case SYNTHESIS -> "major synthesis";
            case RETROSPECTIVE -> "deep retrospective";
        };
    }

    /** What the milestone reads: the whole reflection log and evolution record, and this reflection's phases 1-2. */
    static String milestoneInput(ReflectRun run, List<String> priorities, String guidance, List<String> insights) {
        return "Reflection #" + run.number() + "\n\n" + past(run.past()) + "\nPriorities of this reflection:\n"
                + String.join("\n", priorities) + "\n\nGuidance: " + (guidance == null ? "-" : guidance)
                + "\n\nThis reflection's evolution insights:\n" + String.join("\n", insights);
    }

    /** The milestone without the model (the cap left no room): the evolution record so far, in order. */
    static String renderMilestone(ReflectionMilestone milestone, ReflectRun run, List<String> insights) {
        StringBuilder b = new StringBuilder(
                "Reflection #" + run.number() + " is the " + title(milestone) + "; the evolution record so far:\n");
        for (Reflection r : run.past()) {
            if (r.getStatus() == ReflectionStatus.APPROVED || r.getStatus() == ReflectionStatus.PARTIALLY_APPROVED) {
                r.getDocument()
                        .getEvolutionInsights()
                        .forEach(i -> b.append("- #")
                                .append(r.getDocument().getNumber())
                                .append(": ")
                                .append(i)
                                .append('\n'));
            }
        }
        insights.forEach(
                i -> b.append("- #").append(run.number()).append(": ").append(i).append('\n'));
        return b.toString();
    }

    /** What every phase reads: the core blocks, the episodes and the memories, with their ids. */
    static String context(ReflectRun run) {
        StringBuilder b = new StringBuilder();
        b.append("Reflection #")
                .append(run.number())
                .append(" (trigger: ")
                .append(run.trigger().name().toLowerCase(java.util.Locale.ROOT))
                .append(run.detail() == null ? "" : ", " + run.detail())
                .append(")\n\nCore blocks:\n");
        if (run.blocks().isEmpty()) {
            b.append("(none)\n");
        }
        for (Map.Entry<String, String> e : run.blocks().entrySet()) {
            b.append("[").append(e.getKey()).append("] ").append(e.getValue()).append('\n');
        }
        b.append("\nEpisodes (oldest first):\n");
        for (Memory m : run.episodes()) {
            line(b, m);
        }
        b.append("\nMemories:\n");
        for (Memory m : run.memories()) {
            line(b, m);
        }
        return b.toString();
    }

    /** The reflection log and the evolution record, for the meta-reflection. */
    static String past(List<Reflection> past) {
        if (past.isEmpty()) {
            return "No past reflections: this is the first.\n";
        }
        StringBuilder b = new StringBuilder("Past reflections (oldest first):\n");
        for (Reflection r : past) {
            b.append("#")
                    .append(r.getDocument().getNumber())
                    .append(' ')
                    .append(r.getStatus().name().toLowerCase(java.util.Locale.ROOT))
                    .append(r.getReason() == null ? "" : " (" + r.getReason() + ")")
                    .append(": ")
                    .append(firstLine(r.getDocument().getSummary()))
                    .append('\n');
            for (String insight : r.getDocument().getEvolutionInsights()) {
                b.append("  evolution: ").append(insight).append('\n');
            }
        }
        return b.toString();
    }

    private static void line(StringBuilder b, Memory m) {
        b.append(m.getId())
                .append(" [")
                .append(m.getKind().name().toLowerCase(java.util.Locale.ROOT))
                .append(m.getCategory() == null ? "" : ", " + m.getCategory())
                .append(", importance ")
                .append(m.getImportance())
                .append(m.getThreadId() == null ? "" : ", thread " + m.getThreadId())
                .append("] ")
                .append(m.getContent().replace('\n', ' '))
                .append('\n');
    }

    private static String firstLine(String text) {
        String stripped = text.strip();
        int nl = stripped.indexOf('\n');
        return nl < 0 ? stripped : stripped.substring(0, nl);
    }

    private static ObjectNode object(ObjectNode root, String... required) {
        root.put("type", "object");
        root.put("additionalProperties", false);
        ArrayNode req = root.putArray("required");
        for (String r : required) {
            req.add(r);
        }
        return root.putObject("properties");
    }

    private static void strings(ObjectNode properties, String name) {
        ObjectNode array = properties.putObject(name);
        array.put("type", "array");
        array.putObject("items").put("type", "string");
    }

    private static JsonSchema survey() {
        ObjectNode root = JSON.createObjectNode();
        strings(object(root, "priorities"), "priorities");
        return new JsonSchema("reflection_survey", root);
    }

    private static JsonSchema meta() {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode p = object(root, "guidance", "evolution_insights");
        p.putObject("guidance").put("type", "string");
        strings(p, "evolution_insights");
        return new JsonSchema("reflection_meta", root);
    }

    private static JsonSchema consolidate() {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode p = object(root, "changes", "contradictions");
        ObjectNode changes = p.putObject("changes");
        changes.put("type", "array");
        ObjectNode item = object(changes.putObject("items"), "type", "reason");
        item.putObject("type")
                .put("type", "string")
                .putArray("enum")
                .add("create_memory")
                .add("update_memory")
                .add("link_memories")
                .add("archive_memory")
                .add("create_procedure");
        for (String field :
                List.of("memory_id", "to_id", "content", "summary", "category", "relation_type", "reason")) {
            item.putObject(field).put("type", "string");
        }
        item.putObject("importance").put("type", "integer");
        strings(p, "contradictions");
        return new JsonSchema("reflection_consolidate", root);
    }

    private static JsonSchema rewriteCore() {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode edits = object(root, "block_edits").putObject("block_edits");
        edits.put("type", "array");
        ObjectNode item = object(edits.putObject("items"), "label", "content", "reason");
        for (String field : List.of("label", "content", "reason")) {
            item.putObject(field).put("type", "string");
        }
        return new JsonSchema("reflection_core", root);
    }

    private static JsonSchema milestoneSchema() {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode p = object(root, "milestone", "evolution_insights");
        p.putObject("milestone").put("type", "string");
        strings(p, "evolution_insights");
        return new JsonSchema("reflection_milestone", root);
    }

    private static JsonSchema summarize() {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode p = object(root, "summary", "questions");
        p.putObject("summary").put("type", "string");
        strings(p, "questions");
        return new JsonSchema("reflection_summary", root);
    }
}
