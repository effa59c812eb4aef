package org.nearduplicate.opensearch.action.groups;

import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;

import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.single.shard.TransportSingleShardAction;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.metadata.IndexNameExpressionResolver;
import org.opensearch.cluster.routing.ShardsIterator;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.inject.Inject;
import org.opensearch.common.lucene.Lucene;
import org.opensearch.core.common.io.stream.Writeable;
import org.opensearch.core.index.shard.ShardId;
import org.opensearch.index.IndexService;
import org.opensearch.index.engine.Engine;
import org.opensearch.index.fieldvisitor.FieldsVisitor;
import org.opensearch.index.mapper.MappedFieldType;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.index.query.QueryShardContext;
import org.opensearch.index.query.Rewriteable;
import org.opensearch.index.shard.IndexShard;
import org.opensearch.indices.IndicesService;
import org.opensearch.search.internal.AliasFilter;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.TransportService;

import java.io.IOException;
import java.util.Arrays;

import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.nearduplicate.opensearch.sketching.SketchingService;

/**
 * Reads one shard's fingerprints from the {@code simhash} field's doc values, one forward pass per segment: all of
 * them (sorted), or only the documents holding one of the wanted fingerprints, with {@code _id} and routing. Only the
 * documents a search through the request's index or alias would see are read (a filtered alias's filter applies).
 * What a pass builds is reserved in the {@code near_duplicate} breaker before it is allocated, so a shard too large
 * for the node's budget answers 429 first.
 */
