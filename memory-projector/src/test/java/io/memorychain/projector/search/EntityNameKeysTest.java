package io.memorychain.projector.search;

import static io.memorychain.projector.search.TestMemories.memory;
import static org.assertj.core.api.Assertions.assertThat;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryKind;
import io.memorychain.avro.MemoryState;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Entity resolution by name keys (docs/architecture.md §7, entity channel), and its lookup in the index. */
class EntityNameKeysTest {

    private static Memory entity(String content) {
        return memory("s", "e", content).setKind(MemoryKind.ENTITY).build();
    }

    private static boolean names(String query, String entityContent) {
        return EntityNameKeys.ofEntity(entity(entityContent)).stream()
                .anyMatch(EntityNameKeys.ofQuery(query)::contains);
    }

    @Test
    void anEntityAnswersToItsNameAndToEachDistinctiveWordOfIt() {
        assertThat(EntityNameKeys.ofEntity(entity("Alex Moreno — tech lead (entity: person)")))
                .containsExactlyInAnyOrder("alex moreno", "alex", "moreno");
        assertThat(EntityNameKeys.ofEntity(entity("Dr. Omar Haddad — practice owner (entity: person)")))
                .containsExactlyInAnyOrder("dr omar haddad", "omar", "haddad");
        assertThat(EntityNameKeys.ofEntity(entity("Critical Success Index (CSI) — hits / (hits + misses)")))
                .contains("critical success index", "csi");
        assertThat(EntityNameKeys.ofEntity(entity("Alex Romero (person)")))
                .containsExactlyInAnyOrder("alex romero", "alex", "romero");
        assertThat(EntityNameKeys.ofEntity(memory("s", "e", "long text")
                        .setSummary("Kestrel Foods")
                        .setKind(MemoryKind.ENTITY)
                        .build()))
                .contains("kestrel foods", "kestrel");
    }

    @Test
    void queriesNameEntitiesWhateverTheirCasePossessivesAndAccents() {
        String alex = "Alex Moreno — tech lead (entity: person)";
        assertThat(names("What database does Alex's project use?", alex)).isTrue();
        assertThat(names("what does alex moreno prefer", alex)).isTrue();
        assertThat(names("MORENO", alex)).isTrue();
        assertThat(names(
                        "Which provider do Hollis & Pratt Logistics' users sign in with?",
                        "Hollis & Pratt Logistics — freight forwarding company (entity: organization)"))
                .isTrue();
        assertThat(names("Which tickets did Tomas handle?", "Tomás Ibarra — Tier 2 support engineer"))
                .isTrue();
        assertThat(names("Who is Charles' manager?", "Charles Dunn — analyst")).isTrue();
        assertThat(names("What is Dana’s sister called?", "Dana Whitfield — the user"))
                .isTrue();
        assertThat(names("How is the CSI computed?", "Critical Success Index (CSI) — hits / (hits + misses)"))
                .isTrue();
    }

    @Test
    void commonWordsOfNamesAndPartsOfWordsNameNothing() {
        assertThat(names("which schools use single sign-on?", "Orchard Lane Schools — school district"))
                .isFalse();
        assertThat(names("Where can I park near the office?", "Jun Park — account executive"))
                .isFalse();
        assertThat(names("Who met the drainage engineer?", "Met Office Nimrod composite — UK radar"))
                .isFalse();
        assertThat(names("Did Leonard call?", "Leo — Dana's son")).isFalse();
        assertThat(names("Who is the person in charge?", "Alex Romero (person)"))
                .isFalse();
        assertThat(names("Dr. Haddad's clinics", "Dr. Omar Haddad — practice owner"))
                .isTrue();
        assertThat(names("Who else is a doctor, dr. who?", "Dr. Omar Haddad — practice owner"))
                .isFalse();
    }

    @Test
    void aCommonWordOfANameNamesItWhenCapitalisedInsideTheSentence() {
        assertThat(names("How often does the Met Office radar update?", "Met Office Nimrod composite — UK radar"))
                .isTrue();
        assertThat(names("Is Orchard Lane's plan up for renewal?", "Orchard Lane Schools — school district"))
                .isTrue();
        assertThat(names("Ask Park about pricing", "Jun Park — account executive"))
                .isTrue();
    }

    @Test
    void theIndexResolvesNamesToTheEntitiesOfTheSpaceOnly() {
        try (MemoryIndex index = MemoryIndex.inMemory(IndexSettings.DEFAULTS.withDimensions(4))) {
            index.upsert(entity("Alex Moreno — tech lead"), null);
            index.upsert(
                    memory("s", "fact", "Alex Moreno prefers trunk-based development")
                            .build(),
                    null);
            index.upsert(
                    memory("s", "gone", "Alex Green — former intern")
                            .setKind(MemoryKind.ENTITY)
                            .setState(MemoryState.SOFT_DELETED)
                            .build(),
                    null);
            index.upsert(
                    memory("other", "e2", "Alex Moreno — someone else")
                            .setKind(MemoryKind.ENTITY)
                            .build(),
                    null);
            index.upsert(
                    memory("s", "atlas", "Atlas — billing platform")
                            .setKind(MemoryKind.ENTITY)
                            .build(),
                    null);

            assertThat(index.namedEntities("s", EntityNameKeys.ofQuery("What does Alex's team use?"), 10))
                    .containsExactly("e", "gone");
            assertThat(index.namedEntities("s", EntityNameKeys.ofQuery("Which database does atlas use?"), 10))
                    .containsExactly("atlas");
            assertThat(index.namedEntities("s", EntityNameKeys.ofQuery("What does the team use?"), 10))
                    .isEmpty();
            assertThat(index.namedEntities("s", List.of(), 10)).isEmpty();
        }
    }
}
