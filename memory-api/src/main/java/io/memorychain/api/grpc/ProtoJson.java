package io.memorychain.api.grpc;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import com.google.protobuf.MessageOrBuilder;
import io.memorychain.api.error.ApiException;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import io.micronaut.json.tree.JsonNode;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Answers built from the REST response records by name: the record is serialised as REST serialises it, then each JSON
 * property fills the message field of the same name (memory_service.proto uses the REST names), nested records filling
 * nested messages. So a message cannot drift from its REST answer: a property the message lacks, or of another type,
 * fails loudly (and the parity tests with it) instead of being dropped. JSON nulls leave fields unset.
 */
@Singleton
class ProtoJson {

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
            throw new UncheckedIOException(
                    "Cannot serialise " + record.getClass().getSimpleName(), e);
        }
    }

    /**
     * The REST body record a request message stands for: the message's fields as JSON properties of the same names
     * (unset ones absent), bound with the record's strict rules. The inverse of {@link #fill}.
     */
    public <T> T record(MessageOrBuilder message, Class<T> type) {
        try {
            return json.readValue(json.writeValueAsBytes(properties(message)), Argument.of(type));
        } catch (IOException | RuntimeException e) {
            throw ApiException.invalid(
                    "invalid " + message.getDescriptorForType().getName() + ": "
                            + String.valueOf(e.getMessage()).lines().findFirst().orElse("malformed"));
        }
    }

    /** The message as the REST JSON: every field, except unset ones that have presence ({@code optional}, messages). */
    private static Map<String, Object> properties(MessageOrBuilder message) {
        Map<String, Object> properties = new LinkedHashMap<>();
        for (FieldDescriptor f : message.getDescriptorForType().getFields()) {
            Object value = message.getField(f);
            if (f.isMapField()) {
                Map<Object, Object> map = new LinkedHashMap<>();
                for (Object pair : (List<?>) value) {
                    Map<String, Object> entry = properties((MessageOrBuilder) pair);
                    map.put(entry.get("key"), entry.get("value"));
                }
                properties.put(f.getName(), map);
            } else if (f.isRepeated()) {
                properties.put(
                        f.getName(),
                        ((List<?>) value).stream().map(v -> plain(f, v)).toList());
            } else if (!f.hasPresence() || message.hasField(f)) {
                properties.put(f.getName(), plain(f, value));
            }
        }
        return properties;
    }

    private static Object plain(FieldDescriptor field, Object value) {
        return field.getJavaType() == FieldDescriptor.JavaType.MESSAGE ? properties((MessageOrBuilder) value) : value;
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
                throw new IllegalStateException(
                        type.getFullName() + " has no field for the REST property '" + property.getKey() + "'");
            }
            if (field.isMapField()) {
                for (Map.Entry<String, JsonNode> entry : value.entries()) {
                    Message.Builder pair = builder.newBuilderForField(field);
                    FieldDescriptor key = pair.getDescriptorForType().findFieldByName("key");
                    FieldDescriptor val = pair.getDescriptorForType().findFieldByName("value");
                    pair.setField(key, entry.getKey());
                    pair.setField(val, value(val, entry.getValue(), pair));
                    builder.addRepeatedField(field, pair.build());
                }
            } else if (field.isRepeated()) {
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
            throw new IllegalStateException(
                    field.getFullName() + " (" + field.getJavaType() + ") cannot hold the REST value " + value);
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
