package io.memorychain.console;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.core.domain.properties.CanBeAnnotated.Predicates.annotatedWith;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.micronaut.http.annotation.Controller;

/**
 * The console is one more transport (docs/architecture.md §23): it calls the application services of memory-api and
 * holds no business rule, so it reaches neither the domain, the projector, the backend (views, publisher), the write
 * path below the services, Kafka, nor the REST controllers.
 */
@AnalyzeClasses(packages = "io.memorychain.console", importOptions = ImportOption.DoNotIncludeTests.class)
class ConsoleArchitectureTest {

    @ArchTest
    static final ArchRule noDomainProjectorOrBackend = noClasses()
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "io.memorychain.domain..",
                    "io.memorychain.projector..",
                    "io.memorychain.api.backend..",
                    "io.memorychain.events..",
                    "io.memorychain.api.embedded..",
                    "org.apache.kafka..")
            .because("the console calls the application services, as REST, gRPC and MCP do");

    @ArchTest
    static final ArchRule noDirectPublishing = noClasses()
            .should()
            .dependOnClassesThat()
            .haveSimpleName("WriteExecutor")
            .orShould()
            .dependOnClassesThat()
            .haveSimpleName("MemoryPublisher")
            .orShould()
            .dependOnClassesThat()
            .haveSimpleNameStartingWith("MemoryRequest")
            .because("changes go through the application services, which validate and publish them");

    @ArchTest
    static final ArchRule noRestControllers = noClasses()
            .should()
            .dependOnClassesThat(
                    resideOutsideOfPackage("io.memorychain.console..").and(annotatedWith(Controller.class)))
            .because("REST and the console are siblings over the same application services");

    @ArchTest
    static final ArchRule noGrantOrPointInTimeComposition = noClasses()
            .should()
            .dependOnClassesThat()
            .haveSimpleName("GrantedReads")
            .orShould()
            .dependOnClassesThat()
            .haveSimpleName("PointInTimeReads")
            .because(
                    "grant-audited and point-in-time reads are composed once (history.AsOfReads), for every transport");
}
