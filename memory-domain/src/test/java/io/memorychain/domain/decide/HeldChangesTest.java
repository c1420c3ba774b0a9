package io.memorychain.domain.decide;

import static io.memorychain.domain.decide.Scenario.AGENT;
import static io.memorychain.domain.decide.Scenario.SPACE;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.BlockUpdated;
import io.memorychain.avro.ConsentDecision;
import io.memorychain.avro.ConsentRequested;
import io.memorychain.avro.ConsentResolved;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.DecideConsent;
import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryCreated;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryRequest;
import io.memorychain.avro.MemoryUpdated;
import io.memorychain.avro.Tier;
import io.memorychain.avro.UpdateBlock;
import io.memorychain.avro.UpdateMemory;
import io.memorychain.avro.view.ConsentStatus;
import io.memorychain.domain.MemoryIds;
import io.memorychain.domain.RejectionCode;
import io.memorychain.domain.governance.Governance;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Sensitive profile fields written into the user_profile block or as tagged memories wait for the user's consent. */
class HeldChangesTest {

    private static final Actor USER = Scenario.actor(ActorType.USER, "ana");

    private final Scenario s = new Scenario();

    private MemoryRequest block(Actor actor, String content) {
        return s.request(
                        actor,
                        UpdateBlock.newBuilder()
                                .setLabel("user_profile")
                                .setContent(content)
                                .setCore(true)
                                .build())
                .build();
    }

    private MemoryRequest memory(Actor actor, String content, String... tags) {
        return s.request(
                        actor,
                        CreateMemory.newBuilder()
                                .setKind(MemoryKind.SEMANTIC)
                                .setTier(Tier.WORKING)
                                .setContent(content)
                                .setTags(List.of(tags))
                                .build())
                .build();
    }

    private MemoryRequest decide(String consentId, boolean grant) {
        return s.request(USER, new DecideConsent(consentId, grant, grant ? "yes" : "no"))
                .build();
    }

    private static List<Object> payloads(Decision d) {
        List<Decision.Accept> events =
                d instanceof Decision.AcceptAll all ? all.events() : List.of((Decision.Accept) d);
        return events.stream().map(Decision.Accept::payload).toList();
    }

    private String blockContent() {
        String id = s.model().activeBlock(SPACE, "user_profile");
        return id == null ? null : s.model().memory(SPACE, id).getContent();
    }

    private ConsentStatus status(String consentId) {
        return Governance.consent(s.model().governance(SPACE), consentId)
                .orElseThrow()
                .getStatus();
    }

    @Test
    void anAgentsBlockLineNamingASensitiveFieldIsHeldWithTheFieldItWouldChange() {
        s.given(block(USER, "Likes: tea\nPreferred name: Ana"));

        Decision d = s.when(block(AGENT, "Likes: tea\n- **Preferred-Name:** Annie"));

        assertThat(payloads(d)).singleElement().isInstanceOfSatisfying(ConsentRequested.class, c -> {
            assertThat(c.getField()).isEqualTo("preferred_name");
            assertThat(c.getValue()).isEqualTo("Annie");
            assertThat(c.getPrevious()).isEqualTo("Ana");
            assertThat(c.getSource()).isEqualTo("block:user_profile");
            assertThat(c.getConsentId()).isEqualTo(MemoryIds.consent(SPACE, 2));
            MemoryRequest held = HeldChanges.decode(c.getHeldRequest());
            assertThat(held.getActor()).isEqualTo(AGENT);
            assertThat(held.getExpectedVersion())
                    .as("the version it was decided against")
                    .isEqualTo(1);
            assertThat(((UpdateBlock) held.getOp()).getContent()).isEqualTo("Likes: tea\n- **Preferred-Name:** Annie");
        });
        s.given(block(AGENT, "Likes: tea\n- **Preferred-Name:** Annie"));
        assertThat(blockContent()).as("nothing applied").isEqualTo("Likes: tea\nPreferred name: Ana");
    }

