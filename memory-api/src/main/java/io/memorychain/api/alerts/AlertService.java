package io.memorychain.api.alerts;

import io.memorychain.api.backend.ChainReads;
import io.memorychain.api.error.ApiException;
import io.memorychain.api.request.PathIds;
import io.memorychain.api.request.Texts;
import io.memorychain.api.write.WriteContext;
import io.memorychain.api.write.WriteExecutor;
import io.memorychain.avro.AcknowledgeAlert;
import io.memorychain.avro.view.CriticalAlert;
import io.memorychain.domain.Rules;
import io.memorychain.domain.governance.Governance;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * Critical-change alerts (docs/architecture.md §21, seed 001 §12.5), transport-neutral: the list and the
 * acknowledgement (users and admins; the sequencer decides who may).
 */
@Singleton
public class AlertService {

    private final ChainReads backend;
    private final WriteExecutor writes;

    public AlertService(ChainReads backend, WriteExecutor writes) {
        this.backend = backend;
        this.writes = writes;
    }

    /** Oldest first; {@code unacknowledgedOnly} for the ones /context shows. */
    public List<AlertJson> alerts(String space, boolean unacknowledgedOnly) {
        List<CriticalAlert> all = unacknowledgedOnly
                ? Governance.unacknowledged(backend.views().governance(space))
                : backend.views().governance(space).getAlerts();
        return all.stream().map(AlertJson::of).toList();
    }

    /** 404 NOT_FOUND, 403 FORBIDDEN (not a user or an admin), 409 ALREADY_RESOLVED. */
    public AlertJson acknowledge(WriteContext ctx, String id, String reason) {
        if (reason != null && reason.length() > Rules.MAX_REASON) {
            throw ApiException.invalid("reason is at most " + Rules.MAX_REASON + " characters");
        }
        if (!PathIds.plausible(id)
                || Governance.alert(backend.views().governance(ctx.space()), id).isEmpty()) {
            throw ApiException.notFound("No alert '" + Texts.abbreviate(id) + "' in space " + ctx.space());
        }
        writes.apply(ctx, new AcknowledgeAlert(id, reason));
        return Governance.alert(backend.views().governance(ctx.space()), id)
                .map(AlertJson::of)
                .orElseThrow();
    }
}
