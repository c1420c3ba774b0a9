package io.memorychain.api.contract;

import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Both transports' answers as the same plain shape, so a test can say "equal": a message becomes a map of its field
 * names (the REST JSON names), unset optional fields left out as JSON nulls are; integral numbers become longs and the
 * others doubles, whatever their wire type.
 */
public final class ProtoMaps {

    private ProtoMaps() {}

    /** A message (or a value of one of its fields) as maps, lists, strings, longs, doubles and booleans. */
    public static Object plain(Object value) {
        if (value instanceof Message m) {
            Map<String, Object> out = new TreeMap<>();
            for (FieldDescriptor f : m.getDescriptorForType().getFields()) {
                if (f.isMapField()) {
                    Map<String, Object> entries = new TreeMap<>();
                    for (Object entry : (List<?>) m.getField(f)) {
                        Map<?, ?> pair = (Map<?, ?>) plain(entry);
                        entries.put(String.valueOf(pair.get("key")), pair.get("value"));
                    }
                    out.put(f.getName(), entries);
                } else if (f.isRepeated()) {
                    out.put(
                            f.getName(),
                            ((List<?>) m.getField(f))
                                    .stream().map(ProtoMaps::plain).toList());
                } else if (!f.hasPresence() || m.hasField(f)) {
                    out.put(f.getName(), plain(m.getField(f)));
                }
            }
            return out;
        }
        if (value instanceof EnumValueDescriptor e) {
            return e.getName();
        }
        return number(value);
    }

    /** Parsed JSON in the same shape: null members left out, numbers normalised. */
    public static Object plainJson(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new TreeMap<>();
            map.forEach((k, v) -> {
                if (v != null) {
                    out.put((String) k, plainJson(v));
                }
            });
            return out;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(ProtoMaps::plainJson).toList();
        }
        return number(value);
    }

    /** A message as a map without some of its fields (those REST sends elsewhere, e.g. request_id as a header). */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> without(Message message, String... fields) {
        Map<String, Object> out = new TreeMap<>((Map<String, Object>) plain(message));
        for (String f : fields) {
            out.remove(f);
        }
        return out;
    }

    private static Object number(Object value) {
        if (value instanceof Integer
                || value instanceof Long
                || value instanceof Short
                || value instanceof BigInteger) {
            return ((Number) value).longValue();
        }
        if (value instanceof Float || value instanceof Double || value instanceof BigDecimal) {
            return ((Number) value).doubleValue();
        }
        return value;
    }
}