    @Test
    void anAgentsBlockEditOfOtherLinesOrAnUnchangedSensitiveLineAppliesAtOnce() {
        s.given(block(USER, "pronouns: she/her"));

        assertThat(payloads(s.when(block(AGENT, "pronouns: she/her\nLikes: tea\ntone: warm"))))
                .singleElement()
                .isInstanceOf(BlockUpdated.class);
        assertThat(payloads(s.when(s.request(
                                AGENT,
                                UpdateBlock.newBuilder()
                                        .setLabel("goals")
                                        .setContent("city: Lisbon")
                                        .setCore(true)
                                        .build())
                        .build())))
                .as("only the user_profile block holds profile lines")
                .singleElement()
                .isInstanceOf(BlockUpdated.class);
    }

    @Test
    void theUsersOwnBlockEditAndTaggedMemoryApplyAtOnce() {
        assertThat(payloads(s.when(block(USER, "City: Porto")))).singleElement().isInstanceOf(BlockUpdated.class);
        assertThat(payloads(s.when(memory(USER, "I live in Porto", "profile:city"))))
                .singleElement()
                .isInstanceOf(MemoryCreated.class);
    }

    @Test
    void anAgentsMemoryTaggedWithASensitiveFieldIsHeldAndABenignOneIsNot() {
        Decision d = s.when(memory(AGENT, "Ana lives in Porto", "travel", "Profile:City"));

        assertThat(payloads(d)).singleElement().isInstanceOfSatisfying(ConsentRequested.class, c -> {
            assertThat(c.getField()).isEqualTo("city");
            assertThat(c.getValue()).isEqualTo("Ana lives in Porto");
            assertThat(c.getSource()).isEqualTo("memory:profile:city");
        });
        assertThat(payloads(s.when(memory(AGENT, "Ana prefers short answers", "profile:verbosity"))))
                .singleElement()
                .isInstanceOf(MemoryCreated.class);
        assertThat(payloads(s.when(memory(AGENT, "Ana lives in Porto", "city"))))
                .as("only the exact profile: marker counts")
                .singleElement()
                .isInstanceOf(MemoryCreated.class);
    }

    @Test
    void anAgentAddingTheProfileTagToAMemoryIsHeld() {
        String id = s.given(memory(AGENT, "Ana speaks Portuguese"));

        Decision d = s.when(s.request(
                        AGENT,
                        UpdateMemory.newBuilder()
                                .setId(id)
                                .setTags(List.of("profile:language"))
                                .build())
                .build());

        assertThat(payloads(d)).singleElement().isInstanceOfSatisfying(ConsentRequested.class, c -> {
            assertThat(c.getField()).isEqualTo("language");
            assertThat(HeldChanges.decode(c.getHeldRequest()).getExpectedVersion())
                    .isEqualTo(1);
        });
    }

    @Test
    void theUsersGrantAppliesTheHeldBlockEditAsAskedOnBehalfOfItsAsker() {
        s.given(block(USER, "Preferred name: Ana"));
        String consent = s.given(block(AGENT, "Preferred name: Annie"));

        Decision d = s.when(decide(consent, true));

        List<Decision.Accept> events = ((Decision.AcceptAll) d).events();
        assertThat(events.get(0).payload())
                .isInstanceOfSatisfying(
                        ConsentResolved.class, r -> assertThat(r.getDecision()).isEqualTo(ConsentDecision.GRANTED));
        assertThat(events.get(1).payload()).isInstanceOf(BlockUpdated.class);
        assertThat(events.get(1).actor()).isEqualTo(AGENT);
        s.given(decide(consent, true));
        assertThat(blockContent()).isEqualTo("Preferred name: Annie");
        assertThat(status(consent)).isEqualTo(ConsentStatus.GRANTED);
    }

    @Test
    void theUsersGrantCreatesTheHeldMemory() {
        String consent = s.given(memory(AGENT, "Ana's pronouns are she/her", "profile:pronouns"));

        String created = s.given(decide(consent, true));

        Memory m = s.model().memory(SPACE, created);
        assertThat(m.getContent()).isEqualTo("Ana's pronouns are she/her");
        assertThat(m.getTags()).containsExactly("profile:pronouns");
        assertThat(status(consent)).isEqualTo(ConsentStatus.GRANTED);
    }

