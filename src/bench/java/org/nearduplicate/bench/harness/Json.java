package org.nearduplicate.bench.harness;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON of the node's answers and of the results' raw files, through Jackson's streaming API: objects become
 * {@code LinkedHashMap}s (the node's key order), arrays {@code ArrayList}s, integers {@code Long} (or
 * {@code BigInteger} past 64 bits), other numbers {@code Double}.
 */
public final class Json {
    private static final JsonFactory FACTORY = new JsonFactory();

    private Json() {}

    public static Object parse(String s) {
        try (JsonParser p = FACTORY.createParser(s)) {
            p.nextToken();
            return value(p);
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + s.substring(0, Math.min(200, s.length())), e);
        }
    }

    /** The object {@code s} holds. */
    public static Map<?, ?> map(String s) {
        return (Map<?, ?>) parse(s);
    }

    /** The object at {@code path} (keys, outermost first) below {@code m}, or null where a key is missing. */
    public static Map<?, ?> at(Map<?, ?> m, String... path) {
        Map<?, ?> at = m;
        for (String key : path) {
            if (at == null) return null;
            at = (Map<?, ?>) at.get(key);
        }
        return at;
    }

    /** The number under {@code key} as a long; 0 where there is none. */
    public static long num(Map<?, ?> m, String key) {
        Object o = m == null ? null : m.get(key);
        return o instanceof Number n ? n.longValue() : 0;
    }

    private static Object value(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT -> {
                Map<String, Object> m = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    p.nextToken();
                    m.put(key, value(p));
                }
                return m;
            }
            case START_ARRAY -> {
                List<Object> l = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY)
                    l.add(value(p));
                return l;
            }
            case VALUE_STRING -> {
                return p.getText();
            }
            case VALUE_NUMBER_INT -> {
                return p.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? p.getBigIntegerValue() : (Object) p.getLongValue();
            }
            case VALUE_NUMBER_FLOAT -> {
                return p.getDoubleValue();
            }
            case VALUE_TRUE -> {
                return true;
            }
            case VALUE_FALSE -> {
                return false;
            }
            case VALUE_NULL -> {
                return null;
            }
            default -> throw new IOException("unexpected " + t);
        }
    }

    /** {@code o} (maps, lists, strings, numbers, booleans, null) as compact JSON. */
    public static String write(Object o) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(w)) {
            write(o, g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }

    private static void write(Object o, JsonGenerator g) throws IOException {
        if (o == null) g.writeNull();
        else if (o instanceof String s) g.writeString(s);
        else if (o instanceof Map<?, ?> m) {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                g.writeFieldName(String.valueOf(e.getKey()));
                write(e.getValue(), g);
            }
            g.writeEndObject();
        } else if (o instanceof List<?> l) {
            g.writeStartArray();
            for (Object x : l)
                write(x, g);
            g.writeEndArray();
        } else if (o instanceof Boolean b) g.writeBoolean(b);
        else if (o instanceof Number) g.writeRawValue(o.toString());
        else g.writeString(o.toString());
    }
}
