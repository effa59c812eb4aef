package org.nearduplicate.orchestration.field;

import org.apache.lucene.index.IndexableField;
import org.apache.lucene.search.Query;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.keys.CandidateKeys;
import org.nearduplicate.core.keys.StoredKeys;
import org.nearduplicate.core.options.OptionValues;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.core.sketch.SketchValues;
import org.nearduplicate.lucene.SimHashQuery;
import org.nearduplicate.lucene.SketchFields;

/**
 * The {@code simhash} field: one 64-bit fingerprint per document, indexed for near-duplicate lookups.
 *
 * <p>Index layout: the fingerprint's pigeonhole block keys ({@link BlockLayout}) are indexed as binary terms
 * directly under the field's own name (no norms, no positions), each posting carrying the key's check bits as its
 * term frequency ({@code check + 1}; docs only when {@code check_bits} is 0), and the fingerprint itself is kept as a
 * numeric doc value under the same name. One Lucene field carries both because nothing else is indexed for it: the
 * terms dictionary only ever holds keys, so no sub-field is needed, and {@code exists} queries use the doc values.
 *
 * <p>Accepted document values: a fingerprint string (16 hex digits, {@code 0x}-prefixed hex, or decimal), a JSON
 * integer, or an object {@code {"fingerprint": ..., "algorithm": ...}} as written by the ingest processor. An
 * object whose {@code algorithm} differs from the mapping's is rejected. {@code null} means no value. One value per
 * document: arrays with more than one fingerprint are rejected.
 *
 * <p>Candidate keys ({@code simhash-v7} and later): the processor's object also holds {@code keys}, which are indexed
 * as one docs-only term per key in {@code <field>#keys} ({@link #candidateKeysField()}), what the query's
 * candidate-key path reads. A field with candidate keys refuses a value without them (a bare fingerprint, or an object
 * made elsewhere): that path would miss its document without a word.
 */
public final class SimHashField extends SketchField<SimHashSettings, Long, SimHashField.Value> {
    public static final String TYPE = "simhash";
    /** The engine's default algorithm, pinned into each new mapping. */
    public static final String DEFAULT_ALGORITHM = SimHashSettings.DEFAULT.algorithmId();
    public static final String BLOCKS = "blocks";
    public static final String MAX_DISTANCE = "max_distance";
    public static final String CHECK_BITS = "check_bits";
    public static final int DEFAULT_BLOCKS = 4;
    /** Any k up to 16 from the index (multi-probe of the 4 block keys); indices made by 0.1.0 pinned 3. */
    public static final int DEFAULT_MAX_DISTANCE = BlockLayout.MAX_DISTANCE;
    /** Unresolved until the layout is built: the default depends on blocks and max_distance ({@link BlockLayout}). */
    public static final int DEFAULT_CHECK_BITS = -1;

    public static final String OBJECT_FINGERPRINT = SketchValues.FINGERPRINT;
    /** The processor object's key of the verification signature ({@code simhash-v4} and later). */
    public static final String OBJECT_SIGNATURE = SketchValues.SIGNATURE;
    /** The processor object's key of the candidate keys ({@code simhash-v7} and later; {@link StoredKeys}). */
    public static final String OBJECT_KEYS = SketchValues.KEYS;

    /**
     * This engine's ids ({@code simhash-v1...}) are stored canonically; other names are kept as given, so that
     * fingerprints made outside the plugin can be indexed and compared with each other.
     */
    public static final SketchAlgorithms<SimHashSettings> ALGORITHMS = new SketchAlgorithms<>(
        TYPE,
        OBJECT_FINGERPRINT,
        DEFAULT_ALGORITHM,
        id -> id.startsWith(SimHashSettings.NAME + "-"),
        SimHashField::mappableSettings,
        SimHashSettings::algorithmId,
        SimHashSettings::version
    );

    /**
     * The settings of an id a new mapping pins. Every version this engine makes is mappable; a version with candidate
     * keys ({@code simhash-v7}) indexes them next to the fingerprint ({@link #candidateKeysField()}).
     */
    static SimHashSettings mappableSettings(String algorithmId) {
        return SimHashSettings.fromAlgorithmId(algorithmId);
    }

