package org.nearduplicate.opensearch.index.query;

import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.Query;
import org.apache.lucene.util.BytesRef;

import org.opensearch.core.ParseField;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.index.query.QueryShardContext;
import org.opensearch.index.query.QueryShardException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

import org.nearduplicate.core.MaxDistance;
import org.nearduplicate.core.chance.NullDistribution;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.core.sketch.SimHasher;
import org.nearduplicate.core.sketch.SketchValues;
import org.nearduplicate.lucene.SimHashQuery;
import org.nearduplicate.opensearch.common.FingerprintValues;
import org.nearduplicate.opensearch.common.MaxDistanceParsing;
import org.nearduplicate.opensearch.common.OptionValues;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.nearduplicate.opensearch.sketching.SketchingService;

/**
 * What a {@code near_duplicate} query or rescorer compares against: exactly one of a {@code fingerprint} (or several
 * {@code fingerprints}, the query only), a {@code like} document (resolved to its fingerprint during rewrite), a
 * {@code text} or an {@code html} (fingerprinted with the field's algorithm, once on the coordinating node or else by
 * each shard's field type). An optional {@code algorithm} names how a given fingerprint was made; it must then equal
 * the field's mapping. The SimHash {@link Probe.Method}: everything else is {@link Probe}'s.
 */
public final class SimHashProbe extends Probe<SimHashProbe.Given, SimHashProbe> {
    /** The name of the method's query and rescorer. */
    public static final String NAME = "near_duplicate";
    public static final ParseField FINGERPRINT_FIELD = new ParseField("fingerprint");
    public static final ParseField FINGERPRINTS_FIELD = new ParseField("fingerprints");
    public static final ParseField ALGORITHM_FIELD = ProbeInput.ALGORITHM_FIELD;
    public static final ParseField LIKE_FIELD = ProbeInput.LIKE_FIELD;
    public static final ParseField TEXT_FIELD = ProbeInput.TEXT_FIELD;
    public static final ParseField HTML_FIELD = ProbeInput.HTML_FIELD;
    public static final ParseField ALLOW_SCAN_FIELD = new ParseField("allow_scan");
    public static final ParseField SIGNATURE_FIELD = new ParseField("signature");
    public static final ParseField SIGNATURES_FIELD = new ParseField("signatures");
    public static final ParseField MIN_SIMILARITY_FIELD = new ParseField("min_similarity");

    /**
     * The given value: one {@code fingerprint}, or several {@code fingerprints} (documents within k of any of them; the
     * query only, for {@code near_duplicate_check}'s batches), each with its verification {@code signature(s)} when made
     * by an algorithm that has them. The parser may collect both forms, which the probe refuses.
     */
    record Given(Long fingerprint, long[] fingerprints, byte[] signature, byte[][] signatures) {
        Given(Long fingerprint, long[] fingerprints) {
            this(fingerprint, fingerprints, null, null);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Given that
                && Objects.equals(fingerprint, that.fingerprint)
                && Arrays.equals(fingerprints, that.fingerprints)
                && Arrays.equals(signature, that.signature)
                && Arrays.deepEquals(signatures, that.signatures);
        }

        @Override
        public int hashCode() {
            return Objects.hash(fingerprint, Arrays.hashCode(fingerprints), Arrays.hashCode(signature), Arrays.deepHashCode(signatures));
        }

        @Override
        public String toString() {
            String sig = signature != null || signatures != null ? " (signed)" : "";
            return (fingerprint != null ? Fingerprints.toHex(fingerprint) : fingerprints.length + " fingerprints") + sig;
        }
    }

