package io.memorychain.api.messages;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.api.request.RequestIds;
import org.junit.jupiter.api.Test;

class MessageIdsTest {

    @Test
    void theSameMessageGetsTheSameIdsAndAnyDifferenceOthers() {
        String id = MessageIds.base("s1", null, "t1", "u1", null, "remember that the code is 42");
        assertThat(MessageIds.base("s1", null, "t1", "u1", null, "remember that the code is 42"))
                .isEqualTo(id);
        assertThat(MessageIds.base("s2", null, "t1", "u1", null, "remember that the code is 42"))
                .isNotEqualTo(id);
        assertThat(MessageIds.base("s1", null, "t2", "u1", null, "remember that the code is 42"))
                .isNotEqualTo(id);
        assertThat(MessageIds.base("s1", null, "t1", "u2", null, "remember that the code is 42"))
                .isNotEqualTo(id);
        assertThat(MessageIds.base("s1", null, "t1", "u1", "r1", "remember that the code is 42"))
                .isNotEqualTo(id);
        assertThat(MessageIds.base("s1", null, "t1", "u1", null, "remember that the code is 43"))
                .isNotEqualTo(id);
        // a null field and an empty one are the same; the field boundary is kept ("t" + "1" is not "t1" + "")
        assertThat(MessageIds.base("s1", null, "t", "1u1", null, "x"))
                .isNotEqualTo(MessageIds.base("s1", null, "t1", "u1", null, "x"));
    }

    @Test
    void anIdempotencyKeyDecidesAloneWithinItsSpace() {
        String a = MessageIds.base("s1", "key-1", "t1", null, null, "first text");
        assertThat(MessageIds.base("s1", "key-1", "t9", "u", "r", "other text")).isEqualTo(a);
        assertThat(MessageIds.base("s2", "key-1", "t1", null, null, "first text"))
                .isNotEqualTo(a);
        assertThat(MessageIds.base("s1", "key-2", "t1", null, null, "first text"))
                .isNotEqualTo(a);
    }

    @Test
    void idsAreValidRequestIdsWithRoomForSuffixes() {
        String id = MessageIds.base("s1", "k".repeat(128), null, null, null, "m");
        assertThat(id).matches("msg-[0-9a-f]{32}");
        assertThat(RequestIds.fromHeader(id + ":e9")).isEqualTo(id + ":e9");
        assertThat(MessageIds.forget("tok")).matches("fgt-[0-9a-f]{32}").isEqualTo(MessageIds.forget("tok"));
    }
}
