package io.memorychain.events.chain;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.registry.SchemaRegistryException;
import io.memorychain.events.registry.SchemaRegistryUnavailableException;
import io.memorychain.events.serde.AvroWireSerde;
import io.memorychain.events.serde.WireFormat;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.utils.Utils;

/**
 * Writes one space's chain as JSON Lines that anyone can verify without our Java code (docs/architecture.md §4, the
 * format in docs/chain-format.md, a verifier in {@code verifier/verify.mjs}). Line 1 is the header: the format name,
 * the space, the topic coordinates read, every writer schema the space's records use (full JSON, by schema id) and the
 * public keys; then one line per record of the space, in log order: {@code seq}, the record's topic {@code offset}, its
 * {@code schema_id}, {@code value} (base64 of the record value exactly as on the topic: Confluent wire format) and, for
 * reading only, the decoded {@code event} as JSON (bytes as hex, unions of named types wrapped in their short name). A
 * verifier must use {@code value} only.
 *
 * <p>Reads the space's partition twice up to the end offset taken at the start (read_committed, manual assignment, no
 * group): once to collect the schema ids for the header, once to write the events, so memory stays O(1) in the chain
 * length.
 */
public final class ChainExport {

    public static final String FORMAT = "memorychain-chain-export-v1";
    private static final JsonFactory JSON = new JsonFactory();

    /** Progress callback: records of the space written so far and the total to write. */
    @FunctionalInterface
    public interface Progress {
        void written(long done, long total);
    }

    /**
     * What was exported.
     *
     * @param events records of the space written (one line each)
     * @param headSeq the seq of the last decodable event, or 0 for none
     * @param schemas schema ids in the header
     */
    public record Summary(long events, long headSeq, int schemas) {}

    private final Map<String, Object> consumerConfig;
    private final String topic;
    private final SchemaRegistry registry;
    private final KeyRing keys;
    private final Clock clock;
    private final Duration stallTimeout;

    public ChainExport(
            Map<String, Object> consumerConfig, String topic, SchemaRegistry registry, KeyRing keys, Clock clock) {
        this.consumerConfig = Map.copyOf(consumerConfig);
        this.topic = Objects.requireNonNull(topic, "topic");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.keys = Objects.requireNonNull(keys, "keys");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.stallTimeout = Duration.ofMinutes(2);
    }

    /** Writes the export of {@code space} to {@code out} (not closed). */
    public Summary export(String space, OutputStream out, Progress progress) {
        Objects.requireNonNull(space, "space");
        byte[] keyBytes = space.getBytes(StandardCharsets.UTF_8);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic);
            if (infos == null || infos.isEmpty()) {
                throw new IllegalArgumentException("Topic " + topic + " does not exist");
            }
            TopicPartition tp = new TopicPartition(topic, Utils.toPositive(Utils.murmur2(keyBytes)) % infos.size());
            consumer.assign(List.of(tp));
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            TreeSet<Integer> schemaIds = new TreeSet<>();
            long[] total = {0};
            scan(consumer, tp, end, space, record -> {
                total[0]++;
                if (record.value() != null
                        && record.value().length >= WireFormat.HEADER_SIZE
                        && record.value()[0] == WireFormat.MAGIC) {
                    schemaIds.add(WireFormat.schemaId(record.value()));
                }
            });
            JsonGenerator json = JSON.createGenerator(out, JsonEncoding.UTF8);
            json.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
            writeHeader(json, space, tp, end, schemaIds, total[0]);
            long[] written = {0};
            long[] head = {0};
            scan(consumer, tp, end, space, record -> {
                try {
                    Long seq = writeEvent(json, record);
                    if (seq != null) {
                        head[0] = seq;
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                written[0]++;
                progress.written(written[0], total[0]);
            });
            json.flush();
            return new Summary(written[0], head[0], schemaIds.size());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the export of " + space, e);
        }
    }

