package org.nearduplicate.orchestration.field;

import org.apache.lucene.index.IndexableField;
import org.apache.lucene.search.Query;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;
import java.util.List;
import java.util.Objects;

import org.nearduplicate.core.MinHashSettings;
import org.nearduplicate.core.keys.Lsh;
import org.nearduplicate.core.keys.MinHashDefaults;
import org.nearduplicate.core.sketch.MinHashSignatures;
import org.nearduplicate.lucene.MinHashQuery;
import org.nearduplicate.lucene.SketchFields;

/**
 * The {@code minhash} field: one MinHash signature per document. The signature (m values) is kept as a binary doc
 * value (4m bytes, big-endian ints), and its LSH band keys ({@code bands} bands of {@code rows} values, see
 * {@link Lsh}) are indexed as terms under the field's name. {@code bands}, {@code rows} and {@code algorithm} are
 * fixed when the index is created; {@code bands × rows} must fit the algorithm's {@code hashes}.
 *
 * <p>Values: the {@code minhash} processor's object {@code {"signature": "<base64>", "algorithm": "minhash-v1:..."}}
 * (an algorithm other than the mapping's is rejected) or the base64 string alone. One signature per document.
 */
public final class MinHashField extends SketchField<MinHashSettings, String, int[]> {
    public static final String TYPE = "minhash";
    public static final String DEFAULT_ALGORITHM = MinHashSettings.DEFAULT.algorithmId();
    public static final String BANDS = "bands";
    public static final String ROWS = "rows";
    public static final String OBJECT_SIGNATURE = "signature";

    /** {@code minhash-v1...} ids are stored canonically (so {@code minhash-v1} pins today's defaults); others are rejected. */
    public static final SketchAlgorithms<MinHashSettings> ALGORITHMS = new SketchAlgorithms<>(
        TYPE,
        OBJECT_SIGNATURE,
        DEFAULT_ALGORITHM,
        id -> true,
        MinHashSettings::fromAlgorithmId,
        MinHashSettings::algorithmId,
        MinHashSettings::version
    );

    private final Lsh lsh;

    /** {@code settings}: what {@code algorithm} names, parsed by the caller. */
    public MinHashField(String name, Lsh lsh, String algorithm, MinHashSettings settings) {
        super(name, ALGORITHMS, algorithm, Objects.requireNonNull(settings));
        this.lsh = Objects.requireNonNull(lsh);
    }

    public MinHashField(String name, Lsh lsh, String algorithm) {
        this(name, lsh, algorithm, MinHashSettings.fromAlgorithmId(algorithm));
    }

    /** A field of the default layout and algorithm. */
    public MinHashField(String name) {
        this(name, new Lsh(MinHashDefaults.BANDS, MinHashDefaults.ROWS), DEFAULT_ALGORITHM);
    }

    /**
     * The field of a new mapping's parameters: {@code bands × rows} must fit the algorithm's {@code hashes}.
     *
     * @throws MappingException naming the field ({@code leafName}) and what is wrong
     */
    public static MinHashField of(String leafName, String name, int bands, int rows, String algorithm) {
        Lsh lsh;
        MinHashSettings settings;
        try {
            lsh = new Lsh(bands, rows);
            settings = MinHashSettings.fromAlgorithmId(algorithm);
            lsh.checkFits(settings.hashes());
        } catch (IllegalArgumentException e) {
            throw ALGORITHMS.invalid(leafName, e);
        }
        return new MinHashField(name, lsh, algorithm, settings);
    }

    /** A base64 signature with exactly {@code hashes} values. */
    public static int[] parseSignature(String base64, int hashes) {
        int[] signature = MinHashSignatures.fromBase64(base64);
        if (signature.length != hashes) {
            throw new IllegalArgumentException("signature has " + signature.length + " values but the field's algorithm makes " + hashes);
        }
        return signature;
    }

    public Lsh lsh() {
        return lsh;
    }

    /** The number of values (m) of the signatures in this field. */
    public int hashes() {
        return settings().hashes();
    }

    @Override
    protected int[] parseValue(ValueReader reader) throws IOException {
        JsonToken token = reader.token();
        if (token != JsonToken.VALUE_STRING) {
            throw new IllegalArgumentException(
                "expected a base64 signature or an object with [" + OBJECT_SIGNATURE + "], got [" + token + "]"
            );
        }
        return decode(reader.text());
    }

    @Override
    protected String parseObjectValue(ValueReader reader, JsonToken token) throws IOException {
        if (token != JsonToken.VALUE_STRING) {
            throw unexpectedKey(OBJECT_SIGNATURE, token);
        }
        return reader.text();
    }

    @Override
    protected IllegalArgumentException unexpectedKey(String key, JsonToken token) {
        return new IllegalArgumentException(
            "unexpected [" + key + "]; expected string [" + OBJECT_SIGNATURE + "] and optionally string [" + OBJECT_ALGORITHM + "]"
        );
    }

    /** The signature is checked against the field's {@code hashes} only once its algorithm is known to be the field's. */
    @Override
    protected int[] decode(String base64) {
        return parseSignature(base64, hashes());
    }

    @Override
    public List<IndexableField> fields(int[] signature) {
        return SketchFields.minHashFields(name(), lsh, signature);
    }

    /** A term query matches the identical signature: a {@code minhash_similar} query with min_similarity 1. */
    @Override
    public Query termQuery(Object value) {
        int[] signature = parseSignature(value instanceof BytesRef b ? b.utf8ToString() : String.valueOf(value), hashes());
        return new MinHashQuery(name(), signature, 1.0, lsh, false);
    }

    /** The signatures are binary doc values: no sort, aggregation or script reads them. */
    @Override
    public boolean fingerprintDocValues() {
        return false;
    }

    @Override
    protected Object fetchedValue(Object sourceValue) {
        return sourceValue.toString();
    }
}