    private static final Method<Given, SimHashProbe> METHOD = new Method<>() {
        @Override
        public SimHashProbe create(Given value, ProbeInput input) {
            return new SimHashProbe(value, input);
        }

        @Override
        public String[] valueKeys() {
            return new String[] { FINGERPRINT_FIELD.getPreferredName(), FINGERPRINTS_FIELD.getPreferredName() };
        }

        @Override
        public int givenKeys(Given value) {
            return (value.fingerprint != null ? 1 : 0) + (value.fingerprints != null ? 1 : 0);
        }

        @Override
        public void check(Given value) {
            if (value.fingerprints != null && value.fingerprints.length == 0) {
                throw new IllegalArgumentException("[fingerprints] must not be empty");
            }
            if (value.signature != null && value.fingerprint == null) {
                throw new IllegalArgumentException("[signature] goes with one [fingerprint]; give [signatures] with [fingerprints]");
            }
            if (value.signatures != null && (value.fingerprints == null || value.signatures.length != value.fingerprints.length)) {
                throw new IllegalArgumentException("[signatures] must give one signature per entry of [fingerprints]");
            }
        }

        @Override
        public Given read(StreamInput in) throws IOException {
            Long fingerprint = in.readOptionalLong();
            long[] fingerprints = in.readBoolean() ? in.readLongArray() : null;
            byte[] signature = in.readBoolean() ? in.readByteArray() : null;
            byte[][] signatures = null;
            if (in.readBoolean()) {
                signatures = new byte[in.readVInt()][];
                for (int i = 0; i < signatures.length; i++)
                    signatures[i] = in.readBoolean() ? in.readByteArray() : null; // null: that probe has none
            }
            return fingerprint == null && fingerprints == null ? null : new Given(fingerprint, fingerprints, signature, signatures);
        }

        @Override
        public void write(StreamOutput out, Given value) throws IOException {
            out.writeOptionalLong(value == null ? null : value.fingerprint);
            long[] fingerprints = value == null ? null : value.fingerprints;
            out.writeBoolean(fingerprints != null);
            if (fingerprints != null) {
                out.writeLongArray(fingerprints);
            }
            byte[] signature = value == null ? null : value.signature;
            out.writeBoolean(signature != null);
            if (signature != null) {
                out.writeByteArray(signature);
            }
            byte[][] signatures = value == null ? null : value.signatures;
            out.writeBoolean(signatures != null);
            if (signatures != null) {
                out.writeVInt(signatures.length);
                for (byte[] each : signatures) {
                    out.writeBoolean(each != null);
                    if (each != null) out.writeByteArray(each);
                }
            }
        }

        @Override
        public void toXContent(XContentBuilder builder, Given value) throws IOException {
            if (value.fingerprint != null) {
                builder.field(FINGERPRINT_FIELD.getPreferredName(), Fingerprints.toHex(value.fingerprint));
            }
            if (value.fingerprints != null) {
                builder.startArray(FINGERPRINTS_FIELD.getPreferredName());
                for (long f : value.fingerprints) {
                    builder.value(Fingerprints.toHex(f));
                }
                builder.endArray();
            }
            if (value.signature != null) {
                builder.field(SIGNATURE_FIELD.getPreferredName(), Signature.toHex(value.signature));
            }
            if (value.signatures != null) {
                builder.startArray(SIGNATURES_FIELD.getPreferredName());
                for (byte[] signature : value.signatures) {
                    if (signature == null) builder.nullValue();
                    else builder.value(Signature.toHex(signature));
                }
                builder.endArray();
            }
        }

        @Override
        public ValueParser<Given> parser() {
            return new ValueParser<>() {
                private Long fingerprint;
                private long[] fingerprints;
                private byte[] signature;
                private byte[][] signatures;

                @Override
                public boolean parse(String name, XContentParser parser) throws IOException {
                    if (FINGERPRINT_FIELD.match(name, parser.getDeprecationHandler())) {
                        fingerprint = parseToken(parser, "[fingerprint]: ");
                    } else if (FINGERPRINTS_FIELD.match(name, parser.getDeprecationHandler())) {
                        if (parser.currentToken() != XContentParser.Token.START_ARRAY) {
                            throw new ParsingException(parser.getTokenLocation(), "[fingerprints] must be an array of fingerprints");
                        }
                        List<Long> values = new ArrayList<>();
                        while (parser.nextToken() != XContentParser.Token.END_ARRAY) {
                            values.add(parseToken(parser, "[fingerprints]: "));
                        }
                        fingerprints = values.stream().mapToLong(Long::longValue).toArray();
                    } else if (SIGNATURE_FIELD.match(name, parser.getDeprecationHandler())) {
                        signature = parseSignature(parser, "[signature]: ");
                    } else if (SIGNATURES_FIELD.match(name, parser.getDeprecationHandler())) {
                        if (parser.currentToken() != XContentParser.Token.START_ARRAY) {
                            throw new ParsingException(parser.getTokenLocation(), "[signatures] must be an array of signatures");
                        }
                        List<byte[]> values = new ArrayList<>();
                        while (parser.nextToken() != XContentParser.Token.END_ARRAY) {
                            // null: a probe without signature, compared on its fingerprint alone (near_duplicate_check's
                            // batches of signed and bare values)
                            values.add(
                                parser.currentToken() == XContentParser.Token.VALUE_NULL ? null : parseSignature(parser, "[signatures]: ")
                            );
                        }
                        signatures = values.toArray(byte[][]::new);
                    } else {
                        return false;
                    }
                    return true;
                }

                @Override
                public Given value() {
                    if (fingerprint == null && fingerprints == null) {
                        if (signature != null || signatures != null) {
                            throw new IllegalArgumentException("[signature] and [signatures] go with [fingerprint] and [fingerprints]");
                        }
                        return null;
                    }
                    return new Given(fingerprint, fingerprints, signature, signatures);
                }
            };
        }

        @Override
        public String describe(Given value) {
            return value.toString();
        }

        @Override
        public String fieldType() {
            return SimHashFieldMapper.CONTENT_TYPE;
        }

        @Override
        public Given sketch(SketchingService engine, String algorithm, String content, SketchingService.ProbeContent type) {
            SimHash sketch = engine.probe(SimHasher.SKETCHER, algorithm, content, type);
            return new Given(sketch.fingerprint(), null, sketch.signature(), null);
        }

        @Override
        public String storedValueKey() {
            return SketchValues.FINGERPRINT;
        }

        @Override
        public String storedAlgorithmKey() {
            return SketchValues.ALGORITHM;
        }

        /** A fingerprint string or number. */
        @Override
        public Given stored(String what, String field, Object value) {
            return stored(what, field, value, value);
        }

        /** The fingerprint, and the signature of the processor's object when it has one. */
        @Override
        public Given stored(String what, String field, Object value, Object whole) {
            try {
                byte[] signature = null;
                if (whole instanceof java.util.Map<?, ?> map && map.get(SketchValues.SIGNATURE) != null) {
                    signature = Signature.parse(map.get(SketchValues.SIGNATURE).toString());
                }
                return new Given(FingerprintValues.parse(value), null, signature, null);
            } catch (IllegalArgumentException e) {
                throw invalidStoredValue(what, field, e);
            }
        }
    };

