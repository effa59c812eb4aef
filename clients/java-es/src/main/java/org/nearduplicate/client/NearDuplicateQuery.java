package org.nearduplicate.client;

import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.search.Hit;
import co.elastic.clients.elasticsearch.core.search.Rescore;
import co.elastic.clients.json.JsonData;
import co.elastic.clients.json.JsonpMapper;
import co.elastic.clients.json.JsonpSerializable;
import co.elastic.clients.json.jackson.JacksonJsonpMapper;
import co.elastic.clients.util.ObjectBuilder;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonGenerator;
import java.io.StringWriter;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * The near-duplicate plugin's {@code near_duplicate} query for elasticsearch-java's typed API.
 *
 * <pre>{@code
 * NearDuplicateQuery nearDuplicate = NearDuplicateQuery.of(q -> q.field("simhash").fingerprint("8f3a0c11d2e4b607").maxDistance(3));
 * SearchResponse<Page> response = client.search(s -> s.index("pages").query(nearDuplicate.toQuery()), Page.class);
 * int distance = NearDuplicateQuery.distance(response.hits().hits().get(0)).getAsInt();
 * }</pre>
 *
 * elasticsearch-java's {@link Query} and {@link Rescore} are open unions: a plugin's query or rescorer goes in as a
 * custom variant ({@code _custom(name, body)}), which the client writes as {@code {"near_duplicate": body}}. So
 * {@link #toQuery()} works wherever a {@code Query} goes (bool clauses, constant_score, count, msearch), and
 * {@link #toRescore} makes the {@code near_duplicate} rescorer with the same probe. (The OpenSearch twin in clients/java
 * has to use the {@code wrapper} query instead: opensearch-java's {@code Query} is closed.)
 */
public final class NearDuplicateQuery implements JsonpSerializable {
    /** The query's and the rescorer's name in the search DSL. */
    public static final String NAME = "near_duplicate";
    /** The hit field in which the plugin reports each hit's Hamming distance to the probe. */
    public static final String DISTANCE_FIELD = "_near_duplicate_distance";

    private static final JsonpMapper DEFAULT_MAPPER = new JacksonJsonpMapper();

    private final String field;
    private final String fingerprint;
    private final String algorithm;
    private final String likeIndex;
    private final String likeId;
    private final String likeRouting;
    private final String text;
    private final String html;
    private final Integer maxDistance;
    private final Boolean allowScan;
    private final Boolean ignoreUnmapped;
    private final Float boost;
    private final String queryName;

    private NearDuplicateQuery(Builder builder) {
        this.field = Objects.requireNonNull(builder.field, "near_duplicate needs a field");
        int probes = (builder.fingerprint != null ? 1 : 0) + (builder.likeId != null ? 1 : 0) + (builder.text != null ? 1 : 0)
            + (builder.html != null ? 1 : 0);
        if (probes != 1) {
            throw new IllegalStateException("near_duplicate needs exactly one of fingerprint, like, text or html; got " + probes);
        }
        if (builder.algorithm != null && builder.fingerprint == null) {
            throw new IllegalStateException("near_duplicate's algorithm only goes with a fingerprint");
        }
        this.fingerprint = builder.fingerprint;
        this.algorithm = builder.algorithm;
        this.likeIndex = builder.likeIndex;
        this.likeId = builder.likeId;
        this.likeRouting = builder.likeRouting;
        this.text = builder.text;
        this.html = builder.html;
        this.maxDistance = builder.maxDistance;
        this.allowScan = builder.allowScan;
        this.ignoreUnmapped = builder.ignoreUnmapped;
        this.boost = builder.boost;
        this.queryName = builder.queryName;
    }

    public static NearDuplicateQuery of(Function<Builder, ObjectBuilder<NearDuplicateQuery>> fn) {
        return fn.apply(new Builder()).build();
    }

    /** This query as an elasticsearch-java {@link Query} (the custom variant {@value #NAME}), for any place the typed API takes one. */
    public Query toQuery() {
        JsonpSerializable body = (generator, mapper) -> writeBody(generator, null);
        return Query.of(q -> q._custom(NAME, body));
    }

    /**
     * The {@code near_duplicate} rescorer with this probe, as an elasticsearch-java {@link Rescore}: the window and the
     * rescorer's own options (score_mode, query_weight, rescore_weight) come from {@code options}. Only the probe, the
     * field and max_distance of this query apply to the rescorer (boost, _name, allow_scan and ignore_unmapped are the
     * query's).
     */
    public Rescore toRescore(Function<RescoreOptions, RescoreOptions> options) {
        RescoreOptions rescore = options.apply(new RescoreOptions());
        JsonpSerializable body = (generator, mapper) -> writeBody(generator, rescore);
        return Rescore.of(r -> r.windowSize(rescore.windowSize)._custom(NAME, body));
    }

    /**
     * The Hamming distance the plugin reported for a hit of a search with a {@code near_duplicate} query or rescorer
     * ({@value #DISTANCE_FIELD}); empty when the hit carries none (e.g. it matched only other clauses).
     */
    public static OptionalInt distance(Hit<?> hit) {
        JsonData values = hit.fields().get(DISTANCE_FIELD);
        if (values == null) {
            return OptionalInt.empty();
        }
        JsonValue json = values.toJson(DEFAULT_MAPPER);
        JsonValue first = json instanceof JsonArray array ? array.get(0) : json;
        return OptionalInt.of(((JsonNumber) first).intValueExact());
    }

    /** Writes {@code {"near_duplicate": {...}}}, the query clause as the node reads it. */
    @Override
    public void serialize(JsonGenerator generator, JsonpMapper mapper) {
        generator.writeStartObject();
        generator.writeKey(NAME);
        writeBody(generator, null);
        generator.writeEnd();
    }

    /** The query clause as JSON: {@code {"near_duplicate": {...}}}. */
    public String toJsonString() {
        StringWriter out = new StringWriter();
        try (JsonGenerator generator = DEFAULT_MAPPER.jsonProvider().createGenerator(out)) {
            serialize(generator, DEFAULT_MAPPER);
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return toJsonString();
    }

    /** The object inside {@code "near_duplicate"}: the query's options, or (rescore not null) the rescorer's. */
    private void writeBody(JsonGenerator generator, RescoreOptions rescore) {
        generator.writeStartObject();
        generator.write("field", field);
        if (fingerprint != null) {
            generator.write("fingerprint", fingerprint);
            if (algorithm != null) {
                generator.write("algorithm", algorithm);
            }
        }
        if (likeId != null) {
            generator.writeStartObject("like");
            if (likeIndex != null) {
                generator.write("_index", likeIndex);
            }
            generator.write("_id", likeId);
            if (likeRouting != null) {
                generator.write("routing", likeRouting);
            }
            generator.writeEnd();
        }
        if (text != null) {
            generator.write("text", text);
        }
        if (html != null) {
            generator.write("html", html);
        }
        if (maxDistance != null) {
            generator.write("max_distance", maxDistance);
        }
        if (rescore == null) {
            if (allowScan != null) {
                generator.write("allow_scan", allowScan);
            }
            if (ignoreUnmapped != null) {
                generator.write("ignore_unmapped", ignoreUnmapped);
            }
            if (boost != null) {
                generator.write("boost", boost);
            }
            if (queryName != null) {
                generator.write("_name", queryName);
            }
        } else {
            if (rescore.scoreMode != null) {
                generator.write("score_mode", rescore.scoreMode);
            }
            if (rescore.queryWeight != null) {
                generator.write("query_weight", rescore.queryWeight);
            }
            if (rescore.rescoreWeight != null) {
                generator.write("rescore_weight", rescore.rescoreWeight);
            }
        }
        generator.writeEnd();
    }

    /** The {@code near_duplicate} rescorer's own options; unset ones take the node's defaults. */
    public static final class RescoreOptions {
        private Integer windowSize;
        private String scoreMode;
        private Float queryWeight;
        private Float rescoreWeight;

        /** The number of top hits per shard the rescorer sees. */
        public RescoreOptions windowSize(int windowSize) {
            this.windowSize = windowSize;
            return this;
        }

        /** How the closeness 1 / (1 + distance) combines with the query's score; {@code filter} keeps only near-duplicates. */
        public RescoreOptions scoreMode(String scoreMode) {
            this.scoreMode = scoreMode;
            return this;
        }

        public RescoreOptions queryWeight(float queryWeight) {
            this.queryWeight = queryWeight;
            return this;
        }

        public RescoreOptions rescoreWeight(float rescoreWeight) {
            this.rescoreWeight = rescoreWeight;
            return this;
        }
    }

    /** Builds a {@link NearDuplicateQuery}: a field and exactly one probe (fingerprint, like, text or html). */
    public static final class Builder implements ObjectBuilder<NearDuplicateQuery> {
        private String field;
        private String fingerprint;
        private String algorithm;
        private String likeIndex;
        private String likeId;
        private String likeRouting;
        private String text;
        private String html;
        private Integer maxDistance;
        private Boolean allowScan;
        private Boolean ignoreUnmapped;
        private Float boost;
        private String queryName;

        /** The {@code simhash} field to search. */
        public Builder field(String field) {
            this.field = field;
            return this;
        }

        /** The probe fingerprint as the plugin writes it: 16 hex digits (or {@code 0x} hex). */
        public Builder fingerprint(String fingerprint) {
            this.fingerprint = fingerprint;
            return this;
        }

        /** The probe fingerprint as a 64-bit value (sent as 16 hex digits). */
        public Builder fingerprint(long fingerprint) {
            this.fingerprint = String.format("%016x", fingerprint);
            return this;
        }

        /** The algorithm string the fingerprint was made with; the field refuses any other than its own. */
        public Builder algorithm(String algorithm) {
            this.algorithm = algorithm;
            return this;
        }

        /** Probe with the fingerprint of an indexed document. */
        public Builder like(String index, String id) {
            this.likeIndex = index;
            this.likeId = id;
            return this;
        }

        /** Probe with the fingerprint of an indexed document stored with a custom routing. */
        public Builder like(String index, String id, String routing) {
            like(index, id);
            this.likeRouting = routing;
            return this;
        }

        /** Probe with text, fingerprinted on the node with the field's own algorithm. */
        public Builder text(String text) {
            this.text = text;
            return this;
        }

        /** Probe with HTML, whose main content the node fingerprints with the field's own algorithm. */
        public Builder html(String html) {
            this.html = html;
            return this;
        }

        /** k: the largest Hamming distance that matches (0-64; the node's default is 12, or the field's max_distance if smaller). */
        public Builder maxDistance(int maxDistance) {
            this.maxDistance = maxDistance;
            return this;
        }

        /** Allow an exact doc-values scan for k above the field's max_distance. */
        public Builder allowScan(boolean allowScan) {
            this.allowScan = allowScan;
            return this;
        }

        /** Match nothing instead of failing where the field is not mapped. */
        public Builder ignoreUnmapped(boolean ignoreUnmapped) {
            this.ignoreUnmapped = ignoreUnmapped;
            return this;
        }

        public Builder boost(float boost) {
            this.boost = boost;
            return this;
        }

        /** The name reported in a hit's matched_queries. */
        public Builder queryName(String queryName) {
            this.queryName = queryName;
            return this;
        }

        @Override
        public NearDuplicateQuery build() {
            return new NearDuplicateQuery(this);
        }
    }
}
