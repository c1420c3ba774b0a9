package io.memorychain.domain;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.time.Clock;

/**
 * The write model sits at the bottom of the module graph (docs/architecture.md §1): it knows the Avro records and the
 * JDK, nothing above it, and decides without the clock so that the same requests on the same events always give the
 * same answer.
 */
@AnalyzeClasses(packages = "io.memorychain.domain", importOptions = ImportOption.DoNotIncludeTests.class)
class DomainArchitectureTest {

    @ArchTest
    static final ArchRule dependsOnNothingAboveIt = classes()
            .that()
            .resideInAPackage("io.memorychain.domain..")
            .should()
            .onlyDependOnClassesThat()
            .resideInAnyPackage(
                    "io.memorychain.domain..",
                    "io.memorychain.avro..",
                    "java..",
                    "org.apache.avro..",
                    "com.knuddels.jtokkit..")
            .because("the domain holds no Kafka, Micronaut, RocksDB or Lucene; transports and stores sit above it");

    @ArchTest
    static final ArchRule decidesWithoutTheClock = noClasses()
            .that()
            .resideInAPackage("io.memorychain.domain..")
            .should()
            .callMethod(System.class, "currentTimeMillis")
            .orShould()
            .callMethodWhere(target(name("now")))
            .orShould()
            .dependOnClassesThat()
            .areAssignableTo(Clock.class)
            .because("time comes in with the request (its received_at), so a replay decides the same way");
}