    private static long parseToken(XContentParser parser, String prefix) throws IOException {
        try {
            return FingerprintValues.parseToken(parser);
        } catch (IllegalArgumentException e) {
            throw new ParsingException(parser.getTokenLocation(), prefix + e.getMessage(), e);
        }
    }

    private static byte[] parseSignature(XContentParser parser, String prefix) throws IOException {
        if (parser.currentToken() != XContentParser.Token.VALUE_STRING) {
            throw new ParsingException(
                parser.getTokenLocation(),
                prefix + "a signature is a string of " + Signature.BYTES * 2 + " hex digits"
            );
        }
        try {
            return Signature.parse(parser.text());
        } catch (IllegalArgumentException e) {
            throw new ParsingException(parser.getTokenLocation(), prefix + e.getMessage(), e);
        }
    }

    private SimHashProbe(Given value, ProbeInput input) {
        super(METHOD, value, input);
    }

    public SimHashProbe(StreamInput in) throws IOException {
        super(METHOD, in);
    }

    public static SimHashProbe fingerprint(long fingerprint) {
        return fingerprint(fingerprint, null);
    }

    /** A fingerprint that was made with {@code algorithm} (null: unknown, assumed to match the field). */
    public static SimHashProbe fingerprint(long fingerprint, String algorithm) {
        return new SimHashProbe(new Given(fingerprint, null), ProbeInput.given(algorithm));
    }

    /** A fingerprint with its verification signature (null: none), made with {@code algorithm} (null: the field's). */
    public static SimHashProbe fingerprint(SimHash sketch, String algorithm) {
        return new SimHashProbe(new Given(sketch.fingerprint(), null, sketch.signature(), null), ProbeInput.given(algorithm));
    }