    @Test
    void aDenialDropsTheHeldChange() {
        s.given(block(USER, "City: Porto"));
        String consent = s.given(block(AGENT, "City: Lisbon"));

        assertThat(payloads(s.when(decide(consent, false))))
                .singleElement()
                .isInstanceOfSatisfying(
                        ConsentResolved.class, r -> assertThat(r.getDecision()).isEqualTo(ConsentDecision.DENIED));
        s.given(decide(consent, false));
        assertThat(blockContent()).isEqualTo("City: Porto");
        assertThat(status(consent)).isEqualTo(ConsentStatus.DENIED);
    }

    @Test
    void aGrantAfterTheBlockChangedIsRefusedWithVersionConflictAndTheRequestStaysPending() {
        s.given(block(USER, "City: Porto"));
        String consent = s.given(block(AGENT, "City: Lisbon"));
        s.given(block(USER, "City: Porto\nLikes: tea"));

        Decision d = s.when(decide(consent, true));

        assertThat(d).isInstanceOfSatisfying(Decision.Reject.class, r -> {
            assertThat(r.code()).isEqualTo(RejectionCode.VERSION_CONFLICT);
            assertThat(r.message()).contains(consent).contains("no longer applies");
        });
        assertThat(status(consent)).isEqualTo(ConsentStatus.PENDING);
        s.given(decide(consent, false));
        assertThat(blockContent()).isEqualTo("City: Porto\nLikes: tea");
    }

    @Test
    void aGrantOfAHeldMemoryUpdateAfterTheMemoryChangedIsRefused() {
        String id = s.given(memory(AGENT, "Ana speaks Portuguese"));
        String consent = s.given(s.request(
                        AGENT,
                        UpdateMemory.newBuilder()
                                .setId(id)
                                .setTags(List.of("profile:language"))
                                .build())
                .build());
        s.given(s.request(
                        USER,
                        UpdateMemory.newBuilder().setId(id).setImportance(4).build())
                .build());

        Decision d = s.when(decide(consent, true));

        assertThat(d)
                .isInstanceOfSatisfying(
                        Decision.Reject.class, r -> assertThat(r.code()).isEqualTo(RejectionCode.VERSION_CONFLICT));
        assertThat(s.model().memory(SPACE, id).getTags()).isEmpty();
        assertThat(payloads(s.when(s.request(
                                USER,
                                UpdateMemory.newBuilder()
                                        .setId(id)
                                        .setTags(List.of("profile:language"))
                                        .build())
                        .build())))
                .singleElement()
                .isInstanceOf(MemoryUpdated.class);
    }

    @Test
    void anAgentsCommitOfASubAgentsProposalTaggedWithASensitiveFieldIsHeldAndTheGrantCommitsIt() {
        String proposal = s.given(s.request(
                        Scenario.SUBAGENT,
                        new io.memorychain.avro.SubmitProposal(io.memorychain.avro.ProposedMemory.newBuilder()
                                .setContent("Ana lives in Porto")
                                .setTags(List.of("profile:city"))
                                .build()))
                .build());
        MemoryRequest commit = s.request(
                        AGENT,
                        io.memorychain.avro.ResolveProposal.newBuilder()
                                .setProposalId(proposal)
                                .setDecision(io.memorychain.avro.ProposalDecision.COMMIT)
                                .build())
                .build();

        Decision held = s.when(commit);

        assertThat(payloads(held)).singleElement().isInstanceOfSatisfying(ConsentRequested.class, c -> {
            assertThat(c.getField()).isEqualTo("city");
            assertThat(c.getSource()).isEqualTo("memory:profile:city");
            assertThat(c.getReason()).contains("commit of proposal " + proposal);
        });
        String consent = s.given(commit);

        Decision granted = s.when(decide(consent, true));

        assertThat(payloads(granted))
                .extracting(p -> p.getClass().getSimpleName())
                .containsExactly("ConsentResolved", "ProposalResolved", "MemoryCreated");
    }
}
