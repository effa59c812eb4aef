package org.nearduplicate.opensearch.index.query.simhash;

import org.apache.lucene.search.Query;

import org.opensearch.core.common.io.stream.StreamInput;

import java.io.IOException;

import org.nearduplicate.core.MaxDistance;
import org.nearduplicate.lucene.SimHashQuery;
import org.nearduplicate.opensearch.common.ShardContext;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.nearduplicate.opensearch.index.query.ProbeKind;
import org.nearduplicate.opensearch.index.query.ProbeQuerying;

/**
 * The {@code near_duplicate} query's part: its options ({@link SimHashQueryOptions}) and the {@link SimHashQuery} of
 * the resolved fingerprints.
 */
public final class SimHashQuerying implements ProbeQuerying<SimHashProbe, SimHashQueryOptions, SimHashFieldMapper.SimHashFieldType> {
    public static final SimHashQuerying INSTANCE = new SimHashQuerying();

    private SimHashQuerying() {}

    @Override
    public ProbeKind<SimHashProbe> kind() {
        return SimHashProbe.KIND;
    }

    @Override
    public SimHashQueryOptions defaultOptions() {
        return SimHashQueryOptions.DEFAULT;
    }

    @Override
    public SimHashQueryOptions readOptions(StreamInput in) throws IOException {
        return SimHashQueryOptions.readFrom(in);
    }

    @Override
    public ProbeQuerying.OptionsParser<SimHashQueryOptions> optionsParser() {
        return new SimHashQueryOptions.Parser();
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
    public SimHashFieldMapper.SimHashFieldType targetField(ShardContext context, String field, String owner) {
        return SimHashProbe.simHashField(context, field, owner);
    }

    /**
     * The probes' candidate keys on the field's candidate-key path, or null when the query has none to read: the field
     * indexes no keys, no probe carries keys (a given fingerprint without them), or {@code min_similarity} asks for
     * fewer agreeing slots than the keys' layout guarantees (below {@code simhash-v7}'s default 0.40), where they would
     * miss verified matches. A query without them answers every segment exactly.
     */
    static SimHashQuery.CandidateKeyProbes candidateKeys(
        SimHashFieldMapper.SimHashFieldType fieldType,
        SimHashQuery.Verification verification,
        SimHashProbe.Resolved probes
    ) {
        SimHashQuery.CandidateKeyPath path = fieldType.field().candidateKeyPath();
        if (path == null || probes.keys() == null || verification == null) return null;
        if (verification.minAgreeing() < path.layout().guaranteedAgreeing()) return null;
        return new SimHashQuery.CandidateKeyProbes(path, probes.keys());
    }

    /**
     * Up to the mapping's max_distance the block keys answer; beyond it a scan of every fingerprint, allowed by
     * allow_scan or, without it, when the node's column cache can answer (the column scan, see docs/performance.md).
     */
    @Override
    public Query toQuery(
        ShardContext context,
        String field,
        SimHashFieldMapper.SimHashFieldType fieldType,
        SimHashProbe probe,
        SimHashQueryOptions options
    ) {
        String name = SimHashProbe.NAME;
        SimHashProbe.Resolved probes = probe.resolveAll(context, "[" + name + "]", fieldType);
        SimHashQuery.Verification verification = SimHashVerification.of(context, fieldType, options.minSimilarity());
        int indexed = fieldType.indexedMaxDistance();
        int k = MaxDistance.orField(options.maxDistance(), indexed, fieldType.settings());
        boolean scan = k > indexed;
        if (scan && options.allowScan() == false && fieldType.scanColumns() == null) {
            throw context.failure(
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
                scan,
                candidateKeys(fieldType, verification, probes)
            ).withExact(options.exact())
                .withColumns(fieldType.scanColumns())
                .withChanceNote(SimHashChanceNote.of(context.indexReader(), fieldType.algorithm(), k, verification, probes))
                .withListener(fieldType.queryListener());
            if (fieldType.stats() != null) {
                fieldType.stats().query();
            }
            return query;
        } catch (IllegalArgumentException e) {
            throw context.failure("[" + name + "] " + e.getMessage(), e);
        }
    }
}
