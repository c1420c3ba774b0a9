package io.memorychain.projector;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.time.Clock;

/**
 * The projector's place in the module graph (docs/architecture.md §1, §14): it knows Kafka Streams, RocksDB and Lucene
 * but no web framework, and its views are pure functions of the log.
 */
@AnalyzeClasses(packages = "io.memorychain.projector", importOptions = ImportOption.DoNotIncludeTests.class)
class ProjectorArchitectureTest {

    @ArchTest
    static final ArchRule knowsNoWebFramework = noClasses()
            .that()
            .resideInAPackage("io.memorychain.projector..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.micronaut..", "io.grpc..", "io.memorychain.api..", "io.memorychain.worker..")
            .because("transports sit above the projector and call it, never the other way round");

    @ArchTest
    static final ArchRule viewsAreBuiltWithoutTheClock = noClasses()
            .that()
            .resideInAnyPackage("io.memorychain.projector.projection..", "io.memorychain.projector.view..")
            .should()
            .callMethod(System.class, "currentTimeMillis")
            .orShould()
            .callMethodWhere(target(name("now")))
            .orShould()
            .dependOnClassesThat()
            .areAssignableTo(Clock.class)
            .because("replaying the chain into fresh stores must give the same views");

    @ArchTest
    static final ArchRule onlyTheSequencerSealsEvents = noClasses()
            .that()
            .resideOutsideOfPackages("io.memorychain.projector.sequencer..")
            .and()
            .doNotHaveSimpleName("MemoryChainRuntime")
            .should()
            .dependOnClassesThat()
            .haveSimpleName("ChainSealer")
            .because("no code path but the sequencer may write the events topic (the runtime only hands it the keys)");
}
