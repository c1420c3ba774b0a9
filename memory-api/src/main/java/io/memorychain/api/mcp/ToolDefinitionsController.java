package io.memorychain.api.mcp;

import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The agent tools in the OpenAI function-calling format, generated from the same definitions as the MCP tools. */
@Controller("/v1/tools")
@Tag(name = "tools")
class ToolDefinitionsController {

    private final MemoryTools tools;

    public ToolDefinitionsController(MemoryTools tools) {
        this.tools = tools;
    }

    @Get
    @Operation(
            summary = "Tool definitions (OpenAI function calling); public, no key needed",
            description = "Run a call with POST /mcp (tools/call) or the REST endpoint each tool mirrors.")
    public Map<String, Object> definitions() {
        return Map.of("tools", openAi(tools.all()));
    }

    /** {@code [{"type":"function","function":{"name","description","parameters"}}]}. */
    public static List<Map<String, Object>> openAi(List<MemoryTool> tools) {
        return tools.stream()
                .map(t -> {
                    Map<String, Object> function = new LinkedHashMap<>();
                    function.put("name", t.name());
                    function.put("description", t.description());
                    function.put("parameters", t.inputSchema());
                    Map<String, Object> tool = new LinkedHashMap<>();
                    tool.put("type", "function");
                    tool.put("function", function);
                    return tool;
                })
                .toList();
    }
}
