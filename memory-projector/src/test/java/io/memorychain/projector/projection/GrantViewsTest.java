package io.memorychain.projector.projection;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.ConsentGrant;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.avro.MemoryOutcome;
import io.memorychain.avro.RecordGrantRead;
import io.memorychain.avro.RequestGrant;
import io.memorychain.avro.RevokeGrant;
import io.memorychain.avro.view.AuditEntry;
import io.memorychain.avro.view.Grant;
import io.memorychain.avro.view.GrantRead;
import io.memorychain.avro.view.GrantStatus;
import io.memorychain.events.Requests;
import io.memorychain.events.chain.ChainVerifier;
import io.memorychain.events.chain.SignatureMode;
import io.memorychain.projector.ChainHarness;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Mechanic's Exception grants through the sequencer and the projection (docs/architecture.md §13). */
class GrantViewsTest {

    private static final String SPACE = "acme-main";
    private static final Actor AGENT = Requests.actor(ActorType.AGENT, "main");
    private static final Actor ADMIN = Requests.actor(ActorType.ADMIN, "root");

    private final ChainHarness h = new ChainHarness();

    @AfterEach
    void close() {
        h.close();
    }

    private MemoryOutcome accepted(MemoryOutcome o) {
        assertThat(o.getAccepted()).as(o.getMessage()).isTrue();
        return o;
    }

    private MemoryOutcome read(String grant, String memory) {
        return h.submit(Requests.request(
                SPACE,
                ADMIN,
                RecordGrantRead.newBuilder()
                        .setGrantId(grant)
                        .setOperation("get_memory")
                        .setMemoryIds(List.of(memory))
                        .setCount(1)
                        .build()));
    }

    @Test
    void aConsentedGrantRecordsItsReadsUntilItExpiresAndTheViewsReplay() {
        String memory = accepted(h.submit(Requests.create(SPACE, AGENT, "Ana's phone is 555-0101")))
                .getMemoryId();
        String id = accepted(h.submit(Requests.request(
                        SPACE,
                        ADMIN,
                        RequestGrant.newBuilder()
                                .setGrantee("root")
                                .setPurpose("ticket 42")
                                .setDurationSeconds(600)
                                .build())))
                .getMemoryId();
        assertThat(h.views.grant(SPACE, id).orElseThrow().getStatus()).isEqualTo(GrantStatus.PENDING);
        assertThat(read(id, memory).getCode()).isEqualTo("INVALID_STATE");

        accepted(h.submit(Requests.request(SPACE, AGENT, new ConsentGrant(id))));
        Grant active = h.views.grant(SPACE, id).orElseThrow();
        assertThat(active.getStatus()).isEqualTo(GrantStatus.ACTIVE);
        assertThat(active.getExpiresAt()).isEqualTo(active.getConsentedAt().plusSeconds(600));

        accepted(read(id, memory));
        h.now = h.now.plus(Duration.ofMinutes(11));
        assertThat(read(id, memory).getCode()).isEqualTo("INVALID_STATE");

        assertThat(h.views.grants(SPACE)).extracting(Grant::getId).containsExactly(id);
        assertThat(h.views.grant(SPACE, id).orElseThrow().getReads()).isEqualTo(1);
        List<GrantRead> reads = h.views.grantReads(SPACE, id);
        assertThat(reads).singleElement().satisfies(r -> {
            assertThat(r.getActor()).isEqualTo(ADMIN);
            assertThat(r.getMemoryIds()).containsExactly(memory);
            assertThat(r.getOperation()).isEqualTo("get_memory");
        });
        List<AuditEntry> audit = h.views.audit(SPACE, 0, 100);
        assertThat(audit)
                .extracting(AuditEntry::getEventType)
                .containsExactly("MemoryCreated", "AccessGrantRequested", "AccessGranted", "GrantedContentRead");

        ChainVerifier verifier = new ChainVerifier(SPACE, h.keys.publicRing(), SignatureMode.ALL);
        assertThat(h.chain()).allSatisfy(e -> assertThat(verifier.accept(e)).isTrue());
        try (ChainHarness fresh = new ChainHarness()) {
            for (MemoryEvent e : h.chain()) {
                fresh.replayIntoProjection(e);
            }
            assertThat(fresh.views.grants(SPACE)).isEqualTo(h.views.grants(SPACE));
            assertThat(fresh.views.grantReads(SPACE, id)).isEqualTo(reads);
        }
    }

    @Test
    void aRevokedGrantRecordsNoMoreReads() {
        String memory = accepted(h.submit(Requests.create(SPACE, AGENT, "Ana likes tea")))
                .getMemoryId();
        String id = accepted(h.submit(Requests.request(
                        SPACE,
                        ADMIN,
                        RequestGrant.newBuilder()
                                .setGrantee("root")
                                .setPurpose("ticket 43")
                                .setDurationSeconds(600)
                                .setMemoryIds(List.of(memory))
                                .build())))
                .getMemoryId();
        accepted(h.submit(Requests.request(SPACE, AGENT, new ConsentGrant(id))));
        accepted(h.submit(Requests.request(SPACE, AGENT, new RevokeGrant(id, "done"))));

        assertThat(read(id, memory).getCode()).isEqualTo("INVALID_STATE");
        assertThat(h.views.grant(SPACE, id).orElseThrow().getStatus()).isEqualTo(GrantStatus.REVOKED);
        assertThat(h.views.grantReads(SPACE, id)).isEmpty();
    }
}
