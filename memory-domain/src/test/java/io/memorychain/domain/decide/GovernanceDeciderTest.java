package io.memorychain.domain.decide;

import static io.memorychain.domain.decide.Scenario.ADMIN;
import static io.memorychain.domain.decide.Scenario.AGENT;
import static io.memorychain.domain.decide.Scenario.SPACE;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.AcknowledgeAlert;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.AlertAcknowledged;
import io.memorychain.avro.BlockUpdated;
import io.memorychain.avro.Confidence;
import io.memorychain.avro.ConsentDecision;
import io.memorychain.avro.ConsentRequested;
import io.memorychain.avro.ConsentResolved;
import io.memorychain.avro.CriticalChangeAlerted;
import io.memorychain.avro.DecideConsent;
import io.memorychain.avro.DecideReflection;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.ProfileApplyReason;
import io.memorychain.avro.ProfileFieldSet;
import io.memorychain.avro.ProfileSignalRecorded;
import io.memorychain.avro.ProposeReflection;
import io.memorychain.avro.ReflectionChange;
import io.memorychain.avro.ReflectionChangeType;
import io.memorychain.avro.ReflectionDecisionType;
import io.memorychain.avro.ReflectionDocument;
import io.memorychain.avro.ReflectionTrigger;
import io.memorychain.avro.SetProfileField;
import io.memorychain.avro.UpdateBlock;
import io.memorychain.avro.view.ConsentStatus;
import io.memorychain.avro.view.SpaceGovernance;
import io.memorychain.domain.EventDescriptions;
import io.memorychain.domain.MemoryIds;
import io.memorychain.domain.RejectionCode;
import io.memorychain.domain.Rules;
import io.memorychain.domain.governance.Governance;
import io.memorychain.domain.governance.GovernancePolicy;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Consent for profile fields and critical-change alerts (docs/architecture.md §21): given/when/then. */
class GovernanceDeciderTest {

    private static final Actor USER = Scenario.actor(ActorType.USER, "ana");
    private static final Actor TOM = Scenario.actor(ActorType.WORKER, "tom");
    private static final Actor OTHER_AGENT = Scenario.actor(ActorType.AGENT, "helper");

    private final Scenario s = new Scenario();

    private io.memorychain.avro.MemoryRequest set(
            Actor actor, String field, String value, String source, Confidence confidence) {
        return s.request(
                        actor,
                        SetProfileField.newBuilder()
                                .setField(field)
                                .setValue(value)
                                .setSource(source)
                                .setConfidence(confidence)
                                .setReason("heard in chat")
                                .build())
                .build();
    }

    private io.memorychain.avro.MemoryRequest set(Actor actor, String field, String value) {
        return set(actor, field, value, "chat", Confidence.MEDIUM);
    }

    private io.memorychain.avro.MemoryRequest decide(Actor actor, String consentId, boolean grant) {
        return s.request(actor, new DecideConsent(consentId, grant, grant ? "yes, that's right" : "no"))
                .build();
    }

    private SpaceGovernance governance() {
        return s.model().governance(SPACE);
    }

    private String value(String field) {
        return Governance.field(governance(), field).map(f -> f.getValue()).orElse(null);
    }

    private static List<Object> payloads(Decision d) {
        List<Decision.Accept> events =
                d instanceof Decision.AcceptAll all ? all.events() : List.of((Decision.Accept) d);
        return events.stream().map(Decision.Accept::payload).toList();
    }

    private static void rejected(Decision d, RejectionCode code) {
        assertThat(d).isInstanceOf(Decision.Reject.class);
        assertThat(((Decision.Reject) d).code())
                .as(((Decision.Reject) d).message())
                .isEqualTo(code);
    }

    // ---------------------------------------------------------------- sensitive fields

    @Test
    void sensitiveChangeByAnAgentQueuesAConsentRequestAndChangesNothing() {
        Decision d = s.when(set(AGENT, "preferred_name", "Annie"));

        assertThat(payloads(d)).singleElement().isInstanceOfSatisfying(ConsentRequested.class, c -> {
            assertThat(c.getField()).isEqualTo("preferred_name");
            assertThat(c.getValue()).isEqualTo("Annie");
            assertThat(c.getExpiresAt()).isEqualTo(s.now().plus(Duration.ofDays(7)));
            assertThat(c.getConsentId()).isEqualTo(MemoryIds.consent(SPACE, 1));
        });
        String id = s.given(set(AGENT, "preferred_name", "Annie"));
        assertThat(value("preferred_name")).isNull();
        assertThat(Governance.consent(governance(), id).orElseThrow().getStatus())
                .isEqualTo(ConsentStatus.PENDING);
    }

