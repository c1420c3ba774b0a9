package io.memorychain.api.grpc;

import com.google.protobuf.ListValue;
import com.google.protobuf.NullValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.memorychain.api.checkpoints.Checkpoint;
import io.memorychain.api.checkpoints.CheckpointJson;
import io.memorychain.api.checkpoints.Checkpoints;
import io.memorychain.api.grpc.v1.AgentCheckpoint;
import io.memorychain.api.grpc.v1.AgentCheckpointPage;
import io.memorychain.api.grpc.v1.DeletedCheckpoints;
import io.memorychain.api.grpc.v1.MemoryServiceGrpc;
import io.memorychain.api.request.Spaces;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Agents' checkpoints (REST {@code /checkpoints}): state and metadata as {@code google.protobuf.Struct}. */
@Singleton
class CheckpointRpcs implements GrpcFeature {

    private final Checkpoints checkpoints;

    CheckpointRpcs(Checkpoints checkpoints) {
        this.checkpoints = checkpoints;
    }

    @Override
    public void bind(GrpcMethods m) {
        m.unary(
                        MemoryServiceGrpc.getSaveCheckpointMethod(),
                        r -> message(checkpoints.save(
                                Spaces.require(r.getSpace()),
                                GrpcCalls.actor(),
                                new Checkpoints.Draft(
                                        r.hasUserId() ? r.getUserId() : null,
                                        r.getThreadId(),
                                        r.hasCheckpointId() ? r.getCheckpointId() : null,
                                        r.hasParentId() ? r.getParentId() : null,
                                        r.hasState() ? map(r.getState()) : null,
                                        r.hasMetadata() ? map(r.getMetadata()) : null))))
                .unary(
                        MemoryServiceGrpc.getGetCheckpointMethod(),
                        r -> message(checkpoints.get(
                                Spaces.require(r.getSpace()),
                                r.hasUserId() ? r.getUserId() : null,
                                r.getThreadId(),
                                r.getCheckpointId())))
                .unary(MemoryServiceGrpc.getListCheckpointsMethod(), r -> {
                    Checkpoints.Page page = checkpoints.list(
                            Spaces.require(r.getSpace()),
                            r.hasUserId() ? r.getUserId() : null,
                            r.getThreadId(),
                            r.hasLimit() ? r.getLimit() : null,
                            r.hasCursor() ? r.getCursor() : null);
                    AgentCheckpointPage.Builder out = AgentCheckpointPage.newBuilder();
                    page.items().forEach(c -> out.addItems(message(c)));
                    if (page.nextCursor() != null) {
                        out.setNextCursor(page.nextCursor());
                    }
                    return out.build();
                })
                .unary(MemoryServiceGrpc.getDeleteCheckpointsMethod(), r -> {
                    String space = Spaces.require(r.getSpace());
                    String user = r.hasUserId() ? r.getUserId() : null;
                    int deleted = checkpoints.deleteThread(space, user, r.getThreadId());
                    return DeletedCheckpoints.newBuilder()
                            .setSpace(space)
                            .setUserId(user == null ? "" : user)
                            .setThreadId(r.getThreadId())
                            .setDeleted(deleted)
                            .build();
                });
    }

    private AgentCheckpoint message(Checkpoint c) {
        CheckpointJson j = CheckpointJson.of(c);
        AgentCheckpoint.Builder out = AgentCheckpoint.newBuilder()
                .setSpace(j.space())
                .setUserId(j.userId())
                .setThreadId(j.threadId())
                .setCheckpointId(j.checkpointId())
                .setState(struct(j.state()))
                .setMetadata(struct(j.metadata()))
                .setCreatedAt(j.createdAt())
                .setUpdatedAt(j.updatedAt())
                .setSavedBy(j.savedBy());
        if (j.parentId() != null) {
            out.setParentId(j.parentId());
        }
        return out.build();
    }

    private static Struct struct(Map<?, ?> object) {
        Struct.Builder builder = Struct.newBuilder();
        object.forEach((k, v) -> builder.putFields(String.valueOf(k), value(v)));
        return builder.build();
    }

    private static Value value(Object v) {
        if (v == null) {
            return Value.newBuilder().setNullValue(NullValue.NULL_VALUE).build();
        }
        if (v instanceof Map<?, ?> map) {
            return Value.newBuilder().setStructValue(struct(map)).build();
        }
        if (v instanceof List<?> list) {
            ListValue.Builder values = ListValue.newBuilder();
            list.forEach(x -> values.addValues(value(x)));
            return Value.newBuilder().setListValue(values).build();
        }
        if (v instanceof Number n) {
            return Value.newBuilder().setNumberValue(n.doubleValue()).build();
        }
        if (v instanceof Boolean b) {
            return Value.newBuilder().setBoolValue(b).build();
        }
        return Value.newBuilder().setStringValue(String.valueOf(v)).build();
    }

    /** A Struct as the JSON object REST takes; whole numbers (Struct has only doubles) become integers. */
    private static Map<String, Object> map(Struct struct) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<String, Value> e : struct.getFieldsMap().entrySet()) {
            out.put(e.getKey(), whole(ProtoMapping.plain(e.getValue())));
        }
        return out;
    }

    private static Object whole(Object v) {
        if (v instanceof Double d && d == Math.rint(d) && Math.abs(d) < 1e15) {
            return d.longValue();
        }
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, x) -> out.put(String.valueOf(k), whole(x)));
            return out;
        }
        if (v instanceof List<?> l) {
            return l.stream().map(CheckpointRpcs::whole).toList();
        }
        return v;
    }
}
