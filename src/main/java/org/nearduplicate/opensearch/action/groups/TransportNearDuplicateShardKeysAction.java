package org.nearduplicate.opensearch.action.groups;

import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.single.shard.TransportSingleShardAction;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.metadata.IndexNameExpressionResolver;
import org.opensearch.cluster.routing.ShardsIterator;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.common.io.stream.Writeable;
import org.opensearch.core.index.shard.ShardId;
import org.opensearch.index.IndexService;
import org.opensearch.index.engine.Engine;
import org.opensearch.index.fieldvisitor.FieldsVisitor;
import org.opensearch.index.mapper.MappedFieldType;
import org.opensearch.index.shard.IndexShard;
import org.opensearch.indices.IndicesService;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.TransportService;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one page of a shard's key space from the terms dictionary of the {@code simhash} field: for every key term
 * in the page's range, the live documents in its postings, with their fingerprint (doc values) and {@code _id}. Keys
 * present in several segments are merged.
 */
public class TransportNearDuplicateShardKeysAction extends TransportSingleShardAction<
    NearDuplicateShardKeysRequest,
    NearDuplicateShardKeysResponse> {

    private final IndicesService indicesService;

    @Inject
    public TransportNearDuplicateShardKeysAction(
        ClusterService clusterService,
        TransportService transportService,
        IndicesService indicesService,
        ThreadPool threadPool,
        ActionFilters actionFilters,
        IndexNameExpressionResolver indexNameExpressionResolver
    ) {
        super(
            NearDuplicateShardKeysAction.NAME,
            threadPool,
            clusterService,
            transportService,
            actionFilters,
            indexNameExpressionResolver,
            NearDuplicateShardKeysRequest::new,
            ThreadPool.Names.SEARCH
        );
        this.indicesService = indicesService;
    }

    @Override
    protected boolean isSubAction() {
        return true;
    }

    @Override
    protected Writeable.Reader<NearDuplicateShardKeysResponse> getResponseReader() {
        return NearDuplicateShardKeysResponse::new;
    }

    @Override
    protected boolean resolveIndex(NearDuplicateShardKeysRequest request) {
        return false;
    }

    @Override
    protected ShardsIterator shards(ClusterState state, InternalRequest request) {
        ShardId shardId = request.request().shardId();
        return state.routingTable().shardRoutingTable(shardId).activeInitializingShardsRandomIt();
    }

    @Override
    protected NearDuplicateShardKeysResponse shardOperation(NearDuplicateShardKeysRequest request, ShardId shardId) throws IOException {
        IndexService indexService = indicesService.indexServiceSafe(shardId.getIndex());
        IndexShard shard = indexService.getShard(shardId.id());
        MappedFieldType type = shard.mapperService().fieldType(request.field());
        if (type instanceof SimHashFieldMapper.SimHashFieldType == false) {
            throw new IllegalArgumentException(
                type == null
                    ? "field [" + request.field() + "] is not mapped in index [" + shardId.getIndexName() + "]"
                    : "field [" + request.field() + "] is of type [" + type.typeName() + "], expected [" + SimHashFieldMapper.CONTENT_TYPE + "]"
            );
        }
        BlockLayout layout = ((SimHashFieldMapper.SimHashFieldType) type).layout();
        String field = type.name();
        int c = request.combination();
        if (c < 0 || c >= layout.keyCount()) {
            throw new IllegalArgumentException("combination [" + c + "] out of range for layout " + layout.id());
        }
        BytesRef from = new BytesRef(new byte[] { (byte) c, (byte) request.fromByte() });
        BytesRef to = request.toByte() >= 256 ? new BytesRef(new byte[] { (byte) (c + 1) }) : new BytesRef(new byte[] { (byte) c, (byte) request.toByte() });
        Map<BytesRef, Members> byKey = new HashMap<>();
        long docs = 0;
        try (Engine.Searcher searcher = shard.acquireSearcher("near_duplicate_groups")) {
            FieldsVisitor idVisitor = new FieldsVisitor(false);
            for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
                LeafReader reader = leaf.reader();
                Bits live = reader.getLiveDocs();
                NumericDocValues values = DocValues.getNumeric(reader, field);
                if (request.countDocs()) {
                    for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
                        if (live == null || live.get(doc)) docs++;
                    }
                }
                Terms terms = reader.terms(field);
                if (terms == null) continue;
                TermsEnum te = terms.iterator();
                if (te.seekCeil(from) == TermsEnum.SeekStatus.END) continue;
                // the page's documents of this segment, in doc id order, so that doc values are read forward only
                List<BytesRef> pageKeys = new ArrayList<>();
                List<int[]> pageDocs = new ArrayList<>();
                PostingsEnum postings = null;
                int pageDocCount = 0;
                for (BytesRef term = te.term(); term != null && term.compareTo(to) < 0; term = te.next()) {
                    postings = te.postings(postings, PostingsEnum.NONE);
                    int[] buffer = new int[Math.max(1, te.docFreq())];
                    int n = 0;
                    for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings.nextDoc()) {
                        if (live == null || live.get(doc)) buffer[n++] = doc;
                    }
                    if (n == 0) continue;
                    pageKeys.add(BytesRef.deepCopyOf(term));
                    pageDocs.add(java.util.Arrays.copyOf(buffer, n));
                    pageDocCount += n;
                }
                if (pageDocCount == 0) continue;
                // one key per document per combination: every document of the page appears once
                long[] entries = new long[pageDocCount]; // doc << 32 | key ordinal
                int e = 0;
                for (int k = 0; k < pageDocs.size(); k++) {
                    for (int doc : pageDocs.get(k)) entries[e++] = ((long) doc << 32) | k;
                }
                java.util.Arrays.sort(entries);
                NumericDocValues fps = DocValues.getNumeric(reader, field);
                StoredFields stored = reader.storedFields();
                for (long entry : entries) {
                    int doc = (int) (entry >>> 32);
                    int k = (int) entry;
                    if (fps.advanceExact(doc) == false) continue;
                    long fp = fps.longValue();
                    idVisitor.reset();
                    stored.document(doc, idVisitor);
                    byKey.computeIfAbsent(pageKeys.get(k), x -> new Members()).add(fp, idVisitor.id());
                }
            }
        }
        List<NearDuplicateShardKeysResponse.KeyMembers> out = new ArrayList<>(byKey.size());
        for (Map.Entry<BytesRef, Members> entry : byKey.entrySet()) {
            Members m = entry.getValue();
            if (request.dropSingletons() && m.size < 2) continue;
            out.add(
                new NearDuplicateShardKeysResponse.KeyMembers(
                    BytesRef.deepCopyOf(entry.getKey()).bytes,
                    java.util.Arrays.copyOf(m.fps, m.size),
                    java.util.Arrays.copyOf(m.ids, m.size)
                )
            );
        }
        return new NearDuplicateShardKeysResponse(layout.blocks(), layout.maxDistance(), docs, out);
    }

    private static final class Members {
        long[] fps = new long[2];
        String[] ids = new String[2];
        int size;

        void add(long fp, String id) {
            if (size == fps.length) {
                fps = java.util.Arrays.copyOf(fps, size * 2);
                ids = java.util.Arrays.copyOf(ids, size * 2);
            }
            fps[size] = fp;
            ids[size++] = id;
        }
    }
}