    @Test
    void unknownFieldsAreSensitive() {
        assertThat(payloads(s.when(set(AGENT, "favourite_colour", "green"))))
                .singleElement()
                .isInstanceOf(ConsentRequested.class);
    }

    @Test
    void theUsersGrantAppliesTheFieldInTheSameDecision() {
        String id = s.given(set(AGENT, "pronouns", "she/her"));

        Decision d = s.when(decide(USER, id, true));

        assertThat(payloads(d)).hasSize(2);
        assertThat(payloads(d).get(0))
                .isInstanceOfSatisfying(
                        ConsentResolved.class, r -> assertThat(r.getDecision()).isEqualTo(ConsentDecision.GRANTED));
        assertThat(payloads(d).get(1)).isInstanceOfSatisfying(ProfileFieldSet.class, f -> {
            assertThat(f.getValue()).isEqualTo("she/her");
            assertThat(f.getAppliedBy()).isEqualTo(ProfileApplyReason.CONSENT);
            assertThat(f.getConsentId()).isEqualTo(id);
        });
        s.given(decide(USER, id, true));
        assertThat(value("pronouns")).isEqualTo("she/her");
        assertThat(Governance.consent(governance(), id).orElseThrow().getStatus())
                .isEqualTo(ConsentStatus.GRANTED);
    }

    @Test
    void aDenialChangesNothingAndASecondDecisionIsAlreadyResolved() {
        String id = s.given(set(AGENT, "city", "Porto"));

        s.given(decide(USER, id, false));

        assertThat(value("city")).isNull();
        assertThat(Governance.consent(governance(), id).orElseThrow().getStatus())
                .isEqualTo(ConsentStatus.DENIED);
        rejected(s.when(decide(USER, id, true)), RejectionCode.ALREADY_RESOLVED);
    }

    @Test
    void aGrantAfterSevenDaysIsRefusedAsExpired() {
        String id = s.given(set(AGENT, "language", "pt"));
        s.advance(Duration.ofDays(7));

        rejected(s.when(decide(USER, id, true)), RejectionCode.EXPIRED);
        assertThat(value("language")).isNull();
    }

    @Test
    void aGrantJustBeforeTheWindowClosesApplies() {
        String id = s.given(set(AGENT, "language", "pt"));
        s.advance(Duration.ofDays(7).minusMinutes(2)); // given moved the clock a minute

        assertThat(payloads(s.when(decide(USER, id, true)))).hasSize(2);
    }

    @Test
    void aLaterChangeOfTheFieldRecordsTheExpiredRequestFirst() {
        String old = s.given(set(AGENT, "city", "Porto"));
        s.advance(Duration.ofDays(8));

        Decision d = s.when(set(AGENT, "city", "Lisbon"));

        assertThat(payloads(d)).hasSize(2);
        assertThat(payloads(d).get(0)).isInstanceOfSatisfying(ConsentResolved.class, r -> {
            assertThat(r.getConsentId()).isEqualTo(old);
            assertThat(r.getDecision()).isEqualTo(ConsentDecision.EXPIRED);
        });
        assertThat(payloads(d).get(1))
                .isInstanceOfSatisfying(
                        ConsentRequested.class,
                        c -> assertThat(c.getConsentId()).isEqualTo(MemoryIds.consent(SPACE, 3)));
    }

    @Test
    void onlyTheUserDecidesConsent() {
        String id = s.given(set(AGENT, "pronouns", "they/them"));

        rejected(s.when(decide(AGENT, id, true)), RejectionCode.FORBIDDEN);
        rejected(s.when(decide(ADMIN, id, true)), RejectionCode.FORBIDDEN);
        rejected(s.when(decide(USER, "c0000099xxxx", true)), RejectionCode.NOT_FOUND);
    }

    @Test
    void theUsersOwnChangeAppliesAtOnce() {
        Decision d = s.when(set(USER, "preferred_name", "Ana"));

        assertThat(payloads(d))
                .singleElement()
                .isInstanceOfSatisfying(
                        ProfileFieldSet.class, f -> assertThat(f.getAppliedBy()).isEqualTo(ProfileApplyReason.USER));
        s.given(set(USER, "preferred_name", "Ana"));
        assertThat(value("preferred_name")).isEqualTo("Ana");
        rejected(s.when(set(USER, "preferred_name", "Ana")), RejectionCode.INVALID_STATE);
    }