    /** Several fingerprints with their signatures ({@code signatures} null: none), the query only. */
    public static SimHashProbe fingerprints(long[] fingerprints, byte[][] signatures, String algorithm) {
        return new SimHashProbe(
            new Given(null, fingerprints.clone(), null, signatures == null ? null : signatures.clone()),
            ProbeInput.given(algorithm)
        );
    }

    /** Documents within k of any of {@code fingerprints}; the {@code near_duplicate} query only (not the rescorer). */
    public static SimHashProbe fingerprints(long[] fingerprints) {
        return fingerprints(fingerprints, null);
    }

    /** As {@link #fingerprints(long[])}, made with {@code algorithm} (null: unknown, assumed to match the field). */
    public static SimHashProbe fingerprints(long[] fingerprints, String algorithm) {
        return new SimHashProbe(new Given(null, fingerprints.clone()), ProbeInput.given(algorithm));
    }

    public static SimHashProbe like(String index, String id, String routing) {
        return new SimHashProbe(null, ProbeInput.like(index, id, routing));
    }

    public static SimHashProbe text(String text) {
        return new SimHashProbe(null, ProbeInput.text(text));
    }

    public static SimHashProbe html(String html) {
        return new SimHashProbe(null, ProbeInput.html(html));
    }

    public Long fingerprint() {
        return value == null ? null : value.fingerprint;
    }

    /** The given fingerprint's verification signature, or null. */
    public byte[] signature() {
        return value == null ? null : value.signature;
    }

    /**
     * The fingerprint probe of a stored document's value in {@code field}, as a {@code like} probe reads it: the
     * fingerprint itself, or the processor's object with it, its signature and its {@link #algorithm}.
     *
     * @param what names the document in errors
     * @throws IllegalArgumentException if the value is not a fingerprint
     */
    public static SimHashProbe stored(String what, String field, Object value) {
        return fromSourceValue(METHOD, what, field, value);
    }

    /**
     * The {@code simhash} field a query or rescorer targets, or null when the field is not mapped (the caller decides
     * what that means).
     *
     * @param owner named in errors, e.g. {@code [near_duplicate]} or {@code [near_duplicate] rescorer}
     * @throws QueryShardException if the field has another type
     */
    public static SimHashFieldMapper.SimHashFieldType simHashField(QueryShardContext context, String field, String owner) {
        return ProbeInput.targetField(context, field, owner, SimHashFieldMapper.SimHashFieldType.class, SimHashFieldMapper.CONTENT_TYPE);
    }

    /**
     * The probe's fingerprint (and signature) for {@code fieldType}: a given fingerprint (whose {@code algorithm}, if
     * named, must be the field's), or a text/html probe fingerprinted with the field's algorithm by the node's engine.
     * The signature is kept for a field that verifies (a bare fingerprint probe has none: compared on the fingerprint).
     *
     * @throws QueryShardException if the probe was made with another algorithm or cannot be fingerprinted
     */
    public SimHash resolve(QueryShardContext context, String owner, SimHashFieldMapper.SimHashFieldType fieldType) {
        SimHash sketch = resolve(context, owner, given -> {
            if (given.fingerprints != null) {
                throw new IllegalArgumentException(
                    "[fingerprints] (several probes) is supported by the query only; give one [fingerprint]"
                );
            }
            input.requireFieldAlgorithm(fieldType.name(), fieldType.algorithm(), "the probe fingerprint was", "fingerprints");
            return new SimHash(given.fingerprint, given.signature);
        }, fieldType::probeFingerprint);
        return fieldType.verifies() ? sketch : SimHash.of(sketch.fingerprint());
    }

