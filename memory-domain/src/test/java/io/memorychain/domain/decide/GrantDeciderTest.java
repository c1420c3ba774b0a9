package io.memorychain.domain.decide;

import static io.memorychain.domain.decide.Scenario.ADMIN;
import static io.memorychain.domain.decide.Scenario.AGENT;
import static io.memorychain.domain.decide.Scenario.SPACE;
import static io.memorychain.domain.decide.Scenario.WORKER;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.AccessGrantRequested;
import io.memorychain.avro.AccessGranted;
import io.memorychain.avro.AccessRevoked;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.ConsentGrant;
import io.memorychain.avro.CreateMemory;
import io.memorychain.avro.GrantedContentRead;
import io.memorychain.avro.RecordGrantRead;
import io.memorychain.avro.RequestGrant;
import io.memorychain.avro.RevokeGrant;
import io.memorychain.avro.view.Grant;
import io.memorychain.avro.view.GrantStatus;
import io.memorychain.domain.Grants;
import io.memorychain.domain.MemoryIds;
import io.memorychain.domain.RejectionCode;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Mechanic's Exception grants (docs/architecture.md §13): given/when/then over the pure write model. */
class GrantDeciderTest {

    private static final Actor USER = Scenario.actor(ActorType.USER, "ana");
    private static final Actor OTHER_ADMIN = Scenario.actor(ActorType.ADMIN, "ops");

    private final Scenario s = new Scenario();
    private String memory;
    private String other;

    @BeforeEach
    void memories() {
        memory = s.given(s.request(
                        AGENT,
                        CreateMemory.newBuilder()
                                .setContent("Ana's phone is 555-0101")
                                .build())
                .build());
        other = s.given(s.request(
                        AGENT,
                        CreateMemory.newBuilder().setContent("Ana likes tea").build())
                .build());
    }

    private static RequestGrant grant(long seconds, List<String> ids) {
        return RequestGrant.newBuilder()
                .setGrantee("root")
                .setPurpose("ticket 42: broken recall")
                .setDurationSeconds(seconds)
                .setMemoryIds(ids)
                .build();
    }

    private String requested(List<String> ids) {
        return s.given(s.request(ADMIN, grant(3600, ids)).build());
    }

    private String consented() {
        String id = requested(List.of());
        s.given(s.request(AGENT, new ConsentGrant(id)).build());
        return id;
    }

    private static RecordGrantRead read(String grant, List<String> ids) {
        return RecordGrantRead.newBuilder()
                .setGrantId(grant)
                .setOperation("get_memory")
                .setMemoryIds(ids)
                .setCount(ids.size())
                .build();
    }

    private static RejectionCode code(Decision d) {
        assertThat(d).isInstanceOf(Decision.Reject.class);
        return ((Decision.Reject) d).code();
    }

    @Test
    void anAdminRequestsAGrantWithPurposeAndBoundedDuration() {
        Decision d = s.when(s.request(ADMIN, grant(3600, List.of(memory))).build());

        assertThat(d).isInstanceOf(Decision.Accept.class);
        Decision.Accept accept = (Decision.Accept) d;
        AccessGrantRequested event = (AccessGrantRequested) accept.payload();
        assertThat(event.getGrantId()).isEqualTo(MemoryIds.grant(SPACE, 3)).isEqualTo(accept.memoryId());
        assertThat(event.getGrantee()).isEqualTo("root");
        assertThat(event.getMemoryIds()).containsExactly(memory);
    }

    @Test
    void onlyAdminsRequestGrants() {
        assertThat(code(s.when(s.request(AGENT, grant(60, List.of())).build()))).isEqualTo(RejectionCode.FORBIDDEN);
        assertThat(code(s.when(s.request(WORKER, grant(60, List.of())).build())))
                .isEqualTo(RejectionCode.FORBIDDEN);
    }

    @Test
    void rejectsAGrantWithoutPurposeOrBeyondTwentyFourHours() {
        RequestGrant noPurpose =
                RequestGrant.newBuilder(grant(60, List.of())).setPurpose(" ").build();
        assertThat(code(s.when(s.request(ADMIN, noPurpose).build()))).isEqualTo(RejectionCode.INVALID_ARGUMENT);
        assertThat(code(s.when(s.request(ADMIN, grant(86_401, List.of())).build())))
                .isEqualTo(RejectionCode.INVALID_ARGUMENT);
        assertThat(code(s.when(s.request(ADMIN, grant(0, List.of())).build())))
                .isEqualTo(RejectionCode.INVALID_ARGUMENT);
        assertThat(code(s.when(
                        s.request(ADMIN, grant(60, List.of("m0000001zzzz"))).build())))
                .isEqualTo(RejectionCode.INVALID_ARGUMENT);
    }

    @Test
    void theOwnerConsentsAndTheGrantExpiresAtConsentTimePlusDuration() {
        String id = requested(List.of());
        s.advance(Duration.ofMinutes(30));

        Decision d = s.when(s.request(USER, new ConsentGrant(id)).build());

        AccessGranted granted = (AccessGranted) ((Decision.Accept) d).payload();
        assertThat(granted.getExpiresAt()).isEqualTo(s.now().plusSeconds(3600));
    }