    @Test
    void malformedFieldsAndValuesAreInvalid() {
        rejected(s.when(set(USER, "Preferred Name", "Ana")), RejectionCode.INVALID_ARGUMENT);
        rejected(s.when(set(USER, "tone", " ")), RejectionCode.INVALID_ARGUMENT);
        rejected(s.when(set(Scenario.SUBAGENT, "tone", "dry")), RejectionCode.FORBIDDEN);
    }

    // ---------------------------------------------------------------- benign fields

    @Test
    void aBenignValueFromOneSignalWaits() {
        Decision d = s.when(set(AGENT, "tone", "casual"));

        assertThat(payloads(d))
                .singleElement()
                .isInstanceOfSatisfying(
                        ProfileSignalRecorded.class,
                        r -> assertThat(r.getSignals()).isEqualTo(1));
        s.given(set(AGENT, "tone", "casual"));
        assertThat(value("tone")).isNull();
        assertThat(governance().getPending())
                .singleElement()
                .satisfies(p -> assertThat(p.getValue()).isEqualTo("casual"));
        rejected(s.when(set(AGENT, "tone", "casual")), RejectionCode.INVALID_STATE); // the same signal again
    }

    @Test
    void aBenignValueCorroboratedByTwoDistinctSignalsApplies() {
        s.given(set(AGENT, "tone", "casual", "chat", Confidence.MEDIUM));

        Decision d = s.when(set(OTHER_AGENT, "tone", "casual", "chat", Confidence.LOW));

        assertThat(payloads(d)).singleElement().isInstanceOfSatisfying(ProfileFieldSet.class, f -> {
            assertThat(f.getAppliedBy()).isEqualTo(ProfileApplyReason.CORROBORATED);
            assertThat(f.getSignals()).extracting(x -> x.getActor().getId()).containsExactly("planner", "helper");
        });
        s.given(set(OTHER_AGENT, "tone", "casual", "chat", Confidence.LOW));
        assertThat(value("tone")).isEqualTo("casual");
        assertThat(governance().getPending()).isEmpty();
    }

    @Test
    void theSameActorWithAnotherSourceIsADistinctSignalButADifferentValueIsNot() {
        s.given(set(AGENT, "tone", "casual", "chat", Confidence.MEDIUM));
        s.given(set(OTHER_AGENT, "tone", "formal", "chat", Confidence.MEDIUM));
        assertThat(value("tone")).isNull();

        s.given(set(AGENT, "tone", "casual", "email", Confidence.MEDIUM));

        assertThat(value("tone")).isEqualTo("casual");
        assertThat(governance().getPending())
                .as("the other value of the field is dropped")
                .isEmpty();
    }

    @Test
    void tomWithHighConfidenceAppliesABenignValueAtOnce() {
        Decision d = s.when(set(TOM, "goals_add", "run a marathon", "tom", Confidence.HIGH));

        assertThat(payloads(d))
                .singleElement()
                .isInstanceOfSatisfying(
                        ProfileFieldSet.class,
                        f -> assertThat(f.getAppliedBy()).isEqualTo(ProfileApplyReason.TOM_HIGH_CONFIDENCE));
        assertThat(payloads(s.when(set(TOM, "goals_add", "run a marathon", "tom", Confidence.MEDIUM))))
                .singleElement()
                .isInstanceOf(ProfileSignalRecorded.class);
        assertThat(payloads(s.when(set(TOM, "city", "Lisbon", "tom", Confidence.HIGH))))
                .as("sensitive even from ToM")
                .singleElement()
                .isInstanceOf(ConsentRequested.class);
    }

    // ---------------------------------------------------------------- critical blocks

    private io.memorychain.avro.MemoryRequest block(Actor actor, String label, String content) {
        return s.request(
                        actor,
                        UpdateBlock.newBuilder()
                                .setLabel(label)
                                .setContent(content)
                                .build())
                .build();
    }

    @Test
    void anAgentsEditOfACriticalBlockAppliesAndRaisesExactlyOneAlert() {
        Decision d = s.when(block(AGENT, "persona", "I am terse."));

        assertThat(payloads(d)).hasSize(2);
        assertThat(payloads(d).get(0)).isInstanceOf(BlockUpdated.class);
        assertThat(payloads(d).get(1)).isInstanceOfSatisfying(CriticalChangeAlerted.class, a -> {
            assertThat(a.getLabel()).isEqualTo("persona");
            assertThat(a.getVersion()).isEqualTo(1);
            assertThat(a.getChangeSeq()).isEqualTo(1);
            assertThat(a.getChangeActor()).isEqualTo(AGENT);
            assertThat(a.getAlertId()).isEqualTo(MemoryIds.alert(SPACE, 2));
        });
        Decision.Accept last = ((Decision.AcceptAll) d).events().get(1);
        assertThat(last.memoryId()).as("the outcome still names the block").isEqualTo(MemoryIds.of(SPACE, 1));
        assertThat(last.actor().getType()).isEqualTo(ActorType.SYSTEM);

        s.given(block(AGENT, "persona", "I am terse."));
        assertThat(Governance.unacknowledged(governance()))
                .singleElement()
                .satisfies(a -> assertThat(a.getChangeSeq()).isEqualTo(1));
        assertThat(EventDescriptions.describe(s.events().get(1))).startsWith("CRITICAL: block persona v1");
    }

