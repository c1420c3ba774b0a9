package io.memorychain.api.mcp;

import static io.memorychain.api.mcp.Schemas.withSpace;
import static io.memorychain.api.mcp.Schemas.write;
import static io.memorychain.api.mcp.ToolArgs.flag;
import static io.memorychain.api.mcp.ToolArgs.optional;
import static io.memorychain.api.mcp.ToolArgs.text;

import io.memorychain.api.alerts.AlertService;
import io.memorychain.api.auth.Operation;
import io.memorychain.api.auth.Role;
import io.memorychain.api.profile.ProfileService;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The user's governance (docs/architecture.md §21): the profile, the consent requests only the user decides, and the
 * critical-change alerts a user or an admin acknowledges. Who may decide is the sequencer's rule, as over REST.
 */
@Singleton
class GovernanceToolset implements Toolset {

    private static final Set<Role> DECIDERS = Set.of(Role.AGENT, Role.USER, Role.ADMIN);

    private final ProfileService profiles;
    private final AlertService alerts;

    GovernanceToolset(ProfileService profiles, AlertService alerts) {
        this.profiles = profiles;
        this.alerts = alerts;
    }

    @Override
    public int order() {
        return 70;
    }

    @Override
    public List<MemoryTool> tools() {
        return new ToolList()
                .add(
                        "profile_get",
                        Operation.GET_PROFILE,
                        """
                The user profile: every field (preferred_name, pronouns, city, language, ...) with who set it and why, \
                and benign values waiting for a second signal; or one field.""",
                        withSpace().string("field", "Only this field", false),
                        READERS,
                        c -> {
                            String field = optional(c.arguments(), "field");
                            return field == null ? profiles.profile(c.space()) : profiles.field(c.space(), field);
                        })
                .add(
                        "profile_set",
                        Operation.SET_PROFILE_FIELD,
                        """
                Propose a profile field value you learned from the user. A sensitive field (preferred_name, pronouns, \
                city, language, ...) becomes a consent request the user decides (consent_decide); a benign one applies \
                once a second, distinct signal agrees. A user key applies it at once.""",
                        write().string("field", "The field name", true)
                                .string("value", "The new value", true)
                                .string("source", "Where it was seen (chat, ...)", false)
                                .enumeration("confidence", "Default medium", List.of("high", "medium", "low"), false)
                                .string("reason", "Why", false),
                        Set.of(Role.AGENT, Role.USER, Role.WORKER),
                        c -> {
                            Map<String, Object> a = c.arguments();
                            return profiles.answer(profiles.set(
                                    c.write(),
                                    text(a, "field"),
                                    text(a, "value"),
                                    optional(a, "source"),
                                    optional(a, "confidence"),
                                    optional(a, "reason")));
                        })
                .add(
                        "consent_list",
                        Operation.LIST_CONSENTS,
                        """
                Consent requests for sensitive profile changes, oldest first: pending ones await the user's decision \
                (consent_decide) and expire after 7 days.""",
                        withSpace()
                                .enumeration(
                                        "status",
                                        "Only these",
                                        List.of("pending", "granted", "denied", "expired"),
                                        false),
                        READERS,
                        c -> Map.of("items", profiles.consents(c.space(), optional(c.arguments(), "status"))))
                .add(
                        "consent_decide",
                        Operation.DECIDE_CONSENT,
                        """
                Record the user's decision on a consent request: grant=true applies the proposed value, false refuses \
                it. Only the user decides (other keys are refused FORBIDDEN); ask the user first.""",
                        write().string("id", "The consent request", true)
                                .bool("grant", "true applies the value, false refuses it")
                                .string("reason", "Why", false),
                        Set.of(Role.AGENT, Role.USER),
                        c -> profiles.decide(
                                c.write(),
                                text(c.arguments(), "id"),
                                flag(c.arguments(), "grant"),
                                optional(c.arguments(), "reason")))
                .add(
                        "alert_list",
                        Operation.LIST_ALERTS,
                        """
                Critical-change alerts: a change of a critical block (persona, critical) by someone other than the user, \
                an admin or an approved reflection. Oldest first; unacknowledged=true for the ones still shown.""",
                        withSpace().bool("unacknowledged", "Only the unacknowledged ones"),
                        Set.of(Role.AGENT, Role.SUBAGENT, Role.USER, Role.WORKER, Role.ADMIN),
                        c -> Map.of(
                                "items",
                                alerts.alerts(c.space(), Boolean.TRUE.equals(flag(c.arguments(), "unacknowledged")))))
                .add(
                        "alert_acknowledge",
                        Operation.ACKNOWLEDGE_ALERT,
                        """
                Acknowledge a critical-change alert once the user (or an admin) confirmed the change was intended. \
                Only users and admins may (agents are refused FORBIDDEN).""",
                        write().string("id", "The alert", true).string("reason", "Why, e.g. 'intentional'", false),
                        DECIDERS,
                        c -> alerts.acknowledge(
                                c.write(), text(c.arguments(), "id"), optional(c.arguments(), "reason")))
                .build();
    }
}
