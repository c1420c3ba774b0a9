package io.memorychain.domain.governance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The exact grammar of profile facts in the user_profile block and in memory tags. */
class ProfileFactsTest {

    private final GovernancePolicy policy = GovernancePolicy.defaults();

    @Test
    void blockLinesNameFieldsCaseInsensitivelyWithAliases() {
        assertThat(ProfileFacts.lines("""
                # About Ana
                - preferred_name: Ana
                * **Pronouns:** she/her
                City : Porto
                  + Language: pt-PT
                no colon here
                Empty:
                """))
                .containsExactly(
                        java.util.Map.entry("preferred_name", "Ana"), java.util.Map.entry("pronouns", "she/her"),
                        java.util.Map.entry("city", "Porto"), java.util.Map.entry("language", "pt-PT"));
        assertThat(ProfileFacts.normalise("Preferred  -Name")).isEqualTo("preferred_name");
    }

    @Test
    void aBlockChangeIsAnAddedOrChangedLineOfAConfiguredSensitiveField() {
        assertThat(ProfileFacts.blockChange(policy, "city: Porto", "city: Porto\ntone: warm\nhobby: chess"))
                .isEmpty();
        assertThat(ProfileFacts.blockChange(policy, "city: Porto", ""))
                .as("a removal is not held")
                .isEmpty();
        assertThat(ProfileFacts.blockChange(policy, "city: Porto", "City: Lisbon"))
                .contains(new ProfileFacts.Change("city", "Lisbon", "Porto"));
        assertThat(ProfileFacts.blockChange(policy, null, "Preferred name: Annie"))
                .contains(new ProfileFacts.Change("preferred_name", "Annie", null));
    }

    @Test
    void taggedFieldsAreTheProfileMarkerOnly() {
        assertThat(ProfileFacts.taggedFields(List.of("city", "PROFILE:Preferred-Name", "profile:", "profile:tone")))
                .containsExactly("preferred_name", "tone");
        assertThat(ProfileFacts.taggedSensitive(policy, List.of("profile:tone", "profile:pronouns")))
                .contains("pronouns");
        assertThat(ProfileFacts.taggedSensitive(policy, List.of("profile:tone")))
                .isEmpty();
    }
}
