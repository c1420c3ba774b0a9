package io.memorychain.worker;

import io.memorychain.avro.Actor;
import io.memorychain.avro.ActorType;
import io.memorychain.avro.MemoryDeleted;
import io.memorychain.avro.MemoryEvent;
import java.nio.ByteBuffer;
import java.time.Instant;

/**
 * Run in a child JVM by {@link WorkerMainIT}, without {@code -Dorg.apache.avro.SERIALIZABLE_PACKAGES}: with the
 * argument {@code allow} it first trusts the generated classes as {@link WorkerMain#main} does, then round-trips a
 * generated Avro class. Prints {@code decoded seq=N} on success; fails with Avro's SecurityException when the package
 * is not allowed.
 */
public final class AvroAllowListProbe {

    private AvroAllowListProbe() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("allow")) {
            io.memorychain.events.AvroTrust.install();
        }
        MemoryEvent event = MemoryEvent.newBuilder()
                .setSpace("probe")
                .setSeq(7)
                .setPrevHash(ByteBuffer.allocate(32))
                .setHash(ByteBuffer.allocate(0))
                .setSignature(ByteBuffer.allocate(0))
                .setKeyId("k")
                .setRequestId("r")
                .setActor(Actor.newBuilder()
                        .setType(ActorType.SYSTEM)
                        .setId("probe")
                        .build())
                .setOccurredAt(Instant.EPOCH)
                .setPayload(MemoryDeleted.newBuilder().setMemoryId("m1").build())
                .build();
        MemoryEvent decoded = MemoryEvent.getDecoder().decode(event.toByteBuffer());
        System.out.println("decoded seq=" + decoded.getSeq());
    }
}
