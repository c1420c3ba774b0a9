package io.memorychain.events.content;

import io.memorychain.avro.Memory;
import io.memorychain.avro.MemoryEvent;
import io.memorychain.events.registry.SchemaRegistry;
import io.memorychain.events.serde.AvroWireSerde;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;

/**
 * The decrypting step every reader of {@code memory.events.v1} that needs text applies (docs/architecture.md §12,
 * erasure): the {@code enc1:} content, summary and tags of each memory snapshot in an event are decrypted with the
 * memory's data key; a memory whose key was destroyed reads as {@link #ERASED} (no summary, no tags). The other sealed
 * texts ({@link SealedTexts}: proposals, reflections, refinement summaries, reasons) are decrypted with their subject's
 * key, and read as {@link #ERASED} once it is destroyed. The chain verifier and the raw chain export do not use it:
 * they keep the ciphertext, which the hashes and signatures cover. {@link #PLAINTEXT} leaves events as they are
 * (topologies built without keys, e.g. in unit tests).
 */
public final class ChainContent {

    /** What an erased memory's content reads as (the same marker as {@code io.memorychain.domain.Purges.ERASED}). */
    public static final String ERASED = "[erased]";

    /** No keys: events pass unchanged. */
    public static final ChainContent PLAINTEXT = new ChainContent(null);

    private final DataKeys keys;

    private ChainContent(DataKeys keys) {
        this.keys = keys;
    }

    public static ChainContent decrypting(DataKeys keys) {
        return new ChainContent(java.util.Objects.requireNonNull(keys));
    }

    /** Whether this instance decrypts (false for {@link #PLAINTEXT}). */
    public boolean decrypts() {
        return keys != null;
    }

    /**
     * Decrypts the event's memory snapshots in place and returns it.
     *
     * @throws DataKeyUnavailableException when an encrypted text's memory has no key at all (never written by the
     *     sequencer: a broken invariant or a key topic that is not the chain's)
     */
    public MemoryEvent decrypt(MemoryEvent event) {
        if (keys != null && event != null) {
            forEachMemory(event.getPayload(), this::decrypt);
            if (SealedTexts.hasEncryptedText(event)) {
                String space = event.getSpace();
                SealedTexts.map(event, (subject, text) -> decryptText(space, subject, text));
            }
        }
        return event;
    }

    /**
     * One sealed text of a subject (docs/architecture.md §12, {@link SealedTexts}): plain text as it is, the decrypted
     * text, or {@link #ERASED} once the subject's key is destroyed.
     */
    private String decryptText(String space, String subject, String text) {
        if (!ContentCipher.isEncrypted(text)) {
            return text;
        }
        DataKey key = keys.find(space, subject);
        if (key == null) {
            throw new DataKeyUnavailableException("no data key for subject " + subject + " of space " + space);
        }
        if (key.erased()) {
            return ERASED;
        }
        return ContentCipher.decrypt(key.key(), ContentCipher.contentAad(space, subject), text);
    }

    /**
     * Encrypts the event's sealed texts ({@link SealedTexts}) in place, each under its subject's key as {@code keyOf}
     * gives it (the sequencer's step); a null key (the subject's key was destroyed) writes {@link #ERASED} instead of
     * the text.
     */
    public static void encryptTexts(MemoryEvent event, java.util.function.Function<String, byte[]> keyOf) {
        String space = event.getSpace();
        SealedTexts.map(event, (subject, text) -> {
            byte[] key = keyOf.apply(subject);
            return key == null ? ERASED : ContentCipher.encrypt(key, ContentCipher.contentAad(space, subject), text);
        });
    }

    /** Decrypts one snapshot in place (null is left alone). */
    public Memory decrypt(Memory m) {
        if (keys == null || m == null || !hasEncryptedText(m)) {
            return m;
        }
        DataKey key = keys.find(m.getSpace(), m.getId());
        if (key == null) {
            throw new DataKeyUnavailableException("no data key for memory " + m.getId() + " of space " + m.getSpace());
        }
        if (key.erased()) {
            m.setContent(ERASED);
            m.setSummary(null);
            m.setTags(List.of());
            return m;
        }
        byte[] aad = ContentCipher.contentAad(m.getSpace(), m.getId());
        m.setContent(ContentCipher.decrypt(key.key(), aad, m.getContent()));
        m.setSummary(ContentCipher.decrypt(key.key(), aad, m.getSummary()));
        List<String> tags = new ArrayList<>(m.getTags().size());
        for (String tag : m.getTags()) {
            tags.add(ContentCipher.decrypt(key.key(), aad, tag));
        }
        m.setTags(tags);
        return m;
    }

    /** The events serde every text reader uses: it decodes, then decrypts ({@link #PLAINTEXT}: only decodes). */
    public AvroWireSerde<MemoryEvent> eventSerde(SchemaRegistry registry) {
        AvroWireSerde<MemoryEvent> serde = AvroWireSerde.forValues(registry, MemoryEvent.class);
        return keys == null ? serde : serde.afterRead(this::decrypt);
    }

    /** Encrypts one snapshot's content, summary and tags in place with the memory's data key (the sequencer's step). */
    public static Memory encrypt(Memory m, byte[] key) {
        byte[] aad = ContentCipher.contentAad(m.getSpace(), m.getId());
        m.setContent(ContentCipher.encrypt(key, aad, m.getContent()));
        m.setSummary(ContentCipher.encrypt(key, aad, m.getSummary()));
        List<String> tags = new ArrayList<>(m.getTags().size());
        for (String tag : m.getTags()) {
            tags.add(ContentCipher.encrypt(key, aad, tag));
        }
        m.setTags(tags);
        return m;
    }

    public static boolean hasEncryptedText(Memory m) {
        if (ContentCipher.isEncrypted(m.getContent()) || ContentCipher.isEncrypted(m.getSummary())) {
            return true;
        }
        for (String tag : m.getTags()) {
            if (ContentCipher.isEncrypted(tag)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Every memory snapshot inside a payload (any depth of records and arrays), in field order: created, updated
     * (before and after), consolidated, block updated, refinement journal, and whatever later versions add.
     */
    public static void forEachMemory(Object value, Consumer<Memory> action) {
        if (value instanceof Memory m) {
            action.accept(m);
        } else if (value instanceof SpecificRecord record) {
            List<Schema.Field> fields = record.getSchema().getFields();
            for (Schema.Field field : fields) {
                if (mayHoldMemory(field.schema())) {
                    forEachMemory(record.get(field.pos()), action);
                }
            }
        } else if (value instanceof List<?> list) {
            for (Object item : list) {
                forEachMemory(item, action);
            }
        }
    }

    private static boolean mayHoldMemory(Schema schema) {
        return switch (schema.getType()) {
            case RECORD, ARRAY, UNION -> true;
            default -> false;
        };
    }

    /** An encrypted text whose memory has no data key anywhere. */
    public static final class DataKeyUnavailableException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        public DataKeyUnavailableException(String message) {
            super(message);
        }
    }
}
