package org.nearduplicate.opensearch.index.query;

import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;

import org.nearduplicate.opensearch.sketching.SketchingService;

/**
 * The type of the sketch value a {@link Probe} is given (a SimHash fingerprint, a MinHash signature): how it is checked,
 * written, read, rendered and parsed, how the engine sketches a text with an algorithm, and how a {@code like}
 * document's stored value is read. One per method ({@code SimHashValueType}, {@code MinHashValueType}).
 * Public as the contract a method's probe builds on (each method lives in a package of its own).
 *
 * @param <V> the given value
 * @param <P> the method's probe
 */
public interface ProbeValueType<V, P extends Probe<V, P>> {
    /** The probe of {@code value} (null for a like, text or html probe) and {@code input}; checks both. */
    P create(V value, ProbeInput input);

    /** The request keys of the value, e.g. {@code fingerprint}; the first names the value in errors. */
    String[] valueKeys();

    /** How many of the {@link #valueKeys} a (non-null) value was given with: more than one is refused. */
    int givenKeys(V value);

    /**
     * Checks a value beyond its count of keys, e.g. that a signature is base64.
     *
     * @throws IllegalArgumentException if it is invalid
     */
    void check(V value);

    /** Reads what {@link #write} wrote: the value or null. */
    V read(StreamInput in) throws IOException;

    /** Writes the value, which may be null. */
    void write(StreamOutput out, V value) throws IOException;

    /** Writes the value's keys into the enclosing object. */
    void toXContent(XContentBuilder builder, V value) throws IOException;

    /** Collects the value's keys while an enclosing object is parsed. */
    ValueParser<V> parser();

    /** How the value reads in logs and profiles. */
    String describe(V value);

    /** The mapping type of the target field, e.g. {@code simhash}. */
    String fieldType();

    /** Sketches a text/html probe with the engine and {@code algorithm} (on the coordinating node). */
    V sketch(SketchingService sketching, String algorithm, String content, SketchingService.ProbeContent type);

    /** The keys of the ingest processor's object in {@code _source}: the value's and the algorithm's. */
    String storedValueKey();

    String storedAlgorithmKey();

    /**
     * The value stored in a {@code like} document's field (the value itself, or the processor object's).
     *
     * @param what names the document in errors, e.g. {@code [like] document [pages][42]}
     * @throws IllegalArgumentException if it is not such a value
     */
    V stored(String what, String field, Object value);

    /** {@link #stored(String, String, Object)} with the whole stored value at hand (the processor's object, if it is one). */
    default V stored(String what, String field, Object value, Object whole) {
        return stored(what, field, value);
    }

    /** Consumes the keys of a probe's sketch value while an enclosing object is parsed. */
    interface ValueParser<V> {
        /** Consumes the value of {@code name} if it is one of the value's keys; the parser is on the value's first token. */
        boolean parse(String name, XContentParser parser) throws IOException;

        /** The value collected, or null if none of its keys was given. */
        V value();
    }
}
