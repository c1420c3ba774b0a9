package io.memorychain.api.grpc;

import static io.memorychain.api.grpc.GrpcCalls.actor;

import io.memorychain.api.export.SpaceExport;
import io.memorychain.api.export.SpaceTransfer;
import io.memorychain.api.grpc.v1.ExportSpaceRequest;
import io.memorychain.api.grpc.v1.ExportedSpace;
import io.memorychain.api.grpc.v1.ImportResult;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import jakarta.inject.Singleton;

/** Export and import of a space (docs/architecture.md §13; REST {@code /export}, {@code /import}). */
@Singleton
class ExportRpcs implements GrpcFeature {

    private final SpaceTransfer transfer;
    private final ProtoJson proto;

    ExportRpcs(SpaceTransfer transfer, ProtoJson proto) {
        this.transfer = transfer;
        this.proto = proto;
    }

    @Override
    public void bind(GrpcMethods m) {
        m.unary(MemoryServiceGrpc.getExportSpaceMethod(), this::export)
                .unary(
                        MemoryServiceGrpc.getImportSpaceMethod(),
                        r -> proto.fill(
                                        transfer.importInto(
                                                r.getSpace(),
                                                actor(),
                                                r.hasExport() ? proto.record(r.getExport(), SpaceExport.class) : null),
                                        ImportResult.newBuilder())
                                .build());
    }

    private ExportedSpace export(ExportSpaceRequest r) {
        SpaceTransfer.Exported exported = transfer.exportRead(
                r.getSpace(), actor(), r.hasUserId() ? r.getUserId() : null, r.hasFormat() ? r.getFormat() : null);
        ExportedSpace.Builder answer = ExportedSpace.newBuilder();
        if (exported.markdown() != null) {
            return answer.setMarkdown(exported.markdown()).build();
        }
        return answer.setExport(proto.fill(exported.export(), io.memorychain.api.grpc.v1.SpaceExport.newBuilder()))
                .build();
    }
}
