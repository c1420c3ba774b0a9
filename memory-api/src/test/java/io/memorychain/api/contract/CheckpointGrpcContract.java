package io.memorychain.api.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.grpc.Status;
import io.memorychain.api.grpc.v1.AgentCheckpoint;
import io.memorychain.api.grpc.v1.AgentCheckpointPage;
import io.memorychain.api.grpc.v1.DeleteCheckpointsRequest;
import io.memorychain.api.grpc.v1.GetCheckpointRequest;
import io.memorychain.api.grpc.v1.ListCheckpointsRequest;
import io.memorychain.api.grpc.v1.SaveCheckpointRequest;
import io.micronaut.http.HttpRequest;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Agents' checkpoints over gRPC on the real service: saved and loaded with a Struct state, the same checkpoint over
 * REST, listed and deleted per thread, refused to another space's key and over the size limit with REST's codes. Run as
 * a nested class of a gRPC integration test, on that test's one service.
 */
public abstract class CheckpointGrpcContract {

    protected abstract GrpcRestParityContract parity();

    private static Struct state(String key, Value value) {
        return Struct.newBuilder().putFields(key, value).build();
    }

    @Test
    void savesLoadsListsAndDeletesOverGrpcAsOverRest() {
        GrpcRestParityContract p = parity();
        String space = GrpcRestParityContract.space();
        String thread = "t-" + UUID.randomUUID();
        Struct first = Struct.newBuilder()
                .putFields("step", Value.newBuilder().setNumberValue(1).build())
                .putFields("node", Value.newBuilder().setStringValue("plan").build())
                .build();
        AgentCheckpoint saved = p.grpc()
                .saveCheckpoint(SaveCheckpointRequest.newBuilder()
                        .setSpace(space)
                        .setUserId("u1")
                        .setThreadId(thread)
                        .setCheckpointId("c1")
                        .setState(first)
                        .build());
        assertThat(saved.getCheckpointId()).isEqualTo("c1");
        assertThat(saved.getState()).isEqualTo(first);
        assertThat(saved.getSavedBy()).isEqualTo("agent:api");
        p.grpc()
                .saveCheckpoint(SaveCheckpointRequest.newBuilder()
                        .setSpace(space)
                        .setUserId("u1")
                        .setThreadId(thread)
                        .setCheckpointId("c2")
                        .setParentId("c1")
                        .setState(state(
                                "step", Value.newBuilder().setNumberValue(2).build()))
                        .build());

        AgentCheckpoint latest = p.grpc()
                .getCheckpoint(GetCheckpointRequest.newBuilder()
                        .setSpace(space)
                        .setUserId("u1")
                        .setThreadId(thread)
                        .setCheckpointId("latest")
                        .build());
        assertThat(latest.getCheckpointId()).isEqualTo("c2");
        assertThat(latest.getParentId()).isEqualTo("c1");
        MemoryApiContract.Resp rest = p.rest(
                HttpRequest.GET("/v1/spaces/" + space + "/checkpoints/c1?user_id=u1&thread_id=" + thread),
                p.key(GrpcRestParityContract.AGENT));
        assertThat(rest.json()).containsEntry("state", Map.of("step", 1, "node", "plan"));

        AgentCheckpointPage page = p.grpc()
                .listCheckpoints(ListCheckpointsRequest.newBuilder()
                        .setSpace(space)
                        .setUserId("u1")
                        .setThreadId(thread)
                        .setLimit(1)
                        .build());
        assertThat(page.getItemsList())
                .extracting(AgentCheckpoint::getCheckpointId)
                .containsExactly("c2");
        assertThat(page.hasNextCursor()).isTrue();
        AgentCheckpointPage rest2 = p.grpc()
                .listCheckpoints(ListCheckpointsRequest.newBuilder()
                        .setSpace(space)
                        .setUserId("u1")
                        .setThreadId(thread)
                        .setCursor(page.getNextCursor())
                        .build());
        assertThat(rest2.getItemsList())
                .extracting(AgentCheckpoint::getCheckpointId)
                .containsExactly("c1");

        assertThat(p.grpc()
                        .deleteCheckpoints(DeleteCheckpointsRequest.newBuilder()
                                .setSpace(space)
                                .setUserId("u1")
                                .setThreadId(thread)
                                .build())
                        .getDeleted())
                .isEqualTo(2);
        GrpcFailure gone = GrpcRestParityContract.failure(() -> p.grpc()
                .getCheckpoint(GetCheckpointRequest.newBuilder()
                        .setSpace(space)
                        .setUserId("u1")
                        .setThreadId(thread)
                        .setCheckpointId("latest")
                        .build()));
        assertThat(gone.status()).isEqualTo(Status.Code.NOT_FOUND);
        assertThat(gone.code()).isEqualTo("NOT_FOUND");
    }

    @Test
    void refusesAnotherSpacesKeyAndAStateOverTheLimitWithRestsCodes() {
        GrpcRestParityContract p = parity();
        String mine = GrpcRestParityContract.space();
        String other = GrpcRestParityContract.space();
        String key = p.key("agent:cp-grpc", mine);
        SaveCheckpointRequest elsewhere = SaveCheckpointRequest.newBuilder()
                .setSpace(other)
                .setThreadId("t")
                .setState(state("x", Value.newBuilder().setNumberValue(1).build()))
                .build();
        GrpcFailure denied = GrpcRestParityContract.failure(() -> p.grpc(key).saveCheckpoint(elsewhere));
        assertThat(denied.status()).isEqualTo(Status.Code.PERMISSION_DENIED);
        assertThat(denied.code()).isEqualTo("SPACE_NOT_ALLOWED");

        SaveCheckpointRequest big = SaveCheckpointRequest.newBuilder()
                .setSpace(mine)
                .setThreadId("t")
                .setState(state(
                        "blob",
                        Value.newBuilder()
                                .setStringValue("x".repeat(600 * 1024))
                                .build()))
                .build();
        GrpcFailure tooLarge = GrpcRestParityContract.failure(() -> p.grpc(key).saveCheckpoint(big));
        assertThat(tooLarge.code()).isEqualTo("TOO_LARGE");
        GrpcFailure noThread = GrpcRestParityContract.failure(() -> p.grpc(key)
                .saveCheckpoint(SaveCheckpointRequest.newBuilder()
                        .setSpace(mine)
                        .setState(Struct.getDefaultInstance())
                        .build()));
        assertThat(noThread.status()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(noThread.code()).isEqualTo("INVALID_ARGUMENT");
    }
}
