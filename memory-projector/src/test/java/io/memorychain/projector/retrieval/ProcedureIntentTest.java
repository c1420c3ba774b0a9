package io.memorychain.projector.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProcedureIntentTest {

    @Test
    void recognisesRequestsForAProcedure() {
        assertThat(ProcedureIntent.asks("How do I rotate the API keys?")).isTrue();
        assertThat(ProcedureIntent.asks("what are the steps to deploy")).isTrue();
        assertThat(ProcedureIntent.asks("Walk me through the release checklist"))
                .isTrue();
        assertThat(ProcedureIntent.asks("remind me how we back up the database"))
                .isTrue();
    }

    @Test
    void ordinaryMessagesAreNotRequestsForAProcedure() {
        assertThat(ProcedureIntent.asks("When is the deploy?")).isFalse();
        assertThat(ProcedureIntent.asks("I moved to Lisbon last month")).isFalse();
        assertThat(ProcedureIntent.asks("How are you today?")).isFalse();
        assertThat(ProcedureIntent.asks(null)).isFalse();
    }
}
