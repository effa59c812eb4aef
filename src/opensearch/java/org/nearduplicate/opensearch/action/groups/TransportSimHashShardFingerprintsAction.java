package org.nearduplicate.opensearch.action.groups;

import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

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
import org.opensearch.index.mapper.IdFieldMapper;
import org.opensearch.index.mapper.MappedFieldType;
import org.opensearch.index.mapper.MapperService;
import org.opensearch.index.mapper.SeqNoFieldMapper;
import org.opensearch.index.mapper.Uid;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.index.query.Rewriteable;
import org.opensearch.index.shard.IndexShard;
import org.opensearch.indices.IndicesService;
import org.opensearch.search.internal.AliasFilter;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.TransportService;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

import org.nearduplicate.core.groups.WrittenGroup;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.lucene.WrittenGroupValues;
import org.nearduplicate.opensearch.common.Platform;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.nearduplicate.opensearch.sketching.SketchingService;
import org.nearduplicate.orchestration.groups.DocList;
import org.nearduplicate.orchestration.groups.Reservation;
import org.nearduplicate.orchestration.groups.ShardDocValues;
import org.nearduplicate.orchestration.groups.SingletonCandidates;

/**
 * Reads one shard's fingerprints from the {@code simhash} field's doc values, one forward pass per segment: all of
 * them (sorted), or only the documents holding one of the wanted fingerprints, with {@code _id} and routing. For a
 * field that verifies ({@code simhash-v4}), each document's signature goes with its fingerprint (binary doc values of
 * {@link SimHashFieldMapper.SimHashFieldType#signatureField()}), when any document of the shard has one. Only the
 * documents a search through the request's index or alias would see are read (a filtered alias's filter applies).
 * What a pass builds is reserved in the {@code near_duplicate} breaker before it is allocated, so a shard too large
 * for the node's budget answers 429 first.
 */