    @Test
    void neitherAdminsNorWorkersNorTheGranteeConsent() {
        String id = requested(List.of());

        assertThat(code(s.when(s.request(ADMIN, new ConsentGrant(id)).build()))).isEqualTo(RejectionCode.FORBIDDEN);
        assertThat(code(s.when(s.request(OTHER_ADMIN, new ConsentGrant(id)).build())))
                .isEqualTo(RejectionCode.FORBIDDEN);
        assertThat(code(s.when(s.request(WORKER, new ConsentGrant(id)).build())))
                .isEqualTo(RejectionCode.FORBIDDEN);
        Actor selfAsUser = Scenario.actor(ActorType.USER, "root");
        assertThat(code(s.when(s.request(selfAsUser, new ConsentGrant(id)).build())))
                .isEqualTo(RejectionCode.FORBIDDEN);
        assertThat(code(s.when(
                        s.request(AGENT, new ConsentGrant("g0000009zzzz")).build())))
                .isEqualTo(RejectionCode.NOT_FOUND);
    }

    @Test
    void aGrantIsConsentedOnce() {
        String id = consented();

        assertThat(code(s.when(s.request(USER, new ConsentGrant(id)).build())))
                .isEqualTo(RejectionCode.ALREADY_RESOLVED);
    }

    @Test
    void readsAreRecordedOnlyUnderAConsentedUnexpiredGrantByItsGrantee() {
        String pending = requested(List.of());
        assertThat(code(s.when(s.request(ADMIN, read(pending, List.of(memory))).build())))
                .isEqualTo(RejectionCode.INVALID_STATE);

        String id = consented();
        Decision ok = s.when(s.request(ADMIN, read(id, List.of(memory))).build());
        assertThat(((Decision.Accept) ok).payload()).isInstanceOf(GrantedContentRead.class);
        assertThat(code(s.when(s.request(OTHER_ADMIN, read(id, List.of(memory))).build())))
                .isEqualTo(RejectionCode.FORBIDDEN);

        s.advance(Duration.ofHours(1));
        assertThat(code(s.when(s.request(ADMIN, read(id, List.of(memory))).build())))
                .isEqualTo(RejectionCode.INVALID_STATE);
    }

    @Test
    void aMemoryScopedGrantCoversOnlyItsMemories() {
        String id = requested(List.of(memory));
        s.given(s.request(AGENT, new ConsentGrant(id)).build());

        assertThat(s.when(s.request(ADMIN, read(id, List.of(memory))).build())).isInstanceOf(Decision.Accept.class);
        assertThat(code(s.when(
                        s.request(ADMIN, read(id, List.of(memory, other))).build())))
                .isEqualTo(RejectionCode.FORBIDDEN);
    }

    @Test
    void theOwnerOrTheGranteeRevokesAndReadsStopAtOnce() {
        String id = consented();
        assertThat(code(s.when(s.request(OTHER_ADMIN, new RevokeGrant(id, "no")).build())))
                .isEqualTo(RejectionCode.FORBIDDEN);
        assertThat(s.when(s.request(ADMIN, new RevokeGrant(id, "done")).build()))
                .isInstanceOf(Decision.Accept.class);

        s.given(s.request(USER, new RevokeGrant(id, "enough")).build());

        assertThat(code(s.when(s.request(ADMIN, read(id, List.of(memory))).build())))
                .isEqualTo(RejectionCode.INVALID_STATE);
        assertThat(code(s.when(s.request(AGENT, new RevokeGrant(id, null)).build())))
                .isEqualTo(RejectionCode.ALREADY_RESOLVED);
        Grant grant = s.model().grant(SPACE, id);
        assertThat(grant.getStatus()).isEqualTo(GrantStatus.REVOKED);
        assertThat(grant.getRevokedBy()).isEqualTo(USER);
        assertThat(grant.getRevokeReason()).isEqualTo("enough");
    }

    @Test
    void thePendingGrantCanBeDeclinedAndAnExpiredOneIsNotRevoked() {
        String pending = requested(List.of());
        Decision declined =
                s.when(s.request(AGENT, new RevokeGrant(pending, "no")).build());
        assertThat(((Decision.Accept) declined).payload()).isInstanceOf(AccessRevoked.class);

        String id = consented();
        s.advance(Duration.ofHours(2));
        assertThat(code(s.when(s.request(AGENT, new RevokeGrant(id, null)).build())))
                .isEqualTo(RejectionCode.INVALID_STATE);
    }

    @Test
    void theGrantViewCountsReadsAndTheRuleChecksGranteeTimeAndScope() {
        String id = consented();
        s.given(s.request(ADMIN, read(id, List.of(memory))).build());
        s.given(s.request(ADMIN, read(id, List.of(other))).build());

        Grant grant = s.model().grant(SPACE, id);
        assertThat(grant.getStatus()).isEqualTo(GrantStatus.ACTIVE);
        assertThat(grant.getReads()).isEqualTo(2);
        assertThat(grant.getConsentedBy()).isEqualTo(AGENT);
        assertThat(Grants.allows(grant, "root", s.now(), List.of(memory))).isTrue();
        assertThat(Grants.allows(grant, "ops", s.now(), List.of(memory))).isFalse();
        assertThat(Grants.allows(grant, "root", grant.getExpiresAt(), List.of(memory)))
                .isFalse();
        assertThat(Grants.isExpired(grant, grant.getExpiresAt())).isTrue();
    }
}
