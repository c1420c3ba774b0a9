package io.memorychain.events.serde;

import io.memorychain.events.AvroTrust;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.registry.SchemaRegistryUnavailableException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Avro serde for generated classes in Confluent wire format. Serializing registers the class's schema under the subject
 * {@code <topic>-value} (or {@code -key}) once per topic; deserializing resolves the writer schema by id and reads it
 * into the class's (reader) schema, so records written with an older or newer compatible schema read fine.
 */
public final class AvroWireSerde<T extends SpecificRecord> implements Serde<T>, Serializer<T>, Deserializer<T> {

    static {
        AvroTrust.install(); // every reader of our topics may instantiate the generated classes
    }

    /** Readers by writer schema (registries hand out one Schema instance per id); readers are thread-safe. */
    private static final Map<Schema, GenericDatumReader<GenericRecord>> GENERIC_READERS = new ConcurrentHashMap<>();

    private final SchemaRegistry registry;
    private final Schema readerSchema;
    private final String subjectSuffix;
    private final SpecificDatumWriter<T> writer;
    private final Map<String, Integer> idByTopic = new ConcurrentHashMap<>();
    private final Map<Integer, DatumReader<T>> readerByWriterId = new ConcurrentHashMap<>();
    private final UnaryOperator<T> afterRead;

    public AvroWireSerde(SchemaRegistry registry, Class<T> type, boolean isKey) {
        this(registry, SpecificData.get().getSchema(type), isKey ? "-key" : "-value", UnaryOperator.identity());
    }

    private AvroWireSerde(
            SchemaRegistry registry, Schema readerSchema, String subjectSuffix, UnaryOperator<T> afterRead) {
        this.registry = registry;
        this.readerSchema = readerSchema;
        this.subjectSuffix = subjectSuffix;
        this.writer = new SpecificDatumWriter<>(readerSchema);
        this.afterRead = afterRead;
    }

    /**
     * The same serde whose deserializer also applies {@code step} to each decoded value (e.g. decrypting the chain's
     * texts: {@code io.memorychain.events.content.ChainContent}). Exceptions of the step propagate as they are.
     */
    public AvroWireSerde<T> afterRead(UnaryOperator<T> step) {
        return new AvroWireSerde<>(registry, readerSchema, subjectSuffix, step);
    }

    public static <T extends SpecificRecord> AvroWireSerde<T> forValues(SchemaRegistry registry, Class<T> type) {
        return new AvroWireSerde<>(registry, type, false);
    }

    public Schema schema() {
        return readerSchema;
    }

    @Override
    public byte[] serialize(String topic, T data) {
        if (data == null) {
            return null;
        }
        int id = schemaIdFor(topic);
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        out.writeBytes(WireFormat.header(id));
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        try {
            writer.write(data, encoder);
            encoder.flush();
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("Cannot serialize " + readerSchema.getName() + " for " + topic, e);
        }
        return out.toByteArray();
    }

    @Override
    public T deserialize(String topic, byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        int id = WireFormat.schemaId(bytes);
        DatumReader<T> reader = readerFor(id, topic);
        T value;
        try {
            value = reader.read(
                    null,
                    DecoderFactory.get()
                            .binaryDecoder(bytes, WireFormat.HEADER_SIZE, bytes.length - WireFormat.HEADER_SIZE, null));
        } catch (IOException | RuntimeException e) {
            throw new SerializationException(
                    "Cannot deserialize " + readerSchema.getName() + " (schema id " + id + ") from " + topic, e);
        }
        return afterRead.apply(value);
    }

    /** Registry calls stay outside computeIfAbsent: a slow registry must not block the map for other keys. */
    private int schemaIdFor(String topic) {
        Integer id = idByTopic.get(topic);
        if (id == null) {
            try {
                id = registry.register(topic + subjectSuffix, readerSchema);
            } catch (SchemaRegistryUnavailableException e) {
                throw e;
            } catch (RuntimeException e) {
                throw new SerializationException("Cannot register " + readerSchema.getName() + " for " + topic, e);
            }
            idByTopic.put(topic, id);
        }
        return id;
    }

    private DatumReader<T> readerFor(int writerId, String topic) {
        DatumReader<T> reader = readerByWriterId.get(writerId);
        if (reader == null) {
            Schema writerSchema;
            try {
                writerSchema = registry.byId(writerId);
            } catch (SchemaRegistryUnavailableException e) {
                throw e;
            } catch (RuntimeException e) {
                throw new SerializationException("Unknown writer schema id " + writerId + " in " + topic, e);
            }
            reader = new SpecificDatumReader<>(writerSchema, readerSchema);
            readerByWriterId.put(writerId, reader);
        }
        return reader;
    }

    /** Decodes a framed record with its own writer schema, as written (used by the chain verifier). */
    public static GenericRecord decodeAsWritten(SchemaRegistry registry, byte[] bytes) {
        int id = WireFormat.schemaId(bytes);
        try {
            Schema writerSchema = registry.byId(id);
            return GENERIC_READERS
                    .computeIfAbsent(writerSchema, s -> new GenericDatumReader<>(s, s, GenericData.get()))
                    .read(
                            null,
                            DecoderFactory.get()
                                    .binaryDecoder(
                                            bytes,
                                            WireFormat.HEADER_SIZE,
                                            bytes.length - WireFormat.HEADER_SIZE,
                                            null));
        } catch (SchemaRegistryUnavailableException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("Cannot decode record with schema id " + id, e);
        }
    }

    @Override
    public Serializer<T> serializer() {
        return this;
    }

    @Override
    public Deserializer<T> deserializer() {
        return this;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {}

    @Override
    public void close() {}
}
