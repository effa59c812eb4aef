package org.nearduplicate.opensearch.action.groups;

import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.nearduplicate.opensearch.engine.NearDuplicateEngine;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.single.shard.TransportSingleShardAction;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.metadata.IndexNameExpressionResolver;
import org.opensearch.cluster.routing.ShardsIterator;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.common.breaker.CircuitBreaker;
import org.opensearch.core.common.io.stream.Writeable;
import org.opensearch.core.index.shard.ShardId;
import org.opensearch.index.engine.Engine;
import org.opensearch.index.fieldvisitor.FieldsVisitor;
import org.opensearch.index.mapper.MappedFieldType;
import org.opensearch.index.shard.IndexShard;
import org.opensearch.indices.IndicesService;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.TransportService;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads one shard's fingerprints from the {@code simhash} field's doc values, one forward pass per segment: all of
 * them (sorted), or only the documents holding one of the wanted fingerprints, with {@code _id} and routing. The
 * array being built is reserved in the {@code near_duplicate} breaker first, so a shard too large for the node's
 * budget answers 429 before it allocates.
 */
public class TransportNearDuplicateShardFingerprintsAction extends TransportSingleShardAction<
    NearDuplicateShardFingerprintsRequest,
    NearDuplicateShardFingerprintsResponse> {

    private final IndicesService indicesService;
    private final NearDuplicateEngine engine;

    @Inject
    public TransportNearDuplicateShardFingerprintsAction(
        ClusterService clusterService,
        TransportService transportService,
        IndicesService indicesService,
        ThreadPool threadPool,
        ActionFilters actionFilters,
        IndexNameExpressionResolver indexNameExpressionResolver,
        NearDuplicateEngine engine
    ) {
        super(
            NearDuplicateShardFingerprintsAction.NAME,
            threadPool,
            clusterService,
            transportService,
            actionFilters,
            indexNameExpressionResolver,
            NearDuplicateShardFingerprintsRequest::new,
            ThreadPool.Names.SEARCH
        );
        this.indicesService = indicesService;
        this.engine = engine;
    }

    @Override
    protected boolean isSubAction() {
        return true;
    }

    @Override
    protected Writeable.Reader<NearDuplicateShardFingerprintsResponse> getResponseReader() {
        return NearDuplicateShardFingerprintsResponse::new;
    }

    @Override
    protected boolean resolveIndex(NearDuplicateShardFingerprintsRequest request) {
        return false;
    }

    @Override
    protected ShardsIterator shards(ClusterState state, InternalRequest request) {
        ShardId shardId = request.request().shardId();
        return state.routingTable().shardRoutingTable(shardId).activeInitializingShardsRandomIt();
    }

    /** The field's type, or a 400 naming what is wrong with it. */
    static SimHashFieldMapper.SimHashFieldType simHashField(IndexShard shard, String field) {
        MappedFieldType type = shard.mapperService().fieldType(field);
        if (type instanceof SimHashFieldMapper.SimHashFieldType simHash) return simHash;
        throw new IllegalArgumentException(
            type == null
                ? "field [" + field + "] is not mapped in index [" + shard.shardId().getIndexName() + "]"
                : "field [" + field + "] is of type [" + type.typeName() + "], expected [" + SimHashFieldMapper.CONTENT_TYPE + "]"
        );
    }

    @Override
    protected NearDuplicateShardFingerprintsResponse shardOperation(NearDuplicateShardFingerprintsRequest request, ShardId shardId)
        throws IOException {
        IndexShard shard = indicesService.indexServiceSafe(shardId.getIndex()).getShard(shardId.id());
        SimHashFieldMapper.SimHashFieldType type = simHashField(shard, request.field());
        String field = type.name();
        CircuitBreaker breaker = engine.breaker();
        try (Engine.Searcher searcher = shard.acquireSearcher("near_duplicate_groups")) {
            if (request.members() == null) {
                long bytes = 8L * searcher.getIndexReader().maxDoc();
                breaker.addEstimateBytesAndMaybeBreak(bytes, "near_duplicate groups: fingerprints of " + shardId);
                try {
                    return new NearDuplicateShardFingerprintsResponse(type.algorithm(), allFingerprints(searcher, field), null, null);
                } finally {
                    breaker.addWithoutBreaking(-bytes);
                }
            }
            if (request.staleField() != null) {
                return stale(searcher, field, type.algorithm(), request.members(), shard.mapperService().fieldType(request.staleField()));
            }
            return members(searcher, field, type.algorithm(), request.members());
        }
    }

    private static long[] allFingerprints(Engine.Searcher searcher, String field) throws IOException {
        long[] out = new long[searcher.getIndexReader().maxDoc()];
        int n = 0;
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            LeafReader reader = leaf.reader();
            Bits live = reader.getLiveDocs();
            NumericDocValues values = DocValues.getNumeric(reader, field);
            for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
                if (live == null || live.get(doc)) out[n++] = values.longValue();
            }
        }
        Arrays.sort(out, 0, n);
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    /**
     * The write-back's stale pass: live documents that hold {@code staleField} (doc values) but whose fingerprint is in
     * no group now (or who have none), with {@code _id} and routing; their group fields are to be cleared.
     */
    private static NearDuplicateShardFingerprintsResponse stale(
        Engine.Searcher searcher,
        String field,
        String algorithm,
        long[] inGroups,
        MappedFieldType staleField
    ) throws IOException {
        Found found = new Found();
        if (staleField == null) return found.response(algorithm);
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            LeafReader reader = leaf.reader();
            Bits live = reader.getLiveDocs();
            DocIdSetIterator holding = DocValues.getSortedSet(reader, staleField.name());
            NumericDocValues values = DocValues.getNumeric(reader, field);
            StoredFields stored = null;
            for (int doc = holding.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = holding.nextDoc()) {
                if (live != null && live.get(doc) == false) continue;
                boolean hasFingerprint = values.advanceExact(doc);
                long fp = hasFingerprint ? values.longValue() : 0;
                if (hasFingerprint && Arrays.binarySearch(inGroups, fp) >= 0) continue; // a member: rewritten anyway
                if (stored == null) stored = reader.storedFields();
                found.add(fp, stored, doc);
            }
        }
        return found.response(algorithm);
    }

    /** Documents found by a pass: fingerprint, {@code _id} and routing, read from stored fields. */
    private static final class Found {
        private final FieldsVisitor visitor = new FieldsVisitor(false);
        private final List<Long> fps = new ArrayList<>();
        private final List<String> ids = new ArrayList<>();
        private final List<String> routings = new ArrayList<>();

        void add(long fp, StoredFields stored, int doc) throws IOException {
            visitor.reset();
            stored.document(doc, visitor);
            fps.add(fp);
            ids.add(visitor.id());
            routings.add(visitor.routing());
        }

        NearDuplicateShardFingerprintsResponse response(String algorithm) {
            long[] out = new long[fps.size()];
            for (int i = 0; i < out.length; i++) out[i] = fps.get(i);
            return new NearDuplicateShardFingerprintsResponse(algorithm, out, ids.toArray(new String[0]), routings.toArray(new String[0]));
        }
    }

    private static NearDuplicateShardFingerprintsResponse members(Engine.Searcher searcher, String field, String algorithm, long[] wanted)
        throws IOException {
        Found found = new Found();
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            LeafReader reader = leaf.reader();
            Bits live = reader.getLiveDocs();
            NumericDocValues values = DocValues.getNumeric(reader, field);
            StoredFields stored = null;
            for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
                if (live != null && live.get(doc) == false) continue;
                long fp = values.longValue();
                if (Arrays.binarySearch(wanted, fp) < 0) continue;
                if (stored == null) stored = reader.storedFields();
                found.add(fp, stored, doc);
            }
        }
        return found.response(algorithm);
    }
}
