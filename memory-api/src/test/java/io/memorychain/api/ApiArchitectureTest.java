package io.memorychain.api;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.core.domain.properties.CanBeAnnotated.Predicates.annotatedWith;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.micronaut.http.annotation.Controller;

/**
 * Transports stay thin (docs/architecture.md §1): the REST controllers, the gRPC service and the MCP tools reach the
 * system through the read services and the backend, never through the projector's internals (its topologies, processors
 * and runtime), which only the backend and configuration wire up.
 */
@AnalyzeClasses(packages = "io.memorychain.api", importOptions = ImportOption.DoNotIncludeTests.class)
class ApiArchitectureTest {

    private static final String[] PROJECTOR_INTERNALS = {
        "io.memorychain.projector.sequencer..", "io.memorychain.projector.projection..",
        "io.memorychain.projector.linker..", "io.memorychain.projector.embedding..",
        "io.memorychain.projector.support..", "io.memorychain.projector.refinement.."
    };

    @ArchTest
    static final ArchRule transportsDoNotReachIntoTheProjector = noClasses()
            .that()
            .resideOutsideOfPackages(
                    "io.memorychain.api.backend..", "io.memorychain.api.config..", "io.memorychain.api.embedded..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(PROJECTOR_INTERNALS)
            .orShould()
            .dependOnClassesThat()
            .haveSimpleName("MemoryChainRuntime")
            .because("only the backend and its configuration wire the projector; transports call services");

    private static final String GRPC = "io.memorychain.api.grpc..";
    private static final String MCP = "io.memorychain.api.mcp..";

    /**
     * The backend runs the chain (broker, registry, keys, Streams applications, publishers, in-process workers) and
     * knows no feature: features reach it through its ports ({@code MemoryBackend}, {@code KafkaLog}) and keep their
     * own stores in their own factories. It may use configuration, the embedded broker and the TLS material only.
     */
    @ArchTest
    static final ArchRule backendKnowsNoFeature = noClasses()
            .that()
            .resideInAPackage("io.memorychain.api.backend..")
            .should()
            .dependOnClassesThat(resideInAPackage("io.memorychain.api..")
                    .and(resideOutsideOfPackages(
                            "io.memorychain.api.backend..",
                            "io.memorychain.api.config..",
                            "io.memorychain.api.embedded..",
                            "io.memorychain.api.tls..")))
            .because("a feature depends on the backend, never the other way round (docs/architecture.md §22)");

    @ArchTest
    static final ArchRule transportsDoNotRunJobs = noClasses()
            .that()
            .resideInAnyPackage(GRPC, MCP)
            .or()
            .areAnnotatedWith(Controller.class)
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.memorychain.jobs..")
            .because("the jobs run in-process through the backend's workers and the refinement agent, not a transport");

    @ArchTest
    static final ArchRule grpcCallsNoRestController = noClasses()
            .that()
            .resideInAPackage(GRPC)
            .should()
            .dependOnClassesThat()
            .areAnnotatedWith(Controller.class)
            .because("REST, gRPC and MCP are siblings over the same application services");

    @ArchTest
    static final ArchRule mcpCallsNoRestController = noClasses()
            .that()
            .resideInAPackage(MCP)
            .should()
            .dependOnClassesThat(resideOutsideOfPackage(MCP).and(annotatedWith(Controller.class)))
            .because("REST, gRPC and MCP are siblings over the same application services");

    @ArchTest
    static final ArchRule restCallsNeitherGrpcNorMcp = noClasses()
            .that()
            .areAnnotatedWith(Controller.class)
            .and()
            .resideOutsideOfPackage(MCP)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(GRPC, MCP)
            .because("REST, gRPC and MCP are siblings over the same application services");

    @ArchTest
    static final ArchRule adaptersComposeNoGrantsNorPointsInTime = noClasses()
            .that()
            .resideInAnyPackage(GRPC, MCP)
            .or()
            .areAnnotatedWith(Controller.class)
            .should()
            .dependOnClassesThat()
            .haveSimpleName("GrantedReads")
            .orShould()
            .dependOnClassesThat()
            .haveSimpleName("PointInTimeReads")
            .because("grant-audited and point-in-time reads are composed once, in the application layer "
                    + "(history.AsOfReads and the feature services); transports only translate");
}