    /**
     * The probe's fingerprints and their signatures (null when the field does not verify) for {@code fieldType}: the
     * {@code fingerprints} of a several-probe form, otherwise the one of {@link #resolve}.
     */
    public Resolved resolveAll(QueryShardContext context, String owner, SimHashFieldMapper.SimHashFieldType fieldType) {
        if (value == null || value.fingerprints == null) {
            SimHash one = resolve(context, owner, fieldType);
            return new Resolved(new long[] { one.fingerprint() }, fieldType.verifies() ? new byte[][] { one.signature() } : null);
        }
        Resolved resolved = resolve(context, owner, given -> {
            input.requireFieldAlgorithm(fieldType.name(), fieldType.algorithm(), "the probe fingerprints were", "fingerprints");
            return new Resolved(given.fingerprints.clone(), given.signatures == null ? null : given.signatures.clone());
        }, null);
        return fieldType.verifies() ? resolved : new Resolved(resolved.fingerprints(), null);
    }

    /** Resolved probes: fingerprints and, for a field that verifies, one signature each. */
    public record Resolved(long[] fingerprints, byte[][] signatures) {
    }

    /**
     * The {@code near_duplicate} query's own options: {@code max_distance} (null: the mapping's), {@code allow_scan},
     * and {@code min_similarity} (null: the field's algorithm's; only for fields that verify).
     */
    public record QueryOptions(Integer maxDistance, boolean allowScan, Double minSimilarity) {
        public QueryOptions(Integer maxDistance, boolean allowScan) {
            this(maxDistance, allowScan, null);
        }

        public QueryOptions {
            MaxDistance.checkOptional(maxDistance, NAME);
            checkMinSimilarity(minSimilarity);
        }
    }

    static Double checkMinSimilarity(Double minSimilarity) {
        if (minSimilarity != null && (minSimilarity >= 0 && minSimilarity <= 1) == false) {
            throw new IllegalArgumentException("[" + NAME + "] min_similarity must be between 0 and 1, got " + minSimilarity);
        }
        return minSimilarity;
    }

    /** The verification of a field that has signatures at {@code minSimilarity} (null: the field's default); null otherwise. */
    static SimHashQuery.Verification verification(
        QueryShardContext context,
        SimHashFieldMapper.SimHashFieldType fieldType,
        Double minSimilarity
    ) {
        if (fieldType.verifies() == false) {
            if (minSimilarity != null) {
                throw new QueryShardException(
                    context,
                    "["
                        + NAME
                        + "] min_similarity needs a field whose algorithm has signatures; field ["
                        + fieldType.name()
                        + "] is mapped with ["
                        + fieldType.algorithm()
                        + "]"
                );
            }
            return null;
        }
        return new SimHashQuery.Verification(
            fieldType.signatureField(),
            minSimilarity != null ? minSimilarity : fieldType.recommendedMinSimilarity()
        );
    }

    /** The probe as the query and the rescorer register and read it. */
    public static final ProbeKind<SimHashProbe> KIND = new ProbeKind<>(NAME, SimHashProbe::new, Parser::new);

    /**
     * The explain and profile line of a query on this shard: the expected chance matches of one probe among the shard's
     * documents, from the measured null distribution ({@link NullDistribution}, docs/engine.md "Chance matches at
     * scale"); "not measured" where it has no rows. A probe without a signature is compared on its fingerprint alone,
     * so any such probe makes the estimate the fingerprint's. Null when the shard's reader is not at hand.
     */
    static String chanceNote(QueryShardContext context, String algorithm, int k, SimHashQuery.Verification verification, Resolved probes) {
        if (context.getIndexReader() == null) return null;
        int docs = context.getIndexReader().numDocs();
        double minSimilarity = verification == null ? Double.NaN : verification.minSimilarity();
        if (verification != null) {
            for (int i = 0; i < probes.fingerprints().length; i++) {
                if (probes.signatures() == null || probes.signatures()[i] == null) {
                    minSimilarity = Double.NaN;
                    break;
                }
            }
        }
        String prefix = String.format(Locale.ROOT, "expected chance matches per probe among this shard's %,d documents: ", docs);
        NullDistribution.Estimate e = NullDistribution.builtin().estimate(algorithm, k, minSimilarity, NullDistribution.ALL, docs);
        if (e == null) return prefix + "not measured for this algorithm, k and min_similarity";
        return prefix
            + e.text()
            + (e.value() > NullDistribution.WARN_PER_QUERY ? " (more than 1: expect some hits by chance)" : "")
            + " ("
            + e.basis()
            + ")";
    }

