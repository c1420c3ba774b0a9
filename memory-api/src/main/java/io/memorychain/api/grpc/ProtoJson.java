package io.memorychain.api.grpc;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.micronaut.json.JsonMapper;
import io.micronaut.json.tree.JsonNode;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Answers built from the REST response records by name: the record is serialised as REST serialises it, then each
 * JSON property fills the message field of the same name (memory_service.proto uses the REST names), nested records
 * filling nested messages. So a message cannot drift from its REST answer: a property the message lacks, or of another
 * type, fails loudly (and the parity tests with it) instead of being dropped. JSON nulls leave fields unset.
 */
@Singleton
public class ProtoJson {

    private final JsonMapper json;

    public ProtoJson(JsonMapper json) {
        this.json = json;
    }

    /** {@code builder} filled with the REST answer {@code record} (to build, or to add what REST sends as headers). */
    public <B extends Message.Builder> B fill(Object record, B builder) {
        try {
            merge(json.writeValueToTree(record), builder);
            return builder;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot serialise " + record.getClass().getSimpleName(), e);
        }
    }

    private static Message.Builder merge(JsonNode object, Message.Builder builder) {
        Descriptor type = builder.getDescriptorForType();
        for (Map.Entry<String, JsonNode> property : object.entries()) {
            JsonNode value = property.getValue();
            if (value.isNull()) {
                continue;
            }
            FieldDescriptor field = type.findFieldByName(property.getKey());
            if (field == null) {
                throw new IllegalStateException(type.getFullName() + " has no field for the REST property '"
                        + property.getKey() + "'");
            }
            if (field.isRepeated()) {
                for (JsonNode element : value.values()) {
                    builder.addRepeatedField(field, value(field, element, builder));
                }
            } else {
                builder.setField(field, value(field, value, builder));
            }
        }
        return builder;
    }

    private static Object value(FieldDescriptor field, JsonNode value, Message.Builder parent) {
        boolean expected = switch (field.getJavaType()) {
            case MESSAGE -> value.isObject();
            case STRING -> value.isString();
            case BOOLEAN -> value.isBoolean();
            case INT, LONG, FLOAT, DOUBLE -> value.isNumber();
            default -> false;
        };
        if (!expected) {
            throw new IllegalStateException(field.getFullName() + " (" + field.getJavaType() + ") cannot hold the REST value "
                    + value);
        }
        return switch (field.getJavaType()) {
            case MESSAGE -> merge(value, parent.newBuilderForField(field)).build();
            case STRING -> value.getStringValue();
            case BOOLEAN -> value.getBooleanValue();
            case INT -> value.getIntValue();
            case LONG -> value.getLongValue();
            case FLOAT -> value.getFloatValue();
            default -> value.getDoubleValue();
        };
    }
}