public class TransportSimHashShardFingerprintsAction extends TransportSingleShardAction<
    SimHashShardFingerprintsRequest,
    SimHashShardFingerprintsResponse> {

    private final IndicesService indicesService;
    private final SketchingService engine;

    @Inject
    public TransportSimHashShardFingerprintsAction(
        ClusterService clusterService,
        TransportService transportService,
        IndicesService indicesService,
        ThreadPool threadPool,
        ActionFilters actionFilters,
        IndexNameExpressionResolver indexNameExpressionResolver,
        SketchingService engine
    ) {
        super(
            SimHashShardFingerprintsAction.NAME,
            threadPool,
            clusterService,
            transportService,
            actionFilters,
            indexNameExpressionResolver,
            SimHashShardFingerprintsRequest::new,
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
    protected Writeable.Reader<SimHashShardFingerprintsResponse> getResponseReader() {
        return SimHashShardFingerprintsResponse::new;
    }

    @Override
    protected boolean resolveIndex(SimHashShardFingerprintsRequest request) {
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
    protected SimHashShardFingerprintsResponse shardOperation(SimHashShardFingerprintsRequest request, ShardId shardId) throws IOException {
        IndexService indexService = indicesService.indexServiceSafe(shardId.getIndex());
        IndexShard shard = indexService.getShard(shardId.id());
        SimHashFieldMapper.SimHashFieldType type = simHashField(shard, request.field());
        String field = type.name();
        // what the pass builds is reserved as it grows; the coordinator reserves the answer again when it arrives
        try (
            Engine.Searcher searcher = shard.acquireSearcher("near_duplicate_groups");
            Reservation reservation = new Reservation(engine.breaker(), "near_duplicate groups")
        ) {
            Visible visible = new Visible(indexService, shardId, searcher, request.aliasFilter());
            if (request.members() == null) {
                reservation.reserve(8L * searcher.getIndexReader().maxDoc(), "fingerprints of " + shardId);
                return new SimHashShardFingerprintsResponse(type.algorithm(), allFingerprints(searcher, field, visible));
            }
            DocList.Builder found = new DocList.Builder(reservation);
            if (request.staleField() != null) {
                stale(searcher, field, request.members(), shard.mapperService().fieldType(request.staleField()), visible, found);
            } else {
                members(searcher, field, request.members(), visible, found);
            }
            return new SimHashShardFingerprintsResponse(type.algorithm(), found.build());
        }
    }

    /**
     * The documents a search through the request's index or alias may see: live ones and, through a filtered alias,
     * only those its filter matches. Asked in increasing document order within a segment.
     */
    static final class Visible {
        private final Weight filter; // null: no alias filter

        Visible(IndexService indexService, ShardId shardId, IndexSearcher searcher, AliasFilter aliasFilter) throws IOException {
            QueryBuilder builder = aliasFilter.getQueryBuilder();
            if (builder == null) {
                filter = null;
                return;
            }
            QueryShardContext context = indexService.newQueryShardContext(shardId.id(), searcher, System::currentTimeMillis, null);
            Query query = context.toQuery(Rewriteable.rewrite(builder, context, true)).query();
            filter = searcher.createWeight(searcher.rewrite(new ConstantScoreQuery(query)), ScoreMode.COMPLETE_NO_SCORES, 1f);
        }

        Bits of(LeafReaderContext leaf) throws IOException {
            Bits live = leaf.reader().getLiveDocs();
            if (filter == null) return live;
            Bits matching = Lucene.asSequentialAccessBits(leaf.reader().maxDoc(), filter.scorerSupplier(leaf));
            if (live == null) return matching;
            return new Bits() {
                @Override
                public boolean get(int doc) {
                    return live.get(doc) && matching.get(doc);
                }

                @Override
                public int length() {
                    return live.length();
                }
            };
        }
    }

    private static long[] allFingerprints(Engine.Searcher searcher, String field, Visible visible) throws IOException {
        long[] out = new long[searcher.getIndexReader().maxDoc()];
        int n = 0;
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            Bits seen = visible.of(leaf);
            NumericDocValues values = DocValues.getNumeric(leaf.reader(), field);
            for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
                if (seen == null || seen.get(doc)) out[n++] = values.longValue();
            }
        }
        Arrays.sort(out, 0, n);
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    /**
     * The write-back's stale pass: visible documents that hold {@code staleField} (doc values) but whose fingerprint is
     * in no group now (or who have none), with {@code _id} and routing; their group fields are to be cleared.
     */
    private static void stale(
        Engine.Searcher searcher,
        String field,
        long[] inGroups,
        MappedFieldType staleField,
        Visible visible,
        DocList.Builder found
    ) throws IOException {
        if (staleField == null) return;
        FieldsVisitor visitor = new FieldsVisitor(false);
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            LeafReader reader = leaf.reader();
            Bits seen = visible.of(leaf);
            DocIdSetIterator holding = DocValues.getSortedSet(reader, staleField.name());
            NumericDocValues values = DocValues.getNumeric(reader, field);
            StoredFields stored = null;
            for (int doc = holding.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = holding.nextDoc()) {
                if (seen != null && seen.get(doc) == false) continue;
                boolean hasFingerprint = values.advanceExact(doc);
                long fp = hasFingerprint ? values.longValue() : 0;
                if (hasFingerprint && Arrays.binarySearch(inGroups, fp) >= 0) continue; // a member: rewritten anyway
                if (stored == null) stored = reader.storedFields();
                add(found, visitor, fp, stored, doc);
            }
        }
    }

    /** Reads a document's {@code _id} and routing from stored fields. */
    private static void add(DocList.Builder found, FieldsVisitor visitor, long fp, StoredFields stored, int doc) throws IOException {
        visitor.reset();
        stored.document(doc, visitor);
        found.add(fp, visitor.id(), visitor.routing());
    }

    private static void members(Engine.Searcher searcher, String field, long[] wanted, Visible visible, DocList.Builder found)
        throws IOException {
        FieldsVisitor visitor = new FieldsVisitor(false);
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            LeafReader reader = leaf.reader();
            Bits seen = visible.of(leaf);
            NumericDocValues values = DocValues.getNumeric(reader, field);
            StoredFields stored = null;
            for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
                if (seen != null && seen.get(doc) == false) continue;
                long fp = values.longValue();
                if (Arrays.binarySearch(wanted, fp) < 0) continue;
                if (stored == null) stored = reader.storedFields();
                add(found, visitor, fp, stored, doc);
            }
        }
    }
}
