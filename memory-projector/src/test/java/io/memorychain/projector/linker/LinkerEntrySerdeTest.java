package io.memorychain.projector.linker;

import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import org.junit.jupiter.api.Test;

class LinkerEntrySerdeTest {

    private final LinkerEntrySerde serde = new LinkerEntrySerde();

    private LinkerEntry roundTrip(LinkerEntry e) {
        return serde.deserialize("t", serde.serialize("t", e));
    }

    @Test
    void roundTripsAnEntryWithAVector() {
        LinkerEntry e =
                new LinkerEntry(MemoryKind.SEMANTIC, MemoryState.ACTIVE, "h1", "h1", 42, new float[] {0.6f, -0.8f});
        LinkerEntry back = roundTrip(e);
        assertThat(back.kind()).isEqualTo(MemoryKind.SEMANTIC);
        assertThat(back.state()).isEqualTo(MemoryState.ACTIVE);
        assertThat(back.contentHash()).isEqualTo("h1");
        assertThat(back.vectorSeq()).isEqualTo(42);
        assertThat(back.vector()).containsExactly(0.6f, -0.8f);
        assertThat(back.linkable()).isTrue();
    }

    @Test
    void roundTripsAPendingVectorAndAMemoryWithoutOne() {
        LinkerEntry pending = roundTrip(LinkerEntry.ofVector("h", 3, new float[] {1f}));
        assertThat(pending.kind()).isNull();
        assertThat(pending.state()).isNull();
        assertThat(pending.linkable()).isFalse();
        LinkerEntry bare = roundTrip(LinkerEntry.ofMemory(MemoryKind.EPISODIC, MemoryState.SOFT_DELETED, "é"));
        assertThat(bare.vector()).isNull();
        assertThat(bare.contentHash()).isEqualTo("é");
    }

    @Test
    void aVectorOfOlderContentDoesNotMakeTheMemoryLinkable() {
        LinkerEntry e = new LinkerEntry(MemoryKind.SEMANTIC, MemoryState.ACTIVE, "new", "old", 1, new float[] {1f});
        assertThat(e.linkable()).isFalse();
    }
}
