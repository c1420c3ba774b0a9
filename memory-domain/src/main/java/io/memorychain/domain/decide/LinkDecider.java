package io.memorychain.domain.decide;

import static io.memorychain.domain.RejectionCode.ALREADY_LINKED;
import static io.memorychain.domain.RejectionCode.INVALID_ARGUMENT;
import static io.memorychain.domain.RejectionCode.NOT_FOUND;
import static io.memorychain.domain.decide.Decision.reject;

import io.memorychain.avro.LinkMemories;
import io.memorychain.avro.MemoriesLinked;
import io.memorychain.avro.MemoriesUnlinked;
import io.memorychain.avro.UnlinkMemories;
import io.memorychain.domain.Relations;

/** LinkMemories and UnlinkMemories: typed relations between two memories of a space. */
final class LinkDecider {

    Decision link(DecideContext ctx, LinkMemories l) {
        if (!Relations.isValidType(l.getRelationType())) {
            return reject(INVALID_ARGUMENT, "relation_type must match " + Relations.TYPE_PATTERN.pattern());
        }
        if (!(l.getStrength() > 0 && l.getStrength() <= 1)) {
            return reject(INVALID_ARGUMENT, "strength must be in (0, 1], was " + l.getStrength());
        }
        if (l.getFromId().equals(l.getToId())) {
            return reject(INVALID_ARGUMENT, "a memory cannot be linked to itself");
        }
        DecideContext.Lookup from = ctx.active(l.getFromId());
        if (from.rejection() != null) {
            return from.rejection();
        }
        DecideContext.Lookup to = ctx.active(l.getToId());
        if (to.rejection() != null) {
            return to.rejection();
        }
        String existing = Relations.existing(
                (a, b) -> ctx.model().relation(ctx.space(), a, b), l.getFromId(), l.getToId(), l.getRelationType());
        if (existing != null) {
            return reject(
                    ALREADY_LINKED,
                    "memories " + l.getFromId() + " and " + l.getToId() + " are already linked (" + existing + ")");
        }
        return new Decision.Accept(
                new MemoriesLinked(l.getFromId(), l.getToId(), l.getRelationType(), l.getStrength()),
                l.getFromId(),
                from.memory().getVersion());
    }

    Decision unlink(DecideContext ctx, UnlinkMemories u) {
        DecideContext.Lookup from = ctx.existing(u.getFromId());
        if (from.rejection() != null) {
            return from.rejection();
        }
        String space = ctx.space();
        String type = ctx.model().relation(space, u.getFromId(), u.getToId());
        if (type != null) {
            return new Decision.Accept(
                    new MemoriesUnlinked(u.getFromId(), u.getToId(), type),
                    u.getFromId(),
                    from.memory().getVersion());
        }
        if (Relations.SYMMETRIC.equals(ctx.model().relation(space, u.getToId(), u.getFromId()))) {
            return new Decision.Accept(
                    new MemoriesUnlinked(u.getToId(), u.getFromId(), Relations.SYMMETRIC),
                    u.getFromId(),
                    from.memory().getVersion());
        }
        return reject(NOT_FOUND, "no relation from " + u.getFromId() + " to " + u.getToId());
    }
}
