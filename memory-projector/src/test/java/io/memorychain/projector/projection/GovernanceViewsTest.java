package io.memorychain.projector.projection;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.Confidence;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.ProfileApplyReason;
import io.memorychain.avro.view.AuditEntry;
import io.memorychain.avro.view.ConsentStatus;
import io.memorychain.avro.view.SpaceGovernance;
import io.memorychain.domain.governance.Governance;
import io.memorychain.events.Requests;
import io.memorychain.events.chain.ChainVerifier;
import io.memorychain.events.chain.SignatureMode;
import io.memorychain.projector.ChainHarness;
import io.memorychain.projector.ViewSnapshot;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Profile consent and critical-change alerts through the sequencer and the projection (docs/architecture.md §21). */
class GovernanceViewsTest {

    private static final String SPACE = "acme-main";
    private static final Actor AGENT = Requests.actor(ActorType.AGENT, "main");
    private static final Actor HELPER = Requests.actor(ActorType.AGENT, "helper");
    private static final Actor USER = Requests.actor(ActorType.USER, "ana");

    private final ChainHarness h = new ChainHarness();

    @AfterEach
    void close() {
        h.close();
    }

    private static MemoryOutcome accepted(MemoryOutcome o) {
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
        return o;
    }

    private SpaceGovernance view() {
        return h.views.governance(SPACE);
    }

    @Test
    void consentCorroborationAndAlertsAreOnTheChainAndInTheViews() {
        String consent = accepted(h.submit(Requests.setProfileField(
                        SPACE, AGENT, "preferred_name", "Annie", "chat", Confidence.HIGH, "she signed an email so")))
                .getMemoryId();
        assertThat(view().getFields()).isEmpty();
        assertThat(view().getConsents()).singleElement().satisfies(c -> {
            assertThat(c.getId()).isEqualTo(consent);
            assertThat(c.getStatus()).isEqualTo(ConsentStatus.PENDING);
            assertThat(c.getRequestedBy()).isEqualTo(AGENT);
        });
        accepted(h.submit(Requests.decideConsent(SPACE, USER, consent, true, "yes")));
        assertThat(Governance.field(view(), "preferred_name").orElseThrow().getValue())
                .isEqualTo("Annie");
        assertThat(view().getConsents().get(0).getStatus()).isEqualTo(ConsentStatus.GRANTED);
        assertThat(h.submit(Requests.decideConsent(SPACE, USER, consent, false, "no"))
                        .getCode())
                .isEqualTo("ALREADY_RESOLVED");

        accepted(h.submit(Requests.setProfileField(SPACE, AGENT, "tone", "casual", "chat", Confidence.MEDIUM, null)));
        assertThat(view().getPending()).hasSize(1);
        accepted(h.submit(Requests.setProfileField(SPACE, HELPER, "tone", "casual", "chat", Confidence.MEDIUM, null)));
        assertThat(Governance.field(view(), "tone").orElseThrow().getAppliedBy())
                .isEqualTo(ProfileApplyReason.CORROBORATED);
        assertThat(view().getPending()).isEmpty();

        MemoryOutcome edit = accepted(h.submit(Requests.block(SPACE, AGENT, "persona", "I am terse.")));
        assertThat(edit.getMemoryId()).as("the outcome names the block").startsWith("m");
        assertThat(Governance.unacknowledged(view())).singleElement().satisfies(a -> {
            assertThat(a.getLabel()).isEqualTo("persona");
            assertThat(a.getChangeActor()).isEqualTo(AGENT);
            assertThat(a.getBlockId()).isEqualTo(edit.getMemoryId());
        });
        accepted(h.submit(Requests.block(SPACE, USER, "persona", "I am kind.")));
        assertThat(view().getAlerts()).hasSize(1);
        String alert = view().getAlerts().get(0).getId();
        accepted(h.submit(Requests.acknowledgeAlert(SPACE, USER, alert, "intentional")));
        assertThat(Governance.unacknowledged(view())).isEmpty();
        assertThat(h.submit(Requests.acknowledgeAlert(SPACE, USER, alert, null)).getCode())
                .isEqualTo("ALREADY_RESOLVED");

        List<AuditEntry> audit = h.views.audit(SPACE, 0, 100);
        assertThat(audit)
                .extracting(AuditEntry::getEventType)
                .containsExactly(
                        "ConsentRequested",
                        "ConsentResolved",
                        "ProfileFieldSet",
                        "ProfileSignalRecorded",
                        "ProfileFieldSet",
                        "BlockUpdated",
                        "CriticalChangeAlerted",
                        "BlockUpdated",
                        "AlertAcknowledged");
        assertThat(audit.get(6).getActor()).isEqualTo(Requests.actor(ActorType.SYSTEM, "audit"));
        assertThat(audit.get(6).getMemoryIds()).as("found by the block").containsExactly(edit.getMemoryId());
        assertThat(audit.get(4).getDescription()).contains("corroborated", "agent:main/chat", "agent:helper/chat");

        ChainVerifier verifier = new ChainVerifier(SPACE, h.keys.publicRing(), SignatureMode.ALL);
        assertThat(h.chain()).allSatisfy(e -> assertThat(verifier.accept(e)).isTrue());
        try (ChainHarness fresh = new ChainHarness()) {
            for (MemoryEvent e : h.chain()) {
                fresh.replayIntoProjection(e);
            }
            SpaceGovernance replayed = fresh.views.governance(SPACE);
            // (Avro's equals cannot compare the optional timestamps of records inside arrays: compare their text)
            assertThat(replayed.toString()).isEqualTo(view().toString());
            assertThat(ViewSnapshot.of(fresh.views, SPACE)).isEqualTo(ViewSnapshot.of(h.views, SPACE));
        }
    }

    @Test
    void aGrantAfterTheWindowIsExpiredByTheRecordTime() {
        String consent = accepted(h.submit(
                        Requests.setProfileField(SPACE, AGENT, "city", "Porto", null, Confidence.MEDIUM, null)))
                .getMemoryId();
        h.now = h.now.plus(Duration.ofDays(7)).plusSeconds(1); // the sequencer's clock: the chain time of the decision

        MemoryOutcome late = h.submit(Requests.decideConsent(SPACE, USER, consent, true, null));

        assertThat(late.getAccepted()).isFalse();
        assertThat(late.getCode()).isEqualTo("EXPIRED");
        assertThat(view().getFields()).isEmpty();
        assertThat(view().getConsents().get(0).getStatus()).isEqualTo(ConsentStatus.PENDING);
    }
}
