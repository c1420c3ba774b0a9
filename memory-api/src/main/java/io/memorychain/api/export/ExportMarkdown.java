package io.memorychain.api.export;

import io.memorychain.api.memories.MemoryJson;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** An export as one Markdown document: the blocks, then the memories by kind, each with its metadata. */
final class ExportMarkdown {

    private ExportMarkdown() {}

    static String of(SpaceExport export) {
        StringBuilder md = new StringBuilder();
        md.append("# Memories of space ").append(export.space());
        if (export.userId() != null) {
            md.append(", user ").append(export.userId());
        }
        md.append("\n\nExported ")
                .append(export.exportedAt())
                .append(" at seq ")
                .append(export.headSeq())
                .append(" (")
                .append(export.memories().size())
                .append(" memories, ")
                .append(export.blocks().size())
                .append(" blocks, ")
                .append(export.relations().size())
                .append(" relations).\n");
        for (MemoryJson b : export.blocks()) {
            md.append("\n## Block: ")
                    .append(b.blockLabel())
                    .append(" (v")
                    .append(b.version())
                    .append(")\n\n")
                    .append(b.content().strip())
                    .append('\n');
        }
        Map<String, List<MemoryJson>> byKind = export.memories().stream()
                .collect(Collectors.groupingBy(MemoryJson::kind, TreeMap::new, Collectors.toList()));
        byKind.forEach((kind, list) -> {
            md.append("\n## ").append(kind).append(" (").append(list.size()).append(")\n\n");
            for (MemoryJson m : list) {
                md.append("- ")
                        .append(m.content().strip().replace("\n", " "))
                        .append("  \n  `")
                        .append(m.id())
                        .append("` created ")
                        .append(m.createdAt());
                if (m.category() != null) {
                    md.append(", category ").append(m.category());
                }
                if (!m.tags().isEmpty()) {
                    md.append(", tags ").append(String.join(", ", m.tags()));
                }
                md.append(", importance ").append(m.importance()).append('\n');
            }
        });
        if (!export.relations().isEmpty()) {
            md.append("\n## Relations\n\n");
            export.relations()
                    .forEach(e -> md.append("- `")
                            .append(e.from())
                            .append("` ")
                            .append(e.type())
                            .append(" `")
                            .append(e.to())
                            .append("` (")
                            .append(e.strength())
                            .append(")\n"));
        }
        return md.toString();
    }
}
