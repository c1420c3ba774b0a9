package io.memorychain.domain.core;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Formats core memory as prompt sections (docs/architecture.md §7, context): blocks in a fixed order with their
 * headings, then other core-tier memories as bullets. Tokens are counted with cl100k_base.
 */
public final class CoreFormatter {

    private static final Map<String, String> HEADINGS = new LinkedHashMap<>();

    static {
        HEADINGS.put("persona", "Who I Am");
        HEADINGS.put("user_profile", "About the User");
        HEADINGS.put("goals", "Current Goals");
        HEADINGS.put("knowledge", "Key Knowledge");
        HEADINGS.put("critical", "Critical Facts");
    }

    private CoreFormatter() {}

    public static CoreView format(List<Memory> coreMemories) {
        List<Memory> blocks = new ArrayList<>();
        List<Memory> others = new ArrayList<>();
        for (Memory m : coreMemories) {
            (m.getKind() == MemoryKind.BLOCK ? blocks : others).add(m);
        }
        List<String> order = new ArrayList<>(HEADINGS.keySet());
        blocks.sort(Comparator.comparingInt((Memory m) -> {
                    int i = order.indexOf(m.getBlockLabel());
                    return i < 0 ? Integer.MAX_VALUE : i;
                })
                .thenComparing(Memory::getBlockLabel));
        List<String> sections = new ArrayList<>();
        for (Memory block : blocks) {
            sections.add("## " + HEADINGS.getOrDefault(block.getBlockLabel(), block.getBlockLabel()) + "\n"
                    + block.getContent().strip());
        }
        if (!others.isEmpty()) {
            StringBuilder sb = new StringBuilder("## Core Memories");
            others.forEach(m -> sb.append("\n- ").append(m.getContent().strip().replace("\n", "\n  ")));
            sections.add(sb.toString());
        }
        String text = String.join("\n\n", sections);
        List<Memory> all = new ArrayList<>(blocks);
        all.addAll(others);
        return new CoreView(text, countTokens(text), List.copyOf(all));
    }

    /**
     * The text's cl100k_base tokens, special tokens such as {@code <|endoftext|>} counted as the ordinary text they are
     * in a memory (jtokkit's {@code countTokens} refuses any text that contains one). The tables load on first use.
     */
    public static int countTokens(String text) {
        return Tokenizer.COUNTER.count(text);
    }

    private static final class Tokenizer {
        static final Cl100kCounter COUNTER = Cl100kCounter.load();
    }
}
