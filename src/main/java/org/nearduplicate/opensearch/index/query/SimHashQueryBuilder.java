package org.nearduplicate.opensearch.index.query;

import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;

import org.opensearch.core.ParseField;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.index.query.AbstractQueryBuilder;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.index.query.QueryRewriteContext;
import org.opensearch.index.query.QueryShardContext;
import org.opensearch.index.query.QueryShardException;

import java.io.IOException;
import java.util.Objects;

import org.nearduplicate.core.MaxDistance;
import org.nearduplicate.lucene.SimHashQuery;
import org.nearduplicate.opensearch.common.MaxDistanceParsing;
import org.nearduplicate.opensearch.common.OptionValues;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.nearduplicate.opensearch.sketching.SketchingService;

/**
 * {@code near_duplicate}: documents whose {@code simhash} fingerprint is within {@code max_distance} bits of a probe.
 *
 * <pre>
 * {"near_duplicate": {"field": "fp", "fingerprint": "8f3a...", "max_distance": 3}}
 * {"near_duplicate": {"field": "fp", "like": {"_index": "pages", "_id": "42"}}}
 * </pre>
 *
 * Up to the mapping's {@code max_distance} the block-key index answers; beyond it only with {@code allow_scan: true}
 * (an exact scan of every fingerprint).
 */
public class SimHashQueryBuilder extends AbstractQueryBuilder<SimHashQueryBuilder> {
    public static final String NAME = "near_duplicate";

    public static final ParseField FIELD_FIELD = new ParseField("field");
    public static final ParseField MAX_DISTANCE_FIELD = MaxDistanceParsing.FIELD;
    public static final ParseField ALLOW_SCAN_FIELD = new ParseField("allow_scan");
    public static final ParseField IGNORE_UNMAPPED_FIELD = new ParseField("ignore_unmapped");

    private final String fieldName;
    private final ProbeRewrite<SimHashProbe> probe;
    private Integer maxDistance;
    private boolean allowScan = false;
    private boolean ignoreUnmapped = false;
    /** The node's engine, where the query was parsed or received: fingerprints a text probe once on the coordinator. */
    private SketchingService engine;

    public SimHashQueryBuilder(String fieldName, SimHashProbe probe) {
        if (fieldName == null || fieldName.isEmpty()) {
            throw new IllegalArgumentException("[" + NAME + "] requires [field]");
        }
        this.fieldName = fieldName;
        this.probe = ProbeRewrite.of(Objects.requireNonNull(probe, "probe"));
    }

    /** A copy with the next step of the probe's rewrite (see {@link #doRewrite}). */
    private SimHashQueryBuilder(SimHashQueryBuilder original, ProbeRewrite<SimHashProbe> probe) {
        this.fieldName = original.fieldName;
        this.probe = probe;
        this.maxDistance = original.maxDistance;
        this.allowScan = original.allowScan;
        this.ignoreUnmapped = original.ignoreUnmapped;
        this.engine = original.engine;
        boost(original.boost());
        queryName(original.queryName());
    }

    /** The engine that fingerprints a {@code text}/{@code html} probe on the coordinating node (see {@link #doRewrite}). */
    public SimHashQueryBuilder engine(SketchingService engine) {
        this.engine = engine;
        return this;
    }

    public SimHashQueryBuilder(StreamInput in) throws IOException {
        super(in);
        this.fieldName = in.readString();
        this.probe = ProbeRewrite.of(new SimHashProbe(in));
        this.maxDistance = in.readOptionalVInt();
        this.allowScan = in.readBoolean();
        this.ignoreUnmapped = in.readBoolean();
    }

    @Override
    protected void doWriteTo(StreamOutput out) throws IOException {
        if (probe.isPending()) {
            throw new IllegalStateException(
                "[" + NAME + "] [like] document not fetched yet; the query must be rewritten before it is sent"
            );
        }
        out.writeString(fieldName);
        probe.probe().writeTo(out);
        out.writeOptionalVInt(maxDistance);
        out.writeBoolean(allowScan);
        out.writeBoolean(ignoreUnmapped);
    }

    public String fieldName() {
        return fieldName;
    }

    public SimHashProbe probe() {
        return probe.probe();
    }

    /** The maximum Hamming distance; null means the mapping's {@code max_distance}. */
    public Integer maxDistance() {
        return maxDistance;
    }

    public SimHashQueryBuilder maxDistance(Integer maxDistance) {
        this.maxDistance = MaxDistance.checkOptional(maxDistance, NAME);
        return this;
    }

    public boolean allowScan() {
        return allowScan;
    }

    /** Allows distances beyond the indexed {@code max_distance}, answered by reading every fingerprint. */
    public SimHashQueryBuilder allowScan(boolean allowScan) {
        this.allowScan = allowScan;
        return this;
    }

    public boolean ignoreUnmapped() {
        return ignoreUnmapped;
    }

    /** Whether an index without the field matches nothing (true) or fails the query (false, the default). */
    public SimHashQueryBuilder ignoreUnmapped(boolean ignoreUnmapped) {
        this.ignoreUnmapped = ignoreUnmapped;
        return this;
    }

    @Override
    public String getWriteableName() {
        return NAME;
    }

    @Override
    protected void doXContent(XContentBuilder builder, Params params) throws IOException {
        builder.startObject(NAME);
        builder.field(FIELD_FIELD.getPreferredName(), fieldName);
        probe.probe().toXContentFields(builder);
        if (maxDistance != null) {
            builder.field(MAX_DISTANCE_FIELD.getPreferredName(), maxDistance);
        }
        builder.field(ALLOW_SCAN_FIELD.getPreferredName(), allowScan);
        builder.field(IGNORE_UNMAPPED_FIELD.getPreferredName(), ignoreUnmapped);
        printBoostAndQueryName(builder);
        builder.endObject();
    }