    private void writeHeader(
            JsonGenerator json, String space, TopicPartition tp, long end, Collection<Integer> schemaIds, long events)
            throws IOException {
        json.writeStartObject();
        json.writeStringField("format", FORMAT);
        json.writeStringField("space", space);
        json.writeStringField("topic", tp.topic());
        json.writeNumberField("partition", tp.partition());
        json.writeNumberField("end_offset", end);
        json.writeNumberField("records", events);
        json.writeStringField("exported_at", clock.instant().toString());
        json.writeObjectFieldStart("schemas");
        for (int id : schemaIds) {
            try {
                String schema = registry.byId(id).toString();
                json.writeFieldName(Integer.toString(id));
                json.writeRawValue(schema);
            } catch (SchemaRegistryUnavailableException e) {
                throw e;
            } catch (SchemaRegistryException e) {
                // an unknown id: its records stay in the export and a verifier reports them as UNDECODABLE
            }
        }
        json.writeEndObject();
        json.writeArrayFieldStart("keys");
        for (Map.Entry<String, String> key : new TreeMap<>(keys.asHex()).entrySet()) {
            byte[] raw = HexFormat.of().parseHex(key.getValue());
            json.writeStartObject();
            json.writeStringField("key_id", key.getKey());
            json.writeStringField("algorithm", "Ed25519");
            json.writeStringField("public_key_hex", key.getValue());
            json.writeStringField("public_key_base64", Base64.getEncoder().encodeToString(raw));
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
        json.writeRaw('\n');
    }

    /** One record's line; returns its seq, or null when it cannot be decoded. */
    private Long writeEvent(JsonGenerator json, ConsumerRecord<byte[], byte[]> record) throws IOException {
        byte[] value = record.value();
        GenericRecord event = null;
        String error = null;
        if (value == null) {
            error = "null value (tombstone)";
        } else {
            try {
                event = AvroWireSerde.decodeAsWritten(registry, value);
            } catch (SchemaRegistryUnavailableException e) {
                throw e;
            } catch (SerializationException | SchemaRegistryException e) {
                error = String.valueOf(e.getMessage());
            }
        }
        Long seq = event != null && event.getSchema().getField("seq") != null && event.get("seq") instanceof Long s
                ? s
                : null;
        json.writeStartObject();
        if (seq != null) {
            json.writeNumberField("seq", seq);
        } else {
            json.writeNullField("seq");
        }
        json.writeNumberField("offset", record.offset());
        if (value != null && value.length >= WireFormat.HEADER_SIZE && value[0] == WireFormat.MAGIC) {
            json.writeNumberField("schema_id", WireFormat.schemaId(value));
        } else {
            json.writeNullField("schema_id");
        }
        if (value == null) {
            json.writeNullField("value");
        } else {
            json.writeStringField("value", Base64.getEncoder().encodeToString(value));
        }
        if (event != null) {
            json.writeFieldName("event");
            writeDatum(json, event.getSchema(), event);
        } else {
            json.writeStringField("error", error);
        }
        json.writeEndObject();
        json.writeRaw('\n');
        return seq;
    }

    /** The readable JSON of a decoded datum (not Avro's JSON encoding: bytes are hex, for people to read). */
    static void writeDatum(JsonGenerator json, Schema schema, Object datum) throws IOException {
        switch (schema.getType()) {
            case RECORD -> {
                IndexedRecord record = (IndexedRecord) datum;
                json.writeStartObject();
                for (Schema.Field field : schema.getFields()) {
                    json.writeFieldName(field.name());
                    writeDatum(json, field.schema(), record.get(field.pos()));
                }
                json.writeEndObject();
            }
            case UNION -> {
                Schema branch = schema.getTypes().get(GenericData.get().resolveUnion(schema, datum));
                if (branch.getType() == Schema.Type.RECORD) {
                    json.writeStartObject();
                    json.writeFieldName(branch.getName());
                    writeDatum(json, branch, datum);
                    json.writeEndObject();
                } else {
                    writeDatum(json, branch, datum);
                }
            }
            case ARRAY -> {
                json.writeStartArray();
                for (Object item : (Collection<?>) datum) {
                    writeDatum(json, schema.getElementType(), item);
                }
                json.writeEndArray();
            }
            case MAP -> {
                json.writeStartObject();
                for (Map.Entry<?, ?> entry : ((Map<?, ?>) datum).entrySet()) {
                    json.writeFieldName(String.valueOf(entry.getKey()));
                    writeDatum(json, schema.getValueType(), entry.getValue());
                }
                json.writeEndObject();
            }
            case BYTES -> json.writeString(HexFormat.of().formatHex(Canonical.toArray((ByteBuffer) datum)));
            case FIXED -> json.writeString(HexFormat.of().formatHex(((GenericData.Fixed) datum).bytes()));
            case STRING, ENUM -> json.writeString(String.valueOf(datum));
            case INT -> json.writeNumber((Integer) datum);
            case LONG -> json.writeNumber((Long) datum);
            case FLOAT -> writeFloating(json, ((Float) datum).doubleValue());
            case DOUBLE -> writeFloating(json, (Double) datum);
            case BOOLEAN -> json.writeBoolean((Boolean) datum);
            case NULL -> json.writeNull();
        }
    }

    private static void writeFloating(JsonGenerator json, double value) throws IOException {
        if (Double.isFinite(value)) {
            json.writeNumber(value);
        } else {
            json.writeString(Double.toString(value));
        }
    }

    @FunctionalInterface
    private interface RecordSink {
        void accept(ConsumerRecord<byte[], byte[]> record);
    }

    /** Reads the partition from its beginning to {@code end}, handing over the records keyed by {@code space}. */
    private void scan(
            KafkaConsumer<byte[], byte[]> consumer, TopicPartition tp, long end, String space, RecordSink sink) {
        consumer.seekToBeginning(List.of(tp));
        byte[] key = space.getBytes(StandardCharsets.UTF_8);
        long lastProgressAt = System.nanoTime();
        while (consumer.position(tp) < end) {
            var records = consumer.poll(Duration.ofMillis(200));
            for (ConsumerRecord<byte[], byte[]> record : records) {
                if (record.offset() < end && record.key() != null && Arrays.equals(record.key(), key)) {
                    sink.accept(record);
                }
            }
            if (!records.isEmpty()) {
                lastProgressAt = System.nanoTime();
            } else if (System.nanoTime() - lastProgressAt > stallTimeout.toNanos()) {
                throw new IllegalStateException("No records from " + tp + " for " + stallTimeout.toSeconds()
                        + " s while its end offset " + end + " has not been reached");
            }
        }
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        return ChainConsumers.reader(consumerConfig, "memory-chain-export-");
    }
}
