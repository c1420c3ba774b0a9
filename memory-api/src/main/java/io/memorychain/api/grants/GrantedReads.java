package io.memorychain.api.grants;

import io.memorychain.api.backend.ChainReads;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.error.ErrorCodes;
import io.memorychain.api.write.WriteContext;
import io.memorychain.api.write.WriteExecutor;
import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.RecordGrantRead;
import io.memorychain.avro.view.Grant;
import io.memorychain.domain.Grants;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The Mechanic's Exception on the read side (docs/architecture.md §13): the content reads an admin may make (GET
 * memory, list, query, export, the rollback dry run) answer only under a consented, unexpired, unrevoked grant of that
 * admin that covers every memory answered, checked against the wall clock ({@link ChainReads#clock()}) at read time;
 * otherwise 403 GRANT_REQUIRED. Each such read is first recorded on the chain ({@code RecordGrantRead} ->
 * {@code GrantedContentRead}, which the sequencer accepts only while the grant is usable at its own time), and only
 * then answered: no recorded read, no content. Every other reader passes through untouched.
 */
@Singleton
public class GrantedReads {

    private final ChainReads backend;
    private final WriteExecutor writes;

    public GrantedReads(ChainReads backend, WriteExecutor writes) {
        this.backend = backend;
        this.writes = writes;
    }

    /** Whether reads by this actor go through a grant (admins). */
    public static boolean needsGrant(Actor reader) {
        return reader != null && reader.getType() == ActorType.ADMIN;
    }

    /** The read's parameters for the audit: {@code name=value} of the non-null pairs, or null when none is set. */
    public static String detail(Object... namesAndValues) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i + 1 < namesAndValues.length; i += 2) {
            if (namesAndValues[i + 1] != null) {
                s.append(s.length() == 0 ? "" : " ")
                        .append(namesAndValues[i])
                        .append('=')
                        .append(namesAndValues[i + 1]);
            }
        }
        return s.length() == 0 ? null : s.toString();
    }

    /**
     * @param operation what is read, as recorded (get_memory, list_memories, query, export, rollback_plan)
     * @param detail the read's parameters, for the audit (no content)
     * @param read computes the answer (with the reader's rules, e.g. its category allowlist)
     * @param memoryIds the memories whose content the answer carries
     * @return the answer, once the read is on the chain (admins) or at once (everyone else)
     */
    public <T> T read(
            String space,
            Actor reader,
            String operation,
            String detail,
            Supplier<T> read,
            Function<T, Collection<String>> memoryIds) {
        return read(space, reader, operation, detail, false, read, memoryIds);
    }

    /**
     * A read whose answer may carry content of memories it does not name (a query's delta header): only a grant of the
     * whole space covers it.
     */
    public <T> T readWholeSpace(
            String space,
            Actor reader,
            String operation,
            String detail,
            Supplier<T> read,
            Function<T, Collection<String>> memoryIds) {
        return read(space, reader, operation, detail, true, read, memoryIds);
    }

    private <T> T read(
            String space,
            Actor reader,
            String operation,
            String detail,
            boolean wholeSpace,
            Supplier<T> read,
            Function<T, Collection<String>> memoryIds) {
        if (!needsGrant(reader)) {
            return read.get();
        }
        List<Grant> usable = usable(space, reader);
        if (usable.isEmpty()) {
            throw new ApiException(
                    ErrorCodes.GRANT_REQUIRED,
                    "admins read memory content only under a consented, "
                            + "unexpired grant of their own: POST /v1/spaces/" + space
                            + "/grants (purpose, duration), then "
                            + "the space's agent or user consents; " + reader.getId() + " has none usable in " + space);
        }
        T answer = read.get();
        Set<String> ids = new LinkedHashSet<>(memoryIds.apply(answer));
        Grant grant = covering(usable, ids, wholeSpace)
                .orElseThrow(
                        () -> new ApiException(
                                ErrorCodes.GRANT_REQUIRED,
                                "the grants of " + reader.getId() + " in " + space + " cover only some memories; this "
                                        + operation
                                        + (wholeSpace
                                                ? " needs a grant of the whole space"
                                                : " answers " + ids.size()
                                                        + " memories: ask for a grant of the whole space or of those memories")));
        record(space, reader, grant, operation, detail, ids);
        return answer;
    }

    /**
     * For an answer an admin gets anyway in a form without content (the rollback dry run): records the read when a
     * usable grant of the reader covers the memories and answers whether it did; false (show no content) without such a
     * grant or when the sequencer no longer accepts the read under it.
     */
    public boolean recordIfCovered(
            String space, Actor reader, String operation, String detail, Collection<String> memoryIds) {
        Set<String> ids = new LinkedHashSet<>(memoryIds);
        Optional<Grant> grant = covering(usable(space, reader), ids, false);
        if (grant.isEmpty()) {
            return false;
        }
        try {
            record(space, reader, grant.get(), operation, detail, ids);
            return true;
        } catch (ApiException e) {
            if (ErrorCodes.GRANT_REQUIRED.equals(e.code())) {
                return false;
            }
            throw e;
        }
    }

    private List<Grant> usable(String space, Actor reader) {
        Instant now = backend.clock().instant();
        List<Grant> usable = new ArrayList<>(backend.views().grants(space).stream()
                .filter(g -> g.getGrantee().equals(reader.getId()) && Grants.isUsable(g, now))
                .toList());
        usable.sort(Comparator.comparing((Grant g) -> !Grants.coversSpace(g)).thenComparing(Grant::getId));
        return usable;
    }

    private static Optional<Grant> covering(List<Grant> usable, Set<String> ids, boolean wholeSpace) {
        return usable.stream()
                .filter(g -> wholeSpace ? Grants.coversSpace(g) : Grants.covers(g, ids))
                .findFirst();
    }

    /** Records the read on the chain; 403 GRANT_REQUIRED when the sequencer no longer accepts it under the grant. */
    private void record(String space, Actor reader, Grant grant, String operation, String detail, Set<String> ids) {
        List<String> recorded = ids.stream().limit(Grants.MAX_IDS).toList();
        RecordGrantRead op = RecordGrantRead.newBuilder()
                .setGrantId(grant.getId())
                .setOperation(operation)
                .setMemoryIds(recorded)
                .setCount(ids.size())
                .setDetail(detail == null || detail.length() <= 2_000 ? detail : detail.substring(0, 2_000))
                .build();
        WriteContext ctx = new WriteContext(space, reader, "grant-read:" + UUID.randomUUID(), null, null);
        try {
            writes.apply(ctx, op);
        } catch (ApiException e) {
            if (ErrorCodes.INVALID_STATE.equals(e.code())
                    || ErrorCodes.FORBIDDEN.equals(e.code())
                    || ErrorCodes.NOT_FOUND.equals(e.code())) {
                throw new ApiException(
                        ErrorCodes.GRANT_REQUIRED,
                        "the read could not be recorded under grant " + grant.getId() + ": " + e.getMessage(),
                        e.requestId());
            }
            throw e;
        }
    }
}