    public static SimHashQueryBuilder fromXContent(XContentParser parser) throws IOException {
        String field = null;
        Integer maxDistance = null;
        boolean allowScan = false;
        boolean ignoreUnmapped = false;
        float boost = DEFAULT_BOOST;
        String queryName = null;
        SimHashProbe.Parser probeParser = new SimHashProbe.Parser();
        String current = null;
        XContentParser.Token token;
        if (parser.currentToken() != XContentParser.Token.START_OBJECT) {
            throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] query malformed, expected an object");
        }
        while ((token = parser.nextToken()) != XContentParser.Token.END_OBJECT) {
            if (token == XContentParser.Token.FIELD_NAME) {
                current = parser.currentName();
            } else if (probeParser.parse(current, parser)) {
                // consumed
            } else if (MAX_DISTANCE_FIELD.match(current, parser.getDeprecationHandler())) {
                // before the value check: null, an object or an array is a 400 that names max_distance's values
                maxDistance = MaxDistanceParsing.parse(parser, NAME);
            } else if (token.isValue() == false) {
                throw new ParsingException(
                    parser.getTokenLocation(),
                    "[" + NAME + "] query does not support [" + current + "] with an object or array value"
                );
            } else if (FIELD_FIELD.match(current, parser.getDeprecationHandler())) {
                field = parser.text();
            } else if (ALLOW_SCAN_FIELD.match(current, parser.getDeprecationHandler())) {
                allowScan = OptionValues.booleanValue(parser, NAME, current);
            } else if (IGNORE_UNMAPPED_FIELD.match(current, parser.getDeprecationHandler())) {
                ignoreUnmapped = OptionValues.booleanValue(parser, NAME, current);
            } else if (BOOST_FIELD.match(current, parser.getDeprecationHandler())) {
                boost = OptionValues.floatValue(parser, NAME, current);
            } else if (NAME_FIELD.match(current, parser.getDeprecationHandler())) {
                queryName = parser.text();
            } else {
                throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] query does not support [" + current + "]");
            }
        }
        if (field == null) {
            throw new ParsingException(parser.getTokenLocation(), "[" + NAME + "] requires [field]");
        }
        SimHashQueryBuilder builder = new SimHashQueryBuilder(field, probeParser.build(parser, NAME));
        try {
            builder.maxDistance(maxDistance);
        } catch (IllegalArgumentException e) {
            throw new ParsingException(parser.getTokenLocation(), e.getMessage());
        }
        return builder.allowScan(allowScan).ignoreUnmapped(ignoreUnmapped).boost(boost).queryName(queryName);
    }

    @Override
    protected QueryBuilder doRewrite(QueryRewriteContext queryRewriteContext) throws IOException {
        ProbeRewrite<SimHashProbe> next = probe.rewrite(queryRewriteContext, fieldName, engine, "[" + NAME + "]");
        return next == probe ? this : new SimHashQueryBuilder(this, next);
    }

    @Override
    protected Query doToQuery(QueryShardContext context) throws IOException {
        if (probe.mustRewrite()) {
            throw new IllegalStateException("[" + NAME + "] query must be rewritten first to fetch its [like] document");
        }
        SimHashFieldMapper.SimHashFieldType fieldType = SimHashProbe.simHashField(context, fieldName, "[" + NAME + "]");
        if (fieldType == null) {
            if (ignoreUnmapped) {
                return new MatchNoDocsQuery("[" + NAME + "] field [" + fieldName + "] is not mapped");
            }
            throw new QueryShardException(
                context,
                "[" + NAME + "] failed to find field [" + fieldName + "]; set [ignore_unmapped] to match nothing instead"
            );
        }
        long[] fingerprints = probe.probe().resolveAll(context, "[" + NAME + "]", fieldType);
        int indexed = fieldType.indexedMaxDistance();
        int k = MaxDistance.orField(maxDistance, indexed, fieldType.settings());
        boolean scan = k > indexed;
        if (scan && allowScan == false) {
            throw new QueryShardException(
                context,
                "["
                    + NAME
                    + "] max_distance ["
                    + k
                    + "] exceeds the indexed max_distance ["
                    + indexed
                    + "] of field ["
                    + fieldName
                    + "]; the index can only answer distances up to "
                    + indexed
                    + ". Set [allow_scan] to true to compare every "
                    + "document's fingerprint (exact but slow), or reindex with a larger [max_distance]"
            );
        }
        try {
            // refuses, before building anything, more probe keys than SimHashQuery.MAX_QUERY_PROBE_KEYS
            return new SimHashQuery(fieldType.name(), fingerprints, k, fieldType.layout(), scan);
        } catch (IllegalArgumentException e) {
            throw new QueryShardException(context, "[" + NAME + "] " + e.getMessage(), e);
        }
    }

    @Override
    protected boolean doEquals(SimHashQueryBuilder other) {
        return fieldName.equals(other.fieldName)
            && probe.equals(other.probe)
            && Objects.equals(maxDistance, other.maxDistance)
            && allowScan == other.allowScan
            && ignoreUnmapped == other.ignoreUnmapped;
    }

    @Override
    protected int doHashCode() {
        return Objects.hash(fieldName, probe, maxDistance, allowScan, ignoreUnmapped);
    }
}