    /**
     * How many candidate keys a document must share with a probe to be verified against it on the candidate-key path:
     * 2 verifies ~24 times fewer unrelated documents than 1 and still finds every pair whose full min-wise values agree
     * in at least 14 slots ({@code CandidateKeys.minSharedKeys}; measured recall against exact evaluation 1.00000 on the
     * public corpus, 0.99984 on planted random data, bench/results/RESULTS-candidate-keys.md).
     */
    public static final int MIN_SHARED_KEYS = 2;

    /**
     * A value as the field indexes it: the sketch (fingerprint and, from {@code simhash-v4}, signature) and, for a
     * field with candidate keys, their packed hashes ({@link StoredKeys#parse}'s form; null for other fields).
     */
    public record Value(SimHash sketch, byte[] keys) {
        public Value {
            Objects.requireNonNull(sketch);
        }

        public static Value of(SimHash sketch) {
            return new Value(sketch, null);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Value v && v.sketch.equals(sketch) && java.util.Arrays.equals(v.keys, keys);
        }

        @Override
        public int hashCode() {
            return sketch.hashCode() * 31 + java.util.Arrays.hashCode(keys);
        }

        @Override
        public String toString() {
            return sketch + (keys == null ? "" : " +keys");
        }
    }

    private final BlockLayout layout;
    /** The layout of the candidate keys this field's values carry and it indexes; null: none (before {@code simhash-v7}). */
    private final CandidateKeys candidateKeys;

    public SimHashField(String name, String algorithm, BlockLayout layout) {
        super(name, ALGORITHMS, algorithm, settingsOf(algorithm));
        this.layout = Objects.requireNonNull(layout);
        this.candidateKeys = settings() == null ? null : CandidateKeys.of(settings());
    }

    /** A field of the default layout and algorithm. */
    public SimHashField(String name) {
        this(name, DEFAULT_ALGORITHM, new BlockLayout(DEFAULT_BLOCKS, DEFAULT_MAX_DISTANCE));
    }

    /**
     * The layout of a new mapping's parameters.
     *
     * @throws MappingException naming the field ({@code leafName}) and what is wrong
     */
    public static BlockLayout layout(String leafName, int blocks, int maxDistance, int checkBits) {
        try {
            return new BlockLayout(blocks, maxDistance, checkBits);
        } catch (IllegalArgumentException e) {
            throw ALGORITHMS.invalid(leafName, e);
        }
    }

    /**
     * The one reader of a layout given as a map, e.g. a field's mapping as {@code GET _mapping} returns it or the
     * {@code _simhash} API's options: {@code blocks}, {@code max_distance} and {@code check_bits} default as in a new
     * mapping and are validated by {@link BlockLayout}.
     *
     * @throws IllegalArgumentException naming the bad option
     */
    public static BlockLayout layoutOf(Map<String, ?> options) {
        return new BlockLayout(
            intOption(options, BLOCKS, DEFAULT_BLOCKS),
            intOption(options, MAX_DISTANCE, DEFAULT_MAX_DISTANCE),
            intOption(options, CHECK_BITS, DEFAULT_CHECK_BITS)
        );
    }

    private static int intOption(Map<String, ?> options, String name, int defaultValue) {
        Object value = options.get(name);
        if (value == null) return defaultValue;
        return OptionValues.integer(name, value);
    }