    @ParameterizedTest
    @MethodSource("defaultCriticalLabels")
    void everyDefaultCriticalLabelIsABlockLabelWhoseAgentEditRaisesAnAlert(String label) {
        assertThat(Rules.DEFAULT_BLOCK_LABELS).contains(label);
        assertThat(payloads(s.when(block(AGENT, label, "changed by the agent"))))
                .hasSize(2)
                .last()
                .isInstanceOfSatisfying(
                        CriticalChangeAlerted.class,
                        a -> assertThat(a.getLabel()).isEqualTo(label));
    }

    static Stream<String> defaultCriticalLabels() {
        return GovernancePolicy.DEFAULT_CRITICAL_LABELS.stream().sorted();
    }

    @Test
    void nonCriticalBlocksAndTheUsersOrAdminsEditsRaiseNoAlert() {
        assertThat(payloads(s.when(block(AGENT, "goals", "Ship"))))
                .singleElement()
                .isInstanceOf(BlockUpdated.class);
        assertThat(payloads(s.when(block(USER, "persona", "Kind"))))
                .singleElement()
                .isInstanceOf(BlockUpdated.class);
        assertThat(payloads(s.when(block(ADMIN, "critical", "Never lie"))))
                .singleElement()
                .isInstanceOf(BlockUpdated.class);
        assertThat(payloads(s.when(block(Scenario.WORKER, "critical", "x")))).hasSize(2);
    }

    @Test
    void anApprovedReflectionsChangeOfACriticalBlockRaisesNoAlert() {
        Actor reflect = Scenario.actor(ActorType.WORKER, "reflect");
        ReflectionDocument doc = ReflectionDocument.newBuilder()
                .setTrigger(ReflectionTrigger.MANUAL)
                .setNumber(1)
                .setFromSeq(0)
                .setToSeq(0)
                .setSummary("# Reflection")
                .setChanges(List.of(ReflectionChange.newBuilder()
                        .setChangeId("c1")
                        .setType(ReflectionChangeType.UPDATE_BLOCK)
                        .setLabel("persona")
                        .setContent("I am patient.")
                        .setReason("episodes")
                        .build()))
                .setOutputTokens(10)
                .setOutputTokenCap(8000)
                .build();
        String id = s.given(s.request(reflect, new ProposeReflection(doc)).build());

        Decision d = s.when(s.request(
                        AGENT,
                        DecideReflection.newBuilder()
                                .setReflectionId(id)
                                .setDecision(ReflectionDecisionType.APPROVE)
                                .setReason("ok")
                                .build())
                .build());

        assertThat(payloads(d)).hasSize(2).noneMatch(p -> p instanceof CriticalChangeAlerted);
    }

    @Test
    void acknowledgingClearsTheAlertAndASecondAcknowledgementIsRefused() {
        s.given(block(AGENT, "persona", "I am terse."));
        String alert = Governance.unacknowledged(governance()).get(0).getId();
        AcknowledgeAlert ack = new AcknowledgeAlert(alert, "intentional");

        rejected(s.when(s.request(AGENT, ack).build()), RejectionCode.FORBIDDEN);
        assertThat(payloads(s.when(s.request(USER, ack).build())))
                .singleElement()
                .isInstanceOf(AlertAcknowledged.class);
        s.given(s.request(USER, ack).build());

        assertThat(Governance.unacknowledged(governance())).isEmpty();
        rejected(s.when(s.request(ADMIN, ack).build()), RejectionCode.ALREADY_RESOLVED);
        rejected(
                s.when(s.request(USER, new AcknowledgeAlert("a0000099xxxx", null))
                        .build()),
                RejectionCode.NOT_FOUND);
        List<MemoryEvent> events = s.events();
        assertThat(events)
                .extracting(e -> e.getPayload().getClass().getSimpleName())
                .containsExactly("BlockUpdated", "CriticalChangeAlerted", "AlertAcknowledged");
    }
}
