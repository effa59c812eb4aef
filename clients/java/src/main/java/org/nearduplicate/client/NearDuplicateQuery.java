package org.nearduplicate.client;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonGenerator;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.function.Function;
import org.opensearch.client.json.JsonData;
import org.opensearch.client.json.JsonpMapper;
import org.opensearch.client.json.PlainJsonSerializable;
import org.opensearch.client.opensearch._types.query_dsl.Query;
import org.opensearch.client.opensearch.core.search.Hit;
import org.opensearch.client.util.ObjectBuilder;

/**
 * The near-duplicate plugin's {@code near_duplicate} query for opensearch-java's typed API.
 *
 * <pre>{@code
 * NearDuplicateQuery nearDuplicate = NearDuplicateQuery.of(q -> q.field("simhash").fingerprint("8f3a0c11d2e4b607").maxDistance(3));
 * SearchResponse<Page> response = client.search(s -> s.index("pages").query(nearDuplicate.toQuery()), Page.class);
 * int distance = NearDuplicateQuery.distance(response.hits().hits().get(0)).getAsInt();
 * }</pre>
 *
 * opensearch-java's {@link Query} is a closed union of the core query kinds, so {@link #toQuery()} sends this query
 * inside OpenSearch's {@code wrapper} query (its JSON, base64-encoded): the node parses it with the plugin's parser,
 * so it works wherever a {@code Query} goes (bool clauses, constant_score, count, msearch).
 */
public final class NearDuplicateQuery implements PlainJsonSerializable {
    /** The hit field in which the plugin reports each hit's Hamming distance to the probe. */
    public static final String DISTANCE_FIELD = "_near_duplicate_distance";

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

    /** This query as an opensearch-java {@link Query}, for any place the typed API takes one. */
    public Query toQuery() {
        String encoded = Base64.getEncoder().encodeToString(toJsonString().getBytes(StandardCharsets.UTF_8));
        return Query.of(q -> q.wrapper(w -> w.query(encoded)));
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
        JsonValue json = values.toJson();
        JsonValue first = json instanceof JsonArray ? ((JsonArray) json).get(0) : json;
        return OptionalInt.of(((JsonNumber) first).intValueExact());
    }

    /** Writes {@code {"near_duplicate": {...}}}, the query clause as the node reads it. */
    @Override
    public void serialize(JsonGenerator generator, JsonpMapper mapper) {
        generator.writeStartObject();
        generator.writeStartObject("near_duplicate");
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
        generator.writeEnd();
        generator.writeEnd();
    }

    @Override
    public String toString() {
        return toJsonString();
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
