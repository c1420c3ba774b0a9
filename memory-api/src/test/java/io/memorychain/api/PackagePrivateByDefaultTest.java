package io.memorychain.api;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.Map;

/**
 * Package-private by default (docs/architecture.md §22): a type of memory-api is public only when something outside its
 * package uses it, in this module's code or tests as ArchUnit sees them, or as {@link #PUBLIC_FOR} says (another
 * module, the console above all, which this module cannot see; or a use the class files do not show: an inlined
 * constant, a source annotation, a type only inferred). A new public type nobody outside uses fails here.
 */
@AnalyzeClasses(packages = "io.memorychain.api")
class PackagePrivateByDefaultTest {

    /** Public for a user this rule cannot see, and which. */
    static final Map<String, String> PUBLIC_FOR = Map.ofEntries(
            Map.entry("io.memorychain.api.alerts.AlertJson", "memory-console: the inbox lists alerts"),
            Map.entry(
                    "io.memorychain.api.audit.AuditPage",
                    "its fields are read by gRPC (ChainRpcs) and the console through AuditTimeline"),
            Map.entry("io.memorychain.api.audit.AuditTimeline", "memory-console: the audit pages"),
            Map.entry(
                    "io.memorychain.api.backend.StandbyReads",
                    "routing.SpaceRouting (reads of a standby; its constants are inlined)"),
            Map.entry("io.memorychain.api.chain.PublicKeysJson", "memory-console: the memory page (provenance)"),
            Map.entry(
                    "io.memorychain.api.erasure.ErasureProof",
                    "gRPC (MemoryRpcs) and memory-console: the erasure proof"),
            Map.entry(
                    "io.memorychain.api.error.ErrorAnswers",
                    "every controller (an annotation ArchUnit does not see in the class files)"),
            Map.entry("io.memorychain.api.health.HealthReport", "memory-console: the health page"),
            Map.entry("io.memorychain.api.health.SpaceHealth", "memory-console: the health page"),
            Map.entry(
                    "io.memorychain.api.history.AsOf",
                    "gRPC and retrieval (its parameter names are inlined constants)"),
            Map.entry(
                    "io.memorychain.api.messages.FactExtractor",
                    "health.WorkerMeters (the model purpose, an inlined constant)"),
            Map.entry(
                    "io.memorychain.api.messages.MessageJson",
                    "gRPC (MessageRpcs) and MCP (MessageToolset), through inferred types"),
            Map.entry(
                    "io.memorychain.api.messages.MessageRouter",
                    "health.WorkerMeters (the model purpose, an inlined constant)"),
            Map.entry("io.memorychain.api.profile.ConsentJson", "memory-console: the inbox (consent requests)"),
            Map.entry(
                    "io.memorychain.api.profile.ProfileJson",
                    "openapi.DeclaredAccessorJsonTest (by reflection) and gRPC through inferred types"),
            Map.entry(
                    "io.memorychain.api.proposals.FlaggedProposal",
                    "memory-console: the inbox (through inferred types)"),
            Map.entry(
                    "io.memorychain.api.refinement.Completion",
                    "gRPC (RefinementRpcs) and memory-jobs (its outcome names)"),
            Map.entry("io.memorychain.api.refinement.SessionView", "gRPC (RefinementRpcs), through inferred types"),
            Map.entry(
                    "io.memorychain.api.reflections.ReflectionLogJson",
                    "memory-console: the inbox (through inferred types)"),
            Map.entry("io.memorychain.api.relations.RelationJson", "memory-console: the memory page (links)"),
            Map.entry("io.memorychain.api.rollback.RollbackBody", "memory-console: the time machine"),
            Map.entry("io.memorychain.api.rollback.RollbackPlanJson", "memory-console: the time machine"),
            Map.entry(
                    "io.memorychain.api.routing.OwnerForwarder", "memory-console: forwards a page to the space owner"),
            Map.entry(
                    "io.memorychain.api.routing.RoutingHeaders",
                    "memory-console and the routing tests (header names, inlined constants)"),
            Map.entry("io.memorychain.api.spaces.KnownSpaces", "memory-console: the admin page"),
            Map.entry("io.memorychain.api.mcp.StdioBridge", "the launcher: its main method runs the MCP stdio bridge"),
            Map.entry(
                    "io.memorychain.api.memories.MemoryContradictions",
                    "a REST answer's schema in clients/openapi (the generated clients name it)"));

    @ArchTest
    static final ArchRule featureTypesArePublicOnlyWhenUsedOutsideTheirPackage = classes()
            .that()
            .resideInAPackage("io.memorychain.api.*..")
            .and()
            .areTopLevelClasses()
            .and()
            .arePublic()
            .should(beUsedOutsideTheirPackage())
            .because("what no other package uses is the package's own business");

    private static ArchCondition<JavaClass> beUsedOutsideTheirPackage() {
        return new ArchCondition<>("be used outside their package") {
            @Override
            public void check(JavaClass type, ConditionEvents events) {
                if (isTest(type) || isGenerated(type) || PUBLIC_FOR.containsKey(type.getName())) {
                    return;
                }
                boolean usedOutside = type.getDirectDependenciesToSelf().stream()
                        .map(Dependency::getOriginClass)
                        .anyMatch(origin -> !origin.getPackageName().equals(type.getPackageName()));
                if (!usedOutside) {
                    events.add(SimpleConditionEvent.violated(
                            type, type.getName() + " is public but used only in its package: make it package-private"));
                }
            }
        };
    }

    /** Micronaut's bean definitions and introspections ({@code $Name$Definition}), protobuf's messages. */
    private static boolean isGenerated(JavaClass type) {
        return type.getName().substring(type.getPackageName().length() + 1).startsWith("$")
                || type.getPackageName().startsWith("io.memorychain.api.grpc.v1");
    }

    private static boolean isTest(JavaClass type) {
        return type.getSource()
                .map(source -> source.getUri().toString().contains("/test-classes/"))
                .orElse(false);
    }
}
