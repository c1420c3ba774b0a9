package io.memorychain.llm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class StructuredOutputValidatorTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }

    private static final String SCHEMA = """
            {"type":"object","required":["insights"],
             "properties":{"insights":{"type":"array","maxItems":3,
               "items":{"type":"object","required":["summary"],
                 "properties":{"summary":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}},
                   "importance":{"type":"integer"},"mood":{"enum":["calm","tense"]}}}}}}""";

    @Test
    void acceptsAMatchingValue() throws Exception {
        assertThat(
                        StructuredOutputValidator.validate(
                                json(SCHEMA),
                                json(
                                        "{\"insights\":[{\"summary\":\"s\",\"tags\":[\"a\"],\"importance\":2.0,\"mood\":\"calm\"}]}")))
                .isEmpty();
    }

    @Test
    void namesThePathOfTheFirstProblem() throws Exception {
        JsonNode schema = json(SCHEMA);
        assertThat(StructuredOutputValidator.validate(schema, json("[]")))
                .contains("$ should be \"object\" but is an array");
        assertThat(StructuredOutputValidator.validate(schema, json("{}")))
                .contains("$ misses required property 'insights'");
        assertThat(StructuredOutputValidator.validate(schema, json("{\"insights\":{}}")))
                .contains("$.insights should be \"array\" but is an object");
        assertThat(StructuredOutputValidator.validate(schema, json("{\"insights\":[{\"summary\":7}]}")))
                .contains("$.insights[0].summary should be \"string\" but is a number");
        assertThat(StructuredOutputValidator.validate(
                        schema, json("{\"insights\":[{\"summary\":\"s\",\"importance\":2.5}]}")))
                .contains("$.insights[0].importance should be \"integer\" but is a number");
        assertThat(StructuredOutputValidator.validate(
                        schema, json("{\"insights\":[{\"summary\":\"s\",\"tags\":[1]}]}")))
                .contains("$.insights[0].tags[0] should be \"string\" but is a number");
        assertThat(StructuredOutputValidator.validate(
                        schema, json("{\"insights\":[{\"summary\":\"s\",\"mood\":\"sad\"}]}")))
                .hasValueSatisfying(problem -> assertThat(problem).startsWith("$.insights[0].mood should be one of"));
        assertThat(
                        StructuredOutputValidator.validate(
                                schema,
                                json(
                                        "{\"insights\":[{\"summary\":\"a\"},{\"summary\":\"b\"},{\"summary\":\"c\"},{\"summary\":\"d\"}]}")))
                .contains("$.insights should have at most 3 items but has 4");
    }

    @Test
    void acceptsAnyOfSeveralTypes() throws Exception {
        JsonNode schema = json("{\"type\":[\"string\",\"null\"]}");
        assertThat(StructuredOutputValidator.validate(schema, json("null"))).isEmpty();
        assertThat(StructuredOutputValidator.validate(schema, json("\"x\""))).isEmpty();
        assertThat(StructuredOutputValidator.validate(schema, json("1"))).isPresent();
    }
}
