package io.memorychain.jobs.tom;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class InsightValidatorTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static InsightValidator.Result validate(String json) throws Exception {
        return InsightValidator.validate(JSON.readTree(json));
    }

    @Test
    void acceptsThirdPersonInsightsAndNormalisesTags() throws Exception {
        InsightValidator.Result result = validate("""
                {"insights":[{"summary":" User shows more trust when mistakes are admitted. ",
                  "tags":["Trust","style"," "],"importance":4}]}""");

        assertThat(result.dropped()).isEmpty();
        assertThat(result.accepted()).singleElement().satisfies(i -> {
            assertThat(i.summary()).isEqualTo("User shows more trust when mistakes are admitted.");
            assertThat(i.tags()).containsExactly("tom", "trust", "style");
        });
    }

    @Test
    void dropsFirstPersonTooLongEmptyDuplicateAndAiReferringInsights() throws Exception {
        InsightValidator.Result result = validate("""
                {"insights":[
                  {"summary":"I think the user is frustrated.","tags":[],"importance":2},
                  {"summary":"We noticed the user prefers brevity.","tags":[],"importance":2},
                  {"summary":"The user trusts me more now.","tags":[],"importance":2},
                  {"summary":"%s","tags":[],"importance":2},
                  {"summary":"  ","tags":[],"importance":2},
                  {"summary":"User feels understood by the assistant.","tags":[],"importance":2},
                  {"summary":"User prefers direct feedback.","tags":[],"importance":2},
                  {"summary":"user prefers direct feedback.","tags":[],"importance":2}
                ]}""".formatted("x".repeat(281)));

        assertThat(result.accepted())
                .extracting(InsightValidator.Insight::summary)
                .containsExactly("User prefers direct feedback.");
        assertThat(result.dropped())
                .containsExactly(
                        "insights[0]: not third person",
                        "insights[1]: not third person",
                        "insights[2]: not third person",
                        "insights[3]: longer than 280 characters",
                        "insights[4]: empty",
                        "insights[5]: refers to the AI",
                        "insights[7]: duplicate");
    }

    @Test
    void keepsAtMostThreeInsights() throws Exception {
        InsightValidator.Result result = validate("""
                {"insights":[{"summary":"User a."},{"summary":"User b."},{"summary":"User c."},{"summary":"User d."}]}""");

        assertThat(result.accepted()).hasSize(3);
        assertThat(result.dropped()).containsExactly("insights[3]: more than 3 insights");
    }

    @Test
    void acceptsWordsThatOnlyContainPronouns() throws Exception {
        assertThat(InsightValidator.problem("User mentioned the US office and Ian's weekly meetup."))
                .isNull();
        assertThat(InsightValidator.problem("User values welcome messages and ourselves-free wording."))
                .isEqualTo("not third person");
        assertThat(InsightValidator.problem("My guess: the user is tired.")).isEqualTo("not third person");
    }
}
