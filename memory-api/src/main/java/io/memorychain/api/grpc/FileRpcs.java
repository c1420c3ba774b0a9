package io.memorychain.api.grpc;

import static io.memorychain.api.grpc.GrpcCalls.actor;
import static io.memorychain.api.grpc.GrpcCalls.context;

import io.memorychain.api.grpc.v1.FileContent;
import io.memorychain.api.grpc.v1.FileList;
import io.memorychain.api.grpc.v1.FileWriteResult;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.markdown.FileListJson;
import io.memorychain.api.markdown.FileWrite;
import io.memorychain.api.markdown.FileWriteJson;
import io.memorychain.api.markdown.MarkdownFile;
import io.memorychain.api.markdown.MarkdownFiles;
import io.memorychain.api.markdown.MarkdownPaths;
import io.memorychain.api.markdown.TextEdit;
import io.memorychain.api.request.Spaces;
import io.memorychain.api.write.WriteContext;
import jakarta.inject.Singleton;
import java.util.function.Function;

/** The Markdown view (REST {@code /files}). */
@Singleton
class FileRpcs implements GrpcFeature {

    private final MarkdownFiles files;
    private final ProtoJson proto;

    FileRpcs(MarkdownFiles files, ProtoJson proto) {
        this.files = files;
        this.proto = proto;
    }

    @Override
    public void bind(GrpcMethods m) {
        m.unary(
                        MemoryServiceGrpc.getListFilesMethod(),
                        r -> proto.fill(
                                        FileListJson.of(files.list(Spaces.require(r.getSpace()), actor())),
                                        FileList.newBuilder())
                                .build())
                .unary(MemoryServiceGrpc.getReadFileMethod(), r -> {
                    MarkdownFile file =
                            files.read(Spaces.require(r.getSpace()), actor(), MarkdownPaths.parse(r.getPath()));
                    return FileContent.newBuilder()
                            .setPath(file.path().toString())
                            .setText(file.text())
                            .setEtag(file.etag())
                            .build();
                })
                .unary(
                        MemoryServiceGrpc.getWriteFileMethod(),
                        r -> write(
                                r.getSpace(),
                                r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                                ctx -> files.write(
                                        ctx,
                                        MarkdownPaths.parse(r.getPath()),
                                        ProtoMapping.required(r.getText()),
                                        r.hasIfMatch() ? r.getIfMatch() : null)))
                .unary(
                        MemoryServiceGrpc.getPatchFileMethod(),
                        r -> write(
                                r.getSpace(),
                                r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                                ctx -> files.patch(
                                        ctx,
                                        MarkdownPaths.parse(r.getPath()),
                                        r.getEditsList().stream()
                                                .map(e -> new TextEdit(
                                                        ProtoMapping.required(e.getOldText()), e.getNewText()))
                                                .toList(),
                                        r.hasIfMatch() ? r.getIfMatch() : null)))
                .unary(
                        MemoryServiceGrpc.getAppendFileMethod(),
                        r -> write(
                                r.getSpace(),
                                r.hasIdempotencyKey() ? r.getIdempotencyKey() : null,
                                ctx -> files.append(
                                        ctx,
                                        MarkdownPaths.parse(r.getPath()),
                                        ProtoMapping.required(r.getText()),
                                        r.hasIfMatch() ? r.getIfMatch() : null)));
    }

    private FileWriteResult write(String space, String idempotencyKey, Function<WriteContext, FileWrite> op) {
        WriteContext ctx = context(space, idempotencyKey, null);
        return proto.fill(FileWriteJson.of(op.apply(ctx)), FileWriteResult.newBuilder())
                .setRequestId(ctx.requestId())
                .build();
    }
}