    /**
     * The settings of one of this engine's ids, parsed once per field; null for an id it did not make. A mapping
     * refuses a {@code simhash-} id it cannot read; a field built directly (tests, tools) treats one as foreign, as
     * {@link org.nearduplicate.core.MaxDistance#recommended(String)} does.
     */
    private static SimHashSettings settingsOf(String algorithm) {
        if (algorithm == null || ALGORITHMS.owns().test(algorithm) == false) {
            return null;
        }
        try {
            return SimHashSettings.fromAlgorithmId(algorithm);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * Reads a fingerprint from a query or source value: strings, {@link BytesRef}s holding such strings, and integral
     * numbers.
     *
     * @throws IllegalArgumentException for anything else or an invalid fingerprint
     */
    public static long fingerprint(Object value) {
        if (value instanceof BytesRef bytes) {
            return Fingerprints.parse(bytes.utf8ToString());
        }
        return SketchValues.fingerprint(value);
    }

    /**
     * Reads a fingerprint at the reader's current (value) token.
     *
     * @throws IllegalArgumentException for another token or an invalid fingerprint
     */
    public static long fingerprint(ValueReader reader) throws IOException {
        JsonToken token = reader.token();
        if (token == JsonToken.VALUE_STRING) {
            return Fingerprints.parse(reader.text());
        }
        if (token == JsonToken.VALUE_NUMBER) {
            Number integer = reader.integer();
            if (integer instanceof BigInteger big) {
                return Fingerprints.fromBigInteger(big, big.toString());
            }
            if (integer != null) {
                return integer.longValue();
            }
            throw new IllegalArgumentException("invalid fingerprint [" + reader.text() + "]: a numeric fingerprint must be an integer");
        }
        throw new IllegalArgumentException("invalid fingerprint: expected a string or an integer, got [" + token + "]");
    }

    public BlockLayout layout() {
        return layout;
    }

    /** Whether this field's values carry a verification signature, which every match must then pass. */
    public boolean verifies() {
        return settings() != null && settings().hasSignature();
    }

    /** The Lucene field holding the signatures (see {@link #verifies()}). */
    public String signatureField() {
        return SketchFields.signatureField(name());
    }

    /** The default {@code min_similarity} of this field's verified matches (NaN when it has no signature). */
    public double recommendedMinSimilarity() {
        return verifies() ? settings().recommendedMinSimilarity() : Double.NaN;
    }

    /** The layout of the candidate keys the field indexes, or null when its algorithm has none. */
    public CandidateKeys candidateKeys() {
        return candidateKeys;
    }

    /** The Lucene field of the candidate keys ({@link SketchFields#candidateKeysField}). */
    public String candidateKeysField() {
        return SketchFields.candidateKeysField(name());
    }

    /**
     * Where a query finds its candidates from probes that carry candidate keys: this field's keys, shared in at least
     * {@link #MIN_SHARED_KEYS}; null when the field has no candidate keys.
     */
    public SimHashQuery.CandidateKeyPath candidateKeyPath() {
        return candidateKeys == null ? null : new SimHashQuery.CandidateKeyPath(candidateKeysField(), candidateKeys, MIN_SHARED_KEYS);
    }

    /**
     * A probe's candidate keys as this field indexes them ({@link CandidateKeys#keysOfPacked}: key number and hash per
     * key), from their packed hashes as the processor stores them and a probe carries them.
     *
     * @throws IllegalArgumentException naming {@code [keys]} if the field has no candidate keys or they are not of its
     *                                  layout
     */
    public byte[] probeKeys(byte[] packed) {
        if (candidateKeys == null) {
            throw new IllegalArgumentException(
                "[" + OBJECT_KEYS + "] given, but field [" + name() + "]'s algorithm [" + algorithm() + "] has no candidate keys"
            );
        }
        int expected = candidateKeys.keyCount() * candidateKeys.hashBytes();
        if (packed.length != expected) {
            throw new IllegalArgumentException(
                "invalid ["
                    + OBJECT_KEYS
                    + "]: expected "
                    + expected
                    + " bytes ("
                    + candidateKeys.keyCount()
                    + " keys of "
                    + candidateKeys.hashBytes()
                    + " bytes, layout "
                    + candidateKeys.layoutId()
                    + " of field ["
                    + name()
                    + "]), got "
                    + packed.length
            );
        }
        return candidateKeys.keysOfPacked(packed);
    }

    /**
     * The packed candidate keys of a sketch made with this field's algorithm (a text probe's, signed with its min-wise
     * values), or null when the field has no candidate keys or the sketch has no min-wise values.
     */
    public byte[] packedKeys(SimHash sketch) {
        return candidateKeys == null || sketch.hasMinima() == false ? null : candidateKeys.packedHashes(sketch.minima());
    }

    /** The largest distance the index answers by key lookup (the mapping's {@code max_distance}). */
    public int indexedMaxDistance() {
        return layout.maxDistance();
    }

    @Override
    protected Value parseValue(ValueReader reader) throws IOException {
        return Value.of(SimHash.of(fingerprint(reader)));
    }

    /** A bare fingerprint has no candidate keys: a field that indexes them refuses it ({@link #missingKeys}). */
    @Override
    protected Value checkBareValue(Value value) {
        if (candidateKeys != null) throw missingKeys("a bare fingerprint");
        return value;
    }

    /**
     * A value without keys in a field that indexes them: the candidate-key path of every query would miss its document
     * without a word, so it is refused with the fix.
     */
    private IllegalArgumentException missingKeys(String what) {
        return new IllegalArgumentException(
            "field ["
                + name()
                + "] is mapped with algorithm ["
                + algorithm()
                + "], whose values carry their candidate keys, but "
                + what
                + " has no ["
                + OBJECT_KEYS
                + "]: queries find documents by these keys and would miss this one. Sketch the document with the simhash "
                + "processor at [version] "
                + settings().version()
                + " (it writes [fingerprint], [signature], [keys] and [algorithm]), or map the field with an algorithm "
                + "without keys (simhash-v6)"
        );
    }

    @Override
    protected Long parseObjectValue(ValueReader reader, JsonToken token) throws IOException {
        if (token == JsonToken.VALUE_NULL) {
            throw new IllegalArgumentException("[" + OBJECT_FINGERPRINT + "] must not be null");
        }
        return fingerprint(reader);
    }

    @Override
    protected IllegalArgumentException unexpectedKey(String key, JsonToken token) {
        if (OBJECT_ALGORITHM.equals(key) || OBJECT_SIGNATURE.equals(key) || OBJECT_KEYS.equals(key)) {
            return new IllegalArgumentException("[" + key + "] must be a string");
        }
        return new IllegalArgumentException(
            "unknown key ["
                + key
                + "]; expected ["
                + OBJECT_FINGERPRINT
                + "] and optionally ["
                + OBJECT_SIGNATURE
                + "] and ["
                + OBJECT_ALGORITHM
                + "]"
        );
    }

    @Override
    protected Set<String> extraKeys() {
        return Set.of(OBJECT_SIGNATURE, OBJECT_KEYS);
    }

    @Override
    protected Value decode(Long fingerprint, Map<String, String> extras) {
        String keys = extras.get(OBJECT_KEYS);
        byte[] packedKeys = null;
        if (keys != null) {
            if (candidateKeys == null) {
                throw new IllegalArgumentException(
                    "[" + OBJECT_KEYS + "] given, but field [" + name() + "]'s algorithm [" + algorithm() + "] has no candidate keys"
                );
            }
            packedKeys = StoredKeys.parse(candidateKeys, keys);
        } else if (candidateKeys != null) {
            throw missingKeys("the value");
        }
        String signature = extras.get(OBJECT_SIGNATURE);
        if (signature == null) {
            return new Value(SimHash.of(fingerprint), packedKeys); // compared on the fingerprint alone, as a bare value
        }
        if (verifies() == false) {
            throw new IllegalArgumentException(
                "[" + OBJECT_SIGNATURE + "] given, but field [" + name() + "]'s algorithm [" + algorithm() + "] has no signatures"
            );
        }
        return new Value(new SimHash(fingerprint, Signature.parse(signature)), packedKeys);
    }

    @Override
    protected Value decode(Long fingerprint) {
        return decode(fingerprint, Map.of());
    }

    /**
     * The fingerprint's block keys and doc value, the signature's doc value and, for a field with candidate keys, one
     * docs-only term per key in {@link #candidateKeysField()}.
     */
    @Override
    public List<IndexableField> fields(Value value) {
        List<IndexableField> fields = SketchFields.simHashFields(name(), layout, value.sketch());
        if (value.keys() != null) {
            if (candidateKeys == null) throw new IllegalArgumentException("field [" + name() + "] has no candidate keys");
            fields.addAll(
                SketchFields.candidateKeyFields(candidateKeysField(), candidateKeys.keysOfPacked(value.keys()), candidateKeys.keyBytes())
            );
        }
        return fields;
    }

    /** The fields of a sketch without candidate keys. */
    public List<IndexableField> fields(SimHash sketch) {
        return fields(Value.of(sketch));
    }

    /** A term query is a near-duplicate query with distance 0: the exact fingerprint. */
    @Override
    public Query termQuery(Object value) {
        return new SimHashQuery(name(), fingerprint(value), 0, layout, false);
    }

    @Override
    public boolean fingerprintDocValues() {
        return true;
    }

    @Override
    protected Object fetchedValue(Object sourceValue) {
        return Fingerprints.toHex(fingerprint(sourceValue));
    }

    /** Fingerprint doc values as 16 hex digits. */
    @Override
    public Object displayed(Object value) {
        if (value instanceof Number n) {
            return Fingerprints.toHex(n.longValue());
        }
        return value;
    }
}
