package io.memorychain.api.ops;

import io.memorychain.api.backend.MemoryBackend;
import io.memorychain.avro.OperationalEvent;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link OpsRecorder} that publishes to memory.ops.v1 through the backend, stamped with the backend's clock. */
@Singleton
public class BackendOpsRecorder implements OpsRecorder {

    private static final Logger log = LoggerFactory.getLogger(BackendOpsRecorder.class);

    private final MemoryBackend backend;

    public BackendOpsRecorder(MemoryBackend backend) {
        this.backend = backend;
    }

    @Override
    public void record(Op op) {
        try {
            backend.recordOp(OperationalEvent.newBuilder()
                    .setSpace(op.space())
                    .setActor(op.actor())
                    .setUserId(op.userId())
                    .setThreadId(op.threadId())
                    .setNode(op.node())
                    .setOp(op.op())
                    .setStatus(op.status())
                    .setCode(op.code())
                    .setMemoryId(op.memoryId())
                    .setCategory(op.category())
                    .setSim(op.sim())
                    .setSeq(null)
                    .setTs(backend.clock().instant())
                    .build());
        } catch (RuntimeException e) {
            log.warn(
                    "Operational event {}/{}/{} of space {} not recorded: {}",
                    op.node(),
                    op.op(),
                    op.status(),
                    op.space(),
                    e.toString());
        }
    }
}