    /** The {@code near_duplicate} query's part: its options and the {@link SimHashQuery} of the resolved fingerprints. */
    public static final ProbeQueryBuilder.Method<SimHashProbe, QueryOptions, SimHashFieldMapper.SimHashFieldType> QUERYING =
        new ProbeQueryBuilder.Method<>() {
            @Override
            public ProbeKind<SimHashProbe> kind() {
                return KIND;
            }

            @Override
            public QueryOptions defaultOptions() {
                return new QueryOptions(null, false, null);
            }

            @Override
            public QueryOptions readOptions(StreamInput in) throws IOException {
                return new QueryOptions(in.readOptionalVInt(), in.readBoolean(), in.readOptionalDouble());
            }

            @Override
            public void writeOptions(StreamOutput out, QueryOptions options) throws IOException {
                out.writeOptionalVInt(options.maxDistance());
                out.writeBoolean(options.allowScan());
                out.writeOptionalDouble(options.minSimilarity());
            }

            @Override
            public void optionsToXContent(XContentBuilder builder, QueryOptions options) throws IOException {
                if (options.maxDistance() != null) {
                    builder.field(MaxDistanceParsing.FIELD.getPreferredName(), options.maxDistance());
                }
                builder.field(ALLOW_SCAN_FIELD.getPreferredName(), options.allowScan());
                if (options.minSimilarity() != null) {
                    builder.field(MIN_SIMILARITY_FIELD.getPreferredName(), options.minSimilarity());
                }
            }

            @Override
            public ProbeQueryBuilder.OptionsParser<QueryOptions> optionsParser() {
                return new ProbeQueryBuilder.OptionsParser<>() {
                    private Integer maxDistance;
                    private boolean allowScan = false;
                    private Double minSimilarity;

                    @Override
                    public boolean parse(String current, XContentParser parser) throws IOException {
                        if (MaxDistanceParsing.FIELD.match(current, parser.getDeprecationHandler())) {
                            // any token: null, an object or an array is a 400 that names max_distance's values
                            maxDistance = MaxDistanceParsing.parse(parser, NAME);
                        } else if (parser.currentToken().isValue() && ALLOW_SCAN_FIELD.match(current, parser.getDeprecationHandler())) {
                            allowScan = OptionValues.booleanValue(parser, NAME, current);
                        } else if (MIN_SIMILARITY_FIELD.match(current, parser.getDeprecationHandler())) {
                            minSimilarity = MinHashProbe.parseMinSimilarity(parser, NAME);
                        } else {
                            return false;
                        }
                        return true;
                    }

                    @Override
                    public QueryOptions build(XContentParser parser) {
                        try {
                            return new QueryOptions(maxDistance, allowScan, minSimilarity);
                        } catch (IllegalArgumentException e) {
                            throw new ParsingException(parser.getTokenLocation(), e.getMessage());
                        }
                    }
                };
            }

            @Override
            public String unresolved() {
                return "[like] document not fetched yet";
            }

            @Override
            public String rewriteFirst() {
                return "to fetch its [like] document";
            }

            @Override
            public SimHashFieldMapper.SimHashFieldType targetField(QueryShardContext context, String field, String owner) {
                return simHashField(context, field, owner);
            }

            /**
             * Up to the mapping's max_distance the block keys answer; beyond it a scan of every fingerprint, allowed by
             * allow_scan or, without it, when the node's column cache can answer (the column scan, see docs/performance.md).
             */
            @Override
            public Query toQuery(
                QueryShardContext context,
                String field,
                SimHashFieldMapper.SimHashFieldType fieldType,
                SimHashProbe probe,
                QueryOptions options
            ) {
                String name = NAME;
                Resolved probes = probe.resolveAll(context, "[" + name + "]", fieldType);
                SimHashQuery.Verification verification = verification(context, fieldType, options.minSimilarity());
                int indexed = fieldType.indexedMaxDistance();
                int k = MaxDistance.orField(options.maxDistance(), indexed, fieldType.settings());
                boolean scan = k > indexed;
                if (scan && options.allowScan() == false && fieldType.scanColumns() == null) {
                    throw new QueryShardException(
                        context,
                        "["
                            + name
                            + "] max_distance ["
                            + k
                            + "] exceeds the indexed max_distance ["
                            + indexed
                            + "] of field ["
                            + field
                            + "]; the index can only answer distances up to "
                            + indexed
                            + ". Set [allow_scan] to true to compare every "
                            + "document's fingerprint (exact but slow), or reindex with a larger [max_distance]"
                    );
                }
                try {
                    // refuses, before building anything, more probe keys than SimHashQuery.MAX_QUERY_PROBE_KEYS
                    SimHashQuery query = new SimHashQuery(
                        fieldType.name(),
                        probes.fingerprints(),
                        probes.signatures(),
                        verification,
                        k,
                        fieldType.layout(),
                        scan
                    ).withColumns(fieldType.scanColumns())
                        .withChanceNote(chanceNote(context, fieldType.algorithm(), k, verification, probes))
                        .withListener(fieldType.queryListener());
                    if (fieldType.stats() != null) {
                        fieldType.stats().query();
                    }
                    return query;
                } catch (IllegalArgumentException e) {
                    throw new QueryShardException(context, "[" + name + "] " + e.getMessage(), e);
                }
            }
        };

