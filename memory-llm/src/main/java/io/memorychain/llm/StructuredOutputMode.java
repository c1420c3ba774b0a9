package io.memorychain.llm;

import java.util.Locale;

/** How structured output is asked for in {@code response_format}. */
public enum StructuredOutputMode {
    /**
     * {@code {"type":"json_schema","json_schema":{"name","schema","strict":true}}}: OpenAI, vLLM, llama.cpp, Ollama.
     */
    JSON_SCHEMA,
    /**
     * {@code {"type":"json_object"}} for servers without json_schema support; the schema is then sent as an extra
     * system message. The reply is validated against the schema either way.
     */
    JSON_OBJECT;

    /** Parses {@code json_schema} / {@code json_object} (case-insensitive, '-' or '_'). */
    public static StructuredOutputMode parse(String value) {
        String normalized = value.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        try {
            return valueOf(normalized);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "structured-output must be json_schema or json_object, not '" + value + "'", e);
        }
    }
}
