package org.nearduplicate.orchestration.field;

import org.apache.lucene.index.IndexableField;
import org.apache.lucene.search.Query;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A {@code simhash} or {@code minhash} field as mapped, whatever the platform: what the fields of every method share,
 * written once so that they cannot drift apart. The object value {@code {"<value key>": ..., "algorithm": ...}} that
 * the method's processor writes and the refusal of a value made by another algorithm, the single value per document,
 * the fetched and displayed values. Each method adds its layout, its value codec ({@link #parseValue},
 * {@link #parseObjectValue}, {@link #decode}), its Lucene fields ({@link #fields}) and its term query. The platforms'
 * field mappers and field types only hand their parser, documents and contexts to it.
 *
 * @param <S> the method's parsed settings
 * @param <R> a value as read from the document, before the field's algorithm checked it
 * @param <V> a value as indexed
 */
public abstract class SketchField<S, R, V> {
    /** The mapping parameter and the key of object values naming the algorithm that made a value. */
    public static final String OBJECT_ALGORITHM = "algorithm";

    private final String name;
    private final SketchAlgorithms<S> algorithms;
    private final String algorithm;
    private final S settings;

    /** {@code settings}: what {@code algorithm} names, or null for an id this engine did not make. */
    protected SketchField(String name, SketchAlgorithms<S> algorithms, String algorithm, S settings) {
        this.name = Objects.requireNonNull(name);
        this.algorithms = algorithms;
        this.algorithm = Objects.requireNonNull(algorithm);
        this.settings = settings;
    }

    /** The field's full name, also the name of its Lucene field. */
    public final String name() {
        return name;
    }

    /** The field type's name ({@code simhash}, {@code minhash}). */
    public final String type() {
        return algorithms.type();
    }

    public final SketchAlgorithms<S> algorithms() {
        return algorithms;
    }

    /** The mapped algorithm id, canonical for this engine's ids. */
    public final String algorithm() {
        return algorithm;
    }

    /** The settings {@link #algorithm()} names, parsed when the mapping was built; null for an id this engine did not make. */
    public final S settings() {
        return settings;
    }

    /**
     * The pipeline change that makes this field's algorithm. After an upgrade that changes the default version, a
     * pipeline without {@code version} makes the new one, while indices of the earlier release keep theirs (README
     * "Upgrades").
     */
    public final String howToMatch() {
        if (settings == null) {
            return "Make the " + algorithms.valueKey() + "s with the field's algorithm"; // not one of this plugin's ids: made outside
        }
        return "Set [version] to "
            + algorithms.version().applyAsInt(settings)
            + " (and the field's other options) on the "
            + algorithms.type()
            + " processor that feeds it";
    }

    /**
     * The Lucene fields of the value at the reader's token (none for null). {@code indexed}: whether the document
     * already has a Lucene field of a name, as a second value of this field would have.
     */
    public final List<IndexableField> parseFields(ValueReader reader, Predicate<String> indexed) throws IOException {
        V value = parse(reader);
        if (value == null) {
            return List.of();
        }
        if (indexed.test(name)) {
            throw new IllegalArgumentException(
                "field [" + name + "] of type [" + type() + "] takes a single " + algorithms.valueKey() + " per document, got several"
            );
        }
        return fields(value);
    }

    /** The value at the reader's token, or null for {@code null}. */
    public final V parse(ValueReader reader) throws IOException {
        JsonToken token = reader.token();
        if (token == JsonToken.VALUE_NULL) {
            return null;
        }
        return token == JsonToken.START_OBJECT ? parseObject(reader) : checkBareValue(parseValue(reader));
    }

    /** {@code {"<valueKey>": ..., "algorithm": ...}}: the algorithm, when given, must be the field's. */
    private V parseObject(ValueReader reader) throws IOException {
        String valueKey = algorithms.valueKey();
        Set<String> extraKeys = extraKeys();
        Map<String, String> extras = new HashMap<>();
        R value = null;
        String given = null;
        String current = null;
        JsonToken token;
        while ((token = reader.nextToken()) != JsonToken.END_OBJECT) {
            if (token == JsonToken.FIELD_NAME) {
                current = reader.currentName();
            } else if (valueKey.equals(current)) {
                value = parseObjectValue(reader, token);
            } else if (OBJECT_ALGORITHM.equals(current) && token == JsonToken.VALUE_STRING) {
                given = reader.text();
            } else if (extraKeys.contains(current) && token == JsonToken.VALUE_STRING) {
                extras.put(current, reader.text());
            } else {
                throw unexpectedKey(current, token);
            }
        }
        if (value == null) {
            throw new IllegalArgumentException("object value is missing [" + valueKey + "]");
        }
        if (given != null && accepts(given) == false) {
            throw new IllegalArgumentException(
                valueKey
                    + " was made with algorithm ["
                    + given
                    + "] but the field is mapped with algorithm ["
                    + algorithm
                    + "]; "
                    + valueKey
                    + "s made differently cannot be compared. "
                    + howToMatch()
                    + ", or reindex into a field mapped with algorithm ["
                    + given
                    + "]"
            );
        }
        if (given != null) extras.put(OBJECT_ALGORITHM, given);
        return decode(value, extras);
    }

    /**
     * Whether a value made by algorithm {@code given} is one of this field's: the field's own id by default; a method
     * may also take ids whose values compare as its own (SimHash: the same sketch, with or without candidate keys).
     */
    protected boolean accepts(String given) {
        return given.equals(algorithm);
    }

    /** A value given as itself (not null, not an object), e.g. a fingerprint string. */
    protected abstract V parseValue(ValueReader reader) throws IOException;

    /** The value of an object value's {@code valueKey}, at {@code token}; {@link #decode}d once the object is read. */
    protected abstract R parseObjectValue(ValueReader reader, JsonToken token) throws IOException;

    /** The error for key {@code key} of an object value with a value at {@code token} that is not read. */
    protected abstract IllegalArgumentException unexpectedKey(String key, JsonToken token);

    /** An object value's value, once its algorithm is known to be the field's. */
    protected abstract V decode(R value);

    /**
     * Keys of the processor's object besides the value and the algorithm (strings, e.g. SimHash's {@code signature}),
     * read by {@link #decode(Object, Map)}; none by default.
     */
    protected Set<String> extraKeys() {
        return Set.of();
    }

    /**
     * An object value's value with its {@link #extraKeys()} found (absent keys are absent from the map) and, under
     * {@link #OBJECT_ALGORITHM}, the algorithm it names when it names one ({@link #accepts} took it).
     */
    protected V decode(R value, Map<String, String> extras) {
        return decode(value);
    }

    /** A value given as itself, checked for the field (e.g. that its algorithm needs nothing more); as is by default. */
    protected V checkBareValue(V value) {
        return value;
    }

    /** The Lucene fields of one value: its keys as terms and the value as doc values. */
    public abstract List<IndexableField> fields(V value);

    /**
     * The query of a term query on the field (the identical value).
     *
     * @throws IllegalArgumentException if {@code value} is no value of this field
     */
    public abstract Query termQuery(Object value);

    /**
     * Whether the field's doc values are 64-bit fingerprints: numeric doc values that sorts, aggregations and scripts
     * read as longs and that are shown as 16 hex digits.
     */
    public abstract boolean fingerprintDocValues();

    /** A value of the source (an object value's {@code valueKey} value, or null for none) as the {@code fields} option shows it. */
    public final Object fetched(Object sourceValue) {
        if (sourceValue instanceof Map<?, ?> map) {
            sourceValue = map.get(algorithms.valueKey());
        }
        return sourceValue == null ? null : fetchedValue(sourceValue);
    }

    /** A value of the source, not null, as the {@code fields} option shows it. */
    protected abstract Object fetchedValue(Object sourceValue);

    /** A doc value as shown to users; as is by default. */
    public Object displayed(Object value) {
        return value;
    }

    /** Refuses a {@code format} for the {@code fields} option: the field shows its values one way. */
    public final void checkNoFetchFormat(String format) {
        if (format != null) {
            throw new IllegalArgumentException("Field [" + name + "] of type [" + type() + "] doesn't support formats.");
        }
    }

    /** Refuses a custom doc value format or time zone: the field shows its doc values one way. */
    public final void checkNoDocValueFormat(String format, Object timeZone) {
        if (format != null) {
            throw new IllegalArgumentException("Field [" + name + "] of type [" + type() + "] does not support custom formats");
        }
        if (timeZone != null) {
            throw new IllegalArgumentException("Field [" + name + "] of type [" + type() + "] does not support custom time zones");
        }
    }
}