    /** The {@code near_duplicate} rescorer's part: {@code max_distance} (null: the mapping's) and the Hamming distance. */
    public static final ProbeRescoring<SimHashProbe, Integer> RESCORING = new ProbeRescoring<>() {
        @Override
        public ProbeKind<SimHashProbe> kind() {
            return KIND;
        }

        @Override
        public Integer defaultThreshold() {
            return null;
        }

        /** Any value 0..64 works (the rescorer reads doc values). */
        @Override
        public Integer checkThreshold(Integer maxDistance) {
            return MaxDistance.checkOptional(maxDistance, NAME);
        }

        @Override
        public Integer readThreshold(StreamInput in) throws IOException {
            return in.readOptionalVInt();
        }

        @Override
        public void writeThreshold(StreamOutput out, Integer maxDistance) throws IOException {
            out.writeOptionalVInt(maxDistance);
        }

        @Override
        public void thresholdToXContent(XContentBuilder builder, Integer maxDistance) throws IOException {
            if (maxDistance != null) {
                builder.field(MaxDistanceParsing.FIELD.getPreferredName(), maxDistance);
            }
        }

        /** Any token: null, an object or an array is a 400 that names max_distance's values. */
        @Override
        public boolean isThreshold(String current, XContentParser parser) {
            return MaxDistanceParsing.FIELD.match(current, parser.getDeprecationHandler());
        }

        @Override
        public Integer parseThreshold(XContentParser parser) throws IOException {
            int maxDistance = MaxDistanceParsing.parse(parser, NAME);
            try {
                return checkThreshold(maxDistance);
            } catch (IllegalArgumentException e) {
                throw new ParsingException(parser.getTokenLocation(), e.getMessage());
            }
        }

        @Override
        public ProbeRescoring.Closeness closeness(QueryShardContext context, String field, SimHashProbe probe, Integer maxDistance) {
            String owner = "[" + NAME + "] rescorer";
            SimHashFieldMapper.SimHashFieldType fieldType = simHashField(context, field, owner);
            if (fieldType == null) {
                throw new QueryShardException(
                    context,
                    owner + " requires a field of type [" + SimHashFieldMapper.CONTENT_TYPE + "], but field [" + field + "] is not mapped"
                );
            }
            SimHash sketch = probe.resolve(context, "[" + NAME + "]", fieldType);
            int k = MaxDistance.orField(maxDistance, fieldType.indexedMaxDistance(), fieldType.settings());
            SimHashQuery.Verification verification = verification(context, fieldType, null);
            // a probe without signature (a bare fingerprint) is compared on its fingerprint alone
            boolean verifying = verification != null && sketch.signature() != null;
            return new SimHashProbe.Closeness(
                fieldType.name(),
                sketch.fingerprint(),
                k,
                verifying ? verification : null,
                verifying ? sketch.signature() : null
            );
        }
    };