public class TransportSimHashShardFingerprintsAction extends TransportSingleShardAction<
    SimHashShardFingerprintsRequest,
    SimHashShardFingerprintsResponse> {

    private final IndicesService indicesService;
    private final SketchingService sketching;

    @Inject
    public TransportSimHashShardFingerprintsAction(
        ClusterService clusterService,
        TransportService transportService,
        IndicesService indicesService,
        ThreadPool threadPool,
        ActionFilters actionFilters,
        IndexNameExpressionResolver indexNameExpressionResolver,
        SketchingService sketching
    ) {
        super(
            SimHashShardFingerprintsAction.NAME,
            threadPool,
            clusterService,
            transportService,
            actionFilters,
            indexNameExpressionResolver,
            SimHashShardFingerprintsRequest::new,
            Platform.searchExecutor(threadPool)
        );
        this.indicesService = indicesService;
        this.sketching = sketching;
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
            Reservation reservation = new Reservation(
                GroupsComputation.breaker(sketching.breaker()),
                request.distanceField() != null ? "near_duplicate groups write singletons" : "near_duplicate groups"
            )
        ) {
            Visible visible = new Visible(indexService, shardId, searcher, request.aliasFilter());
            String signatureField = type.verifies() && ShardDocValues.hasField(searcher.getIndexReader(), type.signatureField())
                ? type.signatureField()
                : null;
            if (request.members() == null) {
                int maxDoc = searcher.getIndexReader().maxDoc();
                reservation.reserve((8L + (signatureField == null ? 0 : Signature.BYTES)) * maxDoc, "fingerprints of " + shardId);
                return allFingerprints(type, searcher, field, signatureField, visible);
            }
            if (request.distanceField() != null) {
                return singletonPage(type, searcher, signatureField, request, shard.mapperService(), visible, reservation);
            }
            if (request.staleField() != null) {
                DocList.Builder found = new DocList.Builder(reservation);
                stale(searcher, field, signatureField, request, shard.mapperService().fieldType(request.staleField()), visible, found);
                return new SimHashShardFingerprintsResponse(type.algorithm(), type.verifies(), found.build());
            }
            boolean written = request.writtenGroupField() != null;
            DocList.Builder found = new DocList.Builder(reservation, signatureField != null, written);
            MapperService mappers = shard.mapperService();
            WrittenGroupValues writtenFields = written
                ? new WrittenGroupValues(
                    name(mappers.fieldType(request.writtenGroupField())),
                    name(mappers.fieldType(request.writtenDistanceField()))
                )
                : null;
            members(searcher, field, signatureField, request.members(), visible, found, writtenFields);
            return new SimHashShardFingerprintsResponse(type.algorithm(), type.verifies(), found.build());
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
            var context = Platform.searchContext(indexService, shardId.id(), searcher); // the platform's shard query context
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

    /**
     * Every visible document's fingerprint, sorted by fingerprint then signature, with the signatures beside them when
     * {@code signatureField} is set (zeros for a document without one).
     */
    private static SimHashShardFingerprintsResponse allFingerprints(
        SimHashFieldMapper.SimHashFieldType type,
        Engine.Searcher searcher,
        String field,
        String signatureField,
        Visible visible
    ) throws IOException {
        int maxDoc = searcher.getIndexReader().maxDoc();
        long[] out = new long[maxDoc];
        byte[] signatures = signatureField == null ? null : new byte[Signature.BYTES * maxDoc];
        int n = 0;
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            Bits seen = visible.of(leaf);
            NumericDocValues values = DocValues.getNumeric(leaf.reader(), field);
            BinaryDocValues leafSignatures = signatureField == null ? null : DocValues.getBinary(leaf.reader(), signatureField);
            for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
                if (seen != null && seen.get(doc) == false) continue;
                if (leafSignatures != null && leafSignatures.advanceExact(doc)) {
                    BytesRef value = leafSignatures.binaryValue();
                    if (value.length == Signature.BYTES) {
                        System.arraycopy(value.bytes, value.offset, signatures, Signature.BYTES * n, Signature.BYTES);
                    }
                }
                out[n++] = values.longValue();
            }
        }
        if (signatures == null) {
            Arrays.sort(out, 0, n);
            return new SimHashShardFingerprintsResponse(
                type.algorithm(),
                type.verifies(),
                n == out.length ? out : Arrays.copyOf(out, n),
                null
            );
        }
        ShardDocValues.sortWithSignatures(out, signatures, n);
        return new SimHashShardFingerprintsResponse(
            type.algorithm(),
            true,
            n == out.length ? out : Arrays.copyOf(out, n),
            n == out.length ? signatures : Arrays.copyOf(signatures, Signature.BYTES * n)
        );
    }

    /**
     * The write-back's stale pass: visible documents that hold {@code staleField} (doc values) but whose fingerprint is
     * in no group now (or who have none), with {@code _id} and routing; their group fields are to be cleared. With
     * empty {@code members} (what the write-back sends since every document with a fingerprint gets a group, from the
     * singleton pass when in none): the documents without a fingerprint that hold the field.
     */
    private static void stale(
        Engine.Searcher searcher,
        String field,
        String signatureField,
        SimHashShardFingerprintsRequest request,
        MappedFieldType staleField,
        Visible visible,
        DocList.Builder found
    ) throws IOException {
        if (staleField == null) return;
        long[] inGroups = request.members();
        byte[] memberSignatures = request.memberSignatures();
        FieldsVisitor visitor = new FieldsVisitor(false);
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            LeafReader reader = leaf.reader();
            Bits seen = visible.of(leaf);
            DocIdSetIterator holding = DocValues.getSortedSet(reader, staleField.name());
            NumericDocValues values = DocValues.getNumeric(reader, field);
            BinaryDocValues signatures = signatureField == null ? null : DocValues.getBinary(reader, signatureField);
            StoredFields stored = null;
            for (int doc = holding.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = holding.nextDoc()) {
                if (seen != null && seen.get(doc) == false) continue;
                boolean hasFingerprint = values.advanceExact(doc);
                long fp = hasFingerprint ? values.longValue() : 0;
                if (hasFingerprint && (inGroups.length == 0 || ShardDocValues.isMember(inGroups, memberSignatures, fp, signatures, doc))) {
                    continue; // rewritten anyway (with no members: the singleton pass gives it its own group)
                }
                if (stored == null) stored = reader.storedFields();
                add(found, visitor, fp, stored, doc);
            }
        }
    }

    /** At most how long one singleton page reads before it answers with what it found and where to go on. */
    static final long PAGE_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(1);

    /**
     * One page of the write-back's singleton pass: the visible documents with a fingerprint whose unit is not among the
     * members (compared as {@link #isMember} does for the stale pass) and that do not hold their own {@code _id} as
     * group at distance 0 yet, by increasing {@code _seq_no} from {@code fromSeqNo}, at most {@code limit} of them.
     * Pages follow {@code _seq_no} (points of every document) rather than Lucene document ids, so that merges and the
     * pass's own updates (new sequence numbers above the pass's last one) neither skip nor repeat documents between
     * pages; a page acquires its own searcher and keeps nothing open. The range is read in windows, each a point
     * query per segment in document order; a window that finds more than the page has room for keeps the smallest
     * sequence numbers and the next page starts at the first it left. Documents already right are skipped (a
     * re-run writes nothing for them): the group value is looked up in the segment's {@code _id} terms instead of
     * reading the stored {@code _id}. Everything the page holds is reserved first.
     */
    private static SimHashShardFingerprintsResponse singletonPage(
        SimHashFieldMapper.SimHashFieldType type,
        Engine.Searcher searcher,
        String signatureField,
        SimHashShardFingerprintsRequest request,
        MapperService mappers,
        Visible visible,
        Reservation reservation
    ) throws IOException {
        long to = request.toSeqNo() >= 0 ? request.toSeqNo() : ShardDocValues.maxSeqNo(searcher, SeqNoFieldMapper.NAME);
        long from = Math.max(0, request.fromSeqNo());
        int limit = request.limit();
        DocList.Builder found = new DocList.Builder(reservation);
        MappedFieldType groupType = mappers.fieldType(request.staleField());
        MappedFieldType distanceType = mappers.fieldType(request.distanceField());
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        StoredFields[] stored = new StoredFields[leaves.size()];
        FieldsVisitor visitor = new FieldsVisitor(false);
        SingletonCandidates candidates = new SingletonCandidates(reservation);
        long window = limit;
        long deadline = System.nanoTime() + PAGE_NANOS;
        while (from <= to && found.size() < limit) {
            int room = limit - found.size();
            long end = to - from < window ? to : from + window - 1;
            candidates.clear();
            Weight range = searcher.createWeight(
                searcher.rewrite(LongPoint.newRangeQuery(SeqNoFieldMapper.NAME, from, end)),
                ScoreMode.COMPLETE_NO_SCORES,
                1f
            );
            for (LeafReaderContext leaf : leaves) {
                Scorer scorer = range.scorer(leaf);
                if (scorer == null) continue;
                LeafReader reader = leaf.reader();
                Bits seen = visible.of(leaf);
                NumericDocValues values = DocValues.getNumeric(reader, type.name());
                NumericDocValues seqNos = DocValues.getNumeric(reader, SeqNoFieldMapper.NAME);
                BinaryDocValues signatures = signatureField == null ? null : DocValues.getBinary(reader, signatureField);
                OwnGroup own = new OwnGroup(reader, groupType, distanceType);
                DocIdSetIterator docs = scorer.iterator();
                for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
                    if (seen != null && seen.get(doc) == false) continue;
                    if (values.advanceExact(doc) == false) continue; // no fingerprint: the stale pass's
                    long fp = values.longValue();
                    if (ShardDocValues.isMember(request.members(), request.memberSignatures(), fp, signatures, doc)) continue;
                    if (own.holds(doc)) continue;
                    if (seqNos.advanceExact(doc) == false) continue;
                    candidates.add(seqNos.longValue(), leaf.docBase + doc, fp);
                }
            }
            long next = end + 1;
            if (candidates.size() > room) {
                candidates.sortBySeqNo();
                next = candidates.seqNo(room);
                candidates.truncate(room);
            }
            for (int i = 0; i < candidates.size(); i++) {
                int global = candidates.doc(i);
                int l = ReaderUtil.subIndex(global, leaves);
                if (stored[l] == null) stored[l] = leaves.get(l).reader().storedFields();
                add(found, visitor, candidates.fingerprint(i), stored[l], global - leaves.get(l).docBase);
            }
            if (candidates.size() < room / 2) window = Math.min(2 * window, MAX_WINDOW_PAGES * (long) limit);
            from = next;
            if (System.nanoTime() - deadline > 0) break;
        }
        candidates.release();
        return new SimHashShardFingerprintsResponse(type.algorithm(), type.verifies(), found.build(), from, to);
    }

    /** A singleton page's windows grow up to this many times its limit while they find little. */
    private static final long MAX_WINDOW_PAGES = 64;

    /** Whether a document already holds its own {@code _id} as group (one value) and distance 0 (one value). */
    private static final class OwnGroup {
        private final SortedSetDocValues groups;
        private final SortedNumericDocValues distances;
        private final TermsEnum ids;
        private PostingsEnum postings;

        OwnGroup(LeafReader reader, MappedFieldType groupType, MappedFieldType distanceType) throws IOException {
            groups = groupType == null ? null : DocValues.getSortedSet(reader, groupType.name());
            distances = distanceType == null ? null : DocValues.getSortedNumeric(reader, distanceType.name());
            Terms terms = reader.terms(IdFieldMapper.NAME);
            ids = terms == null ? null : terms.iterator();
        }

        boolean holds(int doc) throws IOException {
            if (groups == null || distances == null || ids == null) return false;
            if (groups.advanceExact(doc) == false || groups.docValueCount() != 1) return false;
            if (distances.advanceExact(doc) == false || distances.docValueCount() != 1 || distances.nextValue() != 0) return false;
            BytesRef group = groups.lookupOrd(groups.nextOrd());
            if (ids.seekExact(Uid.encodeId(group.utf8ToString())) == false) return false;
            postings = ids.postings(postings, PostingsEnum.NONE);
            return postings.advance(doc) == doc;
        }
    }

    /** Reads a document's {@code _id} and routing from stored fields. */
    private static void add(DocList.Builder found, FieldsVisitor visitor, long fp, StoredFields stored, int doc) throws IOException {
        add(found, visitor, fp, null, stored, doc);
    }

    private static void add(DocList.Builder found, FieldsVisitor visitor, long fp, byte[] signature, StoredFields stored, int doc)
        throws IOException {
        visitor.reset();
        stored.document(doc, visitor);
        found.add(fp, signature, visitor.id(), visitor.routing());
    }

    private static void members(
        Engine.Searcher searcher,
        String field,
        String signatureField,
        long[] wanted,
        Visible visible,
        DocList.Builder found,
        WrittenGroupValues written
    ) throws IOException {
        FieldsVisitor visitor = new FieldsVisitor(false);
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            LeafReader reader = leaf.reader();
            Bits seen = visible.of(leaf);
            NumericDocValues values = DocValues.getNumeric(reader, field);
            BinaryDocValues signatures = signatureField == null ? null : DocValues.getBinary(reader, signatureField);
            WrittenGroupValues.Leaf held = written == null ? null : written.leaf(reader);
            StoredFields stored = null;
            for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
                if (seen != null && seen.get(doc) == false) continue;
                long fp = values.longValue();
                if (Arrays.binarySearch(wanted, fp) < 0) continue;
                if (stored == null) stored = reader.storedFields();
                visitor.reset();
                stored.document(doc, visitor);
                found.add(
                    fp,
                    ShardDocValues.signature(signatures, doc),
                    visitor.id(),
                    visitor.routing(),
                    held == null ? WrittenGroup.UNKNOWN : held.state(doc)
                );
            }
        }
    }

    /** A mapped field's name, or null when it is not mapped. */
    private static String name(MappedFieldType type) {
        return type == null ? null : type.name();
    }
}
