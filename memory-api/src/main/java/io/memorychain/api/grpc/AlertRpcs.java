package io.memorychain.api.grpc;

import static io.memorychain.api.grpc.GrpcCalls.context;

import io.memorychain.api.alerts.AlertService;
import io.memorychain.api.grpc.v1.AlertList;
import io.memorychain.api.grpc.v1.CriticalAlert;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.request.Spaces;
import jakarta.inject.Singleton;
import java.util.Map;

/** Critical-change alerts (docs/architecture.md §21; REST {@code /alerts}). */
@Singleton
class AlertRpcs implements GrpcFeature {

    private final AlertService alerts;
    private final ProtoJson proto;

    AlertRpcs(AlertService alerts, ProtoJson proto) {
        this.alerts = alerts;
        this.proto = proto;
    }

    @Override
    public void bind(GrpcMethods m) {
        m.unary(
                        MemoryServiceGrpc.getListAlertsMethod(),
                        r -> proto.fill(
                                        Map.of(
                                                "items",
                                                alerts.alerts(Spaces.require(r.getSpace()), r.getUnacknowledged())),
                                        AlertList.newBuilder())
                                .build())
                .unary(
                        MemoryServiceGrpc.getAcknowledgeAlertMethod(),
                        r -> proto.fill(
                                        alerts.acknowledge(
                                                context(
                                                        r.getSpace(),
                                                        r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                                                        null),
                                                r.getId(),
                                                r.hasReason() ? r.getReason() : null),
                                        CriticalAlert.newBuilder())
                                .build());
    }
}