    /**
     * A shard's comparison of its hits with a resolved fingerprint: {@code 1 / (1 + distance)} within
     * {@code max_distance} and, for a field that verifies, with a signature similarity of at least the field's
     * {@code min_similarity}; read from the doc values (no index lookup, so any distance 0..64 works).
     */
    public record Closeness(String field, long fingerprint, int maxDistance, SimHashQuery.Verification verification, byte[] signature)
        implements
            ProbeRescoring.Closeness {
        public Closeness(String field, long fingerprint, int maxDistance) {
            this(field, fingerprint, maxDistance, null, null);
        }

        @Override
        public String rescorer() {
            return RESCORING.name();
        }

        @Override
        public String closenessName() {
            return "closeness";
        }

        /** The hit's signature similarity to the probe's, or NaN when it has none (never verified). */
        private double similarity(BinaryDocValues signatures, int doc) throws IOException {
            if (signatures == null || signatures.advanceExact(doc) == false) {
                return Double.NaN;
            }
            BytesRef value = signatures.binaryValue();
            if (value.length != Signature.BYTES) {
                return Double.NaN;
            }
            return Signature.similarity(signature, java.util.Arrays.copyOfRange(value.bytes, value.offset, value.offset + value.length));
        }

        private BinaryDocValues signatures(LeafReaderContext leaf) throws IOException {
            return verification == null ? null : leaf.reader().getBinaryDocValues(verification.signatureField());
        }

        /** NaN: the hit has no signature, and is compared on its fingerprint alone. */
        private boolean verified(double similarity) {
            return verification == null
                || Double.isNaN(similarity)
                || Signature.similarity(Signature.minAgreeing(verification.minSimilarity())) <= similarity;
        }

        @Override
        public ProbeRescoring.LeafCloseness leaf(LeafReaderContext leaf) throws IOException {
            NumericDocValues values = leaf.reader().getNumericDocValues(field);
            BinaryDocValues signatures = signatures(leaf);
            return doc -> {
                if (values == null || values.advanceExact(doc) == false) {
                    return Float.NaN;
                }
                int distance = Fingerprints.distance(values.longValue(), fingerprint);
                if (distance > maxDistance) {
                    return Float.NaN;
                }
                if (verification != null && verified(similarity(signatures, doc)) == false) {
                    return Float.NaN;
                }
                return SimHashQuery.closeness(distance);
            };
        }

        @Override
        public ProbeRescoring.HitCheck check(LeafReaderContext leaf, int segmentDoc) throws IOException {
            NumericDocValues values = leaf.reader().getNumericDocValues(field);
            if (values == null || values.advanceExact(segmentDoc) == false) {
                return new ProbeRescoring.HitCheck(false, null, null, "no fingerprint in field [" + field + "]");
            }
            int distance = Fingerprints.distance(values.longValue(), fingerprint);
            boolean within = distance <= maxDistance;
            String why = "hamming distance "
                + distance
                + (within ? " <= " : " > ")
                + maxDistance
                + " to probe "
                + Fingerprints.toHex(fingerprint);
            if (within && verification != null) {
                double similarity = similarity(signatures(leaf), segmentDoc);
                within = verified(similarity);
                why += Double.isNaN(similarity)
                    ? ", not verified: the hit has no signature"
                    : String.format(
                        java.util.Locale.ROOT,
                        ", signature similarity %.3f %s %s",
                        similarity,
                        within ? ">=" : "<",
                        verification.minSimilarity()
                    );
            }
            return new ProbeRescoring.HitCheck(
                within,
                Explanation.match(SimHashQuery.closeness(distance), "1 / (1 + " + distance + ")"),
                "1 / (1 + distance)",
                why
            );
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Closeness c
                && c.field.equals(field)
                && c.fingerprint == fingerprint
                && c.maxDistance == maxDistance
                && Objects.equals(c.verification, verification)
                && java.util.Arrays.equals(c.signature, signature);
        }

        @Override
        public int hashCode() {
            return Objects.hash(field, fingerprint, maxDistance, verification, java.util.Arrays.hashCode(signature));
        }
    }

    /** Collects probe keys while an enclosing object is parsed. */
    public static final class Parser extends Probe.Parser<Given, SimHashProbe> {
        public Parser() {
            super(METHOD);
        }
    }
}
