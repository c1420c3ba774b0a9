package io.memorychain.api.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.memorychain.projector.search.FilterParser;
import io.memorychain.projector.search.InvalidFilterException;

/**
 * The query filter parser on any JSON a client can send as {@code filters} (REST /query, gRPC Query, MCP memory_query):
 * it parses or refuses with {@link InvalidFilterException} (400 INVALID_FILTER), never anything else.
 */
class FilterParserFuzzTest {

    @FuzzTest(maxDuration = "2m")
    void filters(byte[] data) {
        Object tree = FuzzJson.read(FuzzJson.text(data), Object.class);
        try {
            FilterParser.parse(tree, "filters");
        } catch (InvalidFilterException refused) {
            // a 400 naming the offending part
        }
    }
}
