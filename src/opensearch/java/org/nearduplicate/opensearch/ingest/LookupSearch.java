package org.nearduplicate.opensearch.ingest;

import org.opensearch.ExceptionsHelper;
import org.opensearch.action.search.SearchRequest;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.action.support.IndicesOptions;
import org.opensearch.common.document.DocumentField;
import org.opensearch.common.xcontent.support.XContentMapValues;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.index.IndexNotFoundException;
import org.opensearch.index.query.BoolQueryBuilder;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.search.SearchHit;
import org.opensearch.search.builder.SearchSourceBuilder;
import org.opensearch.threadpool.Scheduler;
import org.opensearch.transport.client.Client;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.core.sketch.SketchValues;
import org.nearduplicate.opensearch.common.FingerprintValues;
import org.nearduplicate.opensearch.index.query.SimHashProbe;
import org.nearduplicate.opensearch.index.query.SimHashQueryBuilder;

/**
 * The {@code near_duplicate} searches of a {@code near_duplicate_check}: builds one search per group of lookups (same
 * target, k and algorithm), sends it under {@link LookupAdmission}, and answers each lookup with the closest hit or
 * what its window found, whichever is closer.
 */
final class LookupSearch {
    /** Hits a batched search returns per document it looks up (beyond that, its documents are looked up one by one). */
    static final int HITS_PER_BATCHED_DOCUMENT = 10;
    /** The default {@code index.max_result_window}: a batched search never asks for more hits. */
    static final int MAX_BATCH_HITS = 10_000;

    private final CheckOptions options;
    private final Client client;
    private final LookupAdmission admission;

    LookupSearch(CheckOptions options, Client client, LookupAdmission admission) {
        this.options = options;
        this.client = client;
        this.admission = admission;
    }

    /** Sends one search for {@code lookups} (same target index, k and algorithm), under the timeout and the in-flight cap. */
    void dispatch(List<Lookup> lookups) {
        admission.admit(new Searches(lookups));
    }

    /** A search admitted under the cap, for the lookups that share it. */
    private final class Searches implements LookupAdmission.Task {
        private final List<Lookup> lookups;

        Searches(List<Lookup> lookups) {
            this.lookups = lookups;
        }

        @Override
        public boolean abandoned() {
            return lookups.stream().allMatch(Lookup::done);
        }

        @Override
        public void start(Scheduler.ScheduledCancellable timer) {
            search(lookups, timer);
        }

        @Override
        public void unavailable(Unavailable why) {
            lookups.forEach(l -> l.finishFromWindow(why));
        }
    }

    /**
     * Not lenient about the target: a security layer (x-pack security, the security plugin) silently drops the
     * indices a user may not read from a request that ignores unavailable indices, and the check would then call a
     * document {@code unique} without having looked. Strict, an unreadable target fails the lookup with the 403 (the
     * document fails, or is {@code unchecked} with {@code on_unavailable: tag}); a missing target is an empty one.
     */
    static final IndicesOptions LOOKUP_INDICES_OPTIONS = IndicesOptions.fromOptions(false, true, true, false);

    /**
     * One document: the closest hit of a size-1 search without the document itself. Several: one search for all their
     * fingerprints (a {@code near_duplicate} query with {@code fingerprints}) returning up to {@link #HITS_PER_BATCHED_DOCUMENT}
     * hits per document, from which each document takes its closest hit within k. When that many hits come back, some may
     * be missing: each document is then looked up alone, under the same timer, so that the answer stays exact.
     */
    private void search(List<Lookup> lookups, Scheduler.ScheduledCancellable timer) {
        SearchRequest request = request(lookups);
        int size = request.source().size();
        try {
            client.search(request, ActionListener.runAfter(ActionListener.wrap(response -> {
                SearchHit[] hits = response.getHits().getHits();
                if (lookups.size() > 1 && hits.length >= size) {
                    for (Lookup l : lookups) {
                        admission.readmit(new Searches(List.of(l)));
                    }
                    return;
                }
                Unavailable shardFailures = shardFailures(response);
                List<Lookup> alone = new ArrayList<>();
                for (Lookup l : lookups) {
                    Closest closest = closest(hits, l.key, lookups);
                    if (closest.unverified()) {
                        alone.add(l); // a hit of the batch may match another document's probe only: ask for this one alone
                        continue;
                    }
                    Outcome fromIndex = closest.outcome();
                    l.finish(Outcome.better(fromIndex, l.fromWindow), fromIndex == null ? shardFailures : null);
                }
                if (alone.isEmpty()) {
                    if (timer != null) timer.cancel();
                } else {
                    for (Lookup l : alone) {
                        admission.readmit(new Searches(List.of(l))); // under the same timer
                    }
                }
            }, e -> {
                if (timer != null) timer.cancel();
                if (ExceptionsHelper.unwrapCause(e) instanceof IndexNotFoundException) {
                    // no target index (yet): no document to compare with, as an empty index
                    lookups.forEach(l -> l.finish(Outcome.better(null, l.fromWindow), null));
                } else {
                    lookups.forEach(l -> l.finishFromWindow(failed(e)));
                }
            }), admission::release));
        } catch (Exception e) {
            if (timer != null) timer.cancel();
            admission.release();
            lookups.forEach(l -> l.finishFromWindow(failed(e)));
        }
    }

    /** The search for {@code lookups}; when as many hits as its size come back, a document's closest hit may be missing. */
    private SearchRequest request(List<Lookup> lookups) {
        Lookup.Key first = lookups.get(0).key;
        int size;
        SearchSourceBuilder source = new SearchSourceBuilder();
        if (lookups.size() == 1) {
            // signed: the query verifies the hits against this document's signature; unsigned: one probe without
            // signature, compared on its fingerprint alone (as the index compares a bare value)
            SimHashProbe probe = first.signature() != null
                ? SimHashProbe.fingerprint(new SimHash(first.fingerprint(), first.signature()), first.algorithm())
                : SimHashProbe.fingerprints(new long[] { first.fingerprint() }, new byte[][] { null }, first.algorithm());
            BoolQueryBuilder query = QueryBuilders.boolQuery()
                .must(new SimHashQueryBuilder(options.indexField(), probe).maxDistance(first.maxDistance()).ignoreUnmapped(true));
            if (first.id() != null) {
                // the document itself (an earlier version): its _id in its own index, not the same _id in another one
                query.mustNot(
                    first.index() == null
                        ? QueryBuilders.idsQuery().addIds(first.id())
                        : QueryBuilders.boolQuery()
                            .filter(QueryBuilders.idsQuery().addIds(first.id()))
                            .filter(QueryBuilders.termQuery("_index", first.index()))
                );
            }
            source.query(query);
            size = 1;
        } else {
            // one query for all fingerprints: one pass over each segment's terms (or one scan of a small segment); each
            // probe with its signature (null: none), distinct by (fingerprint, signature)
            Map<String, Lookup.Key> distinct = new LinkedHashMap<>();
            for (Lookup l : lookups) {
                String sig = l.key.signature() == null ? "" : Signature.toHex(l.key.signature());
                distinct.putIfAbsent(Fingerprints.toHex(l.key.fingerprint()) + '/' + sig, l.key);
            }
            long[] fingerprints = distinct.values().stream().mapToLong(Lookup.Key::fingerprint).toArray();
            byte[][] signatures = distinct.values().stream().map(Lookup.Key::signature).toArray(byte[][]::new);
            source.query(
                QueryBuilders.constantScoreQuery(
                    new SimHashQueryBuilder(options.indexField(), SimHashProbe.fingerprints(fingerprints, signatures, first.algorithm()))
                        .maxDistance(first.maxDistance())
                        .ignoreUnmapped(true)
                )
            );
            size = Math.min(MAX_BATCH_HITS, lookups.size() * HITS_PER_BATCHED_DOCUMENT);
        }
        source.size(size).docValueField(options.indexField()).timeout(options.timeout()).trackTotalHits(false);
        // a batch with signed documents reads the hits' own value of the field (the simhash processor's object, with its
        // signature) to verify a hit against a document when the query's own verification does not settle it (another
        // probe of the batch is within k of the hit too, see verifiedByQuery); a single lookup's hits are verified by
        // its query, and unsigned documents compare fingerprints only: neither reads _source for it, so a target with
        // _source disabled keeps answering them (group_field is read from _source when asked for)
        boolean readSignatures = lookups.size() > 1 && lookups.stream().anyMatch(l -> l.key.signature() != null);
        List<String> includes = new ArrayList<>();
        if (readSignatures) includes.add(options.indexField());
        if (options.groupField() != null) includes.add(options.groupField());
        if (includes.isEmpty()) {
            source.fetchSource(false);
        } else {
            source.fetchSource(includes.toArray(String[]::new), null);
        }
        return new SearchRequest(first.targetIndex()).source(source).indicesOptions(LOOKUP_INDICES_OPTIONS);
    }

    /**
     * The closest hit of a search for {@code key} ({@code outcome}, null for none), or {@code unverified}: a hit within k
     * whose signature could not be read (e.g. the field is excluded from {@code _source}) while the hits may be another
     * document's ({@code alone} false: a batch), so the document must be looked up alone.
     */
    record Closest(Outcome outcome, boolean unverified) {
    }

    /**
     * The closest hit within k whose signature agrees with the key's, other than the document itself. A batch's hits
     * matched at least one of its probes, not necessarily this key's: each is compared with the key again, distance and,
     * when both carry one and the query's own verification does not settle it ({@link #verifiedByQuery}), signature
     * ({@link Lookup.Key#minSimilarity()}, the field's, as the query). {@code lookups}: the search's; one
     * (this key's probe only): the query already verified its hits.
     */
    private Closest closest(SearchHit[] hits, Lookup.Key key, List<Lookup> lookups) {
        boolean alone = lookups.size() == 1;
        int minAgreeing = Signature.minAgreeing(key.minSimilarity()); // the target field's, once per key
        Outcome best = null;
        for (SearchHit hit : hits) {
            if (itself(hit, key)) {
                continue;
            }
            DocumentField values = hit.field(options.indexField());
            if (values == null || values.getValue() == null) {
                continue;
            }
            long fingerprint = FingerprintValues.parse(values.getValue());
            int d = Fingerprints.distance(key.fingerprint(), fingerprint);
            if (d > key.maxDistance() || (best != null && d >= best.distance())) {
                continue;
            }
            if (key.signature() != null
                && Double.isNaN(key.minSimilarity()) == false
                && alone == false
                && verifiedByQuery(fingerprint, key, lookups) == false) {
                byte[] hitSignature = signature(hit);
                if (hitSignature == UNKNOWN_SIGNATURE) {
                    continue; // see below
                }
                if (hitSignature != null && Signature.agreesOnAtLeast(key.signature(), hitSignature, 0, minAgreeing) == false) {
                    continue; // within k of this key, but its signature disagrees: another key's hit
                }
            }
            String group = null;
            if (options.groupField() != null && hit.getSourceAsMap() != null) {
                // group_field is written path-aware (a dotted name makes objects), so it is read the same way
                Object g = XContentMapValues.extractValue(options.groupField(), hit.getSourceAsMap());
                group = g == null ? null : g.toString();
            }
            best = new Outcome(hit.getId(), hit.getIndex(), d, "index", group != null ? group : hit.getId(), null);
        }
        // a hit whose signature cannot be read matters only if it is closer than the best verified one
        boolean unverified = key.signature() != null
            && Double.isNaN(key.minSimilarity()) == false
            && alone == false
            && unverifiedCloser(hits, key, lookups, best == null ? Integer.MAX_VALUE : best.distance());
        return new Closest(best, unverified);
    }

    /**
     * Whether the batch's query itself verified the hit (fingerprint {@code hitFingerprint}) for {@code key}: the query
     * returned the hit because it matched at least one of the batch's probes, by distance and signature; when no probe
     * of the batch other than this key's (probes are distinct by fingerprint and signature) is within k of the hit,
     * this key's is the one it matched, and the hit's own signature need not be read (found by bench/check_scale.py:
     * against a target with {@code _source} disabled, every signed document with a match was otherwise looked up
     * again alone).
     */
    private static boolean verifiedByQuery(long hitFingerprint, Lookup.Key key, List<Lookup> lookups) {
        for (Lookup other : lookups) {
            Lookup.Key o = other.key;
            if (o.fingerprint() == key.fingerprint() && Arrays.equals(o.signature(), key.signature())) {
                continue; // this key's probe
            }
            if (Fingerprints.distance(o.fingerprint(), hitFingerprint) <= key.maxDistance()) {
                return false; // the hit may have matched that probe only
            }
        }
        return true;
    }

    /**
     * Whether {@code hit} is the document {@code key} looks for (an earlier version of it): its _id in its index (in any
     * index when either index is not known).
     */
    private static boolean itself(SearchHit hit, Lookup.Key key) {
        return key.id() != null
            && key.id().equals(hit.getId())
            && (key.index() == null || hit.getIndex() == null || key.index().equals(hit.getIndex()));
    }

    /** Whether a hit whose signature is unknown (and not verified by the query) is within k and closer than {@code distance}. */
    private boolean unverifiedCloser(SearchHit[] hits, Lookup.Key key, List<Lookup> lookups, int distance) {
        for (SearchHit hit : hits) {
            if (itself(hit, key)) continue;
            DocumentField values = hit.field(options.indexField());
            if (values == null || values.getValue() == null) continue;
            long fingerprint = FingerprintValues.parse(values.getValue());
            int d = Fingerprints.distance(key.fingerprint(), fingerprint);
            if (d <= key.maxDistance()
                && d < distance
                && verifiedByQuery(fingerprint, key, lookups) == false
                && signature(hit) == UNKNOWN_SIGNATURE) return true;
        }
        return false;
    }

    /** What {@link #signature} answers (compared by identity) when the hit's signature cannot be read. */
    private static final byte[] UNKNOWN_SIGNATURE = new byte[0];

    /**
     * The signature the hit was indexed with, from its {@code _source}: the simhash processor's object keeps it under
     * {@code signature}; a bare fingerprint or an object without it has none (null). {@link #UNKNOWN_SIGNATURE} when
     * the source does not show the field (disabled or filtered {@code _source}) or its value cannot be read.
     */
    private byte[] signature(SearchHit hit) {
        Map<String, Object> source = hit.hasSource() ? hit.getSourceAsMap() : null;
        Object value = source == null ? null : XContentMapValues.extractValue(options.indexField(), source);
        if (value == null || value instanceof List<?>) {
            return UNKNOWN_SIGNATURE;
        }
        if (value instanceof Map<?, ?> map) {
            Object signature = map.get(SketchValues.SIGNATURE);
            if (signature == null) {
                return null;
            }
            try {
                return Signature.parse(signature.toString());
            } catch (IllegalArgumentException e) {
                return UNKNOWN_SIGNATURE;
            }
        }
        return null; // a bare fingerprint
    }

    /** A failed search: its status when it is a client error (a closed index: 400), otherwise 503 (never a 500). */
    private static Unavailable failed(Exception e) {
        RestStatus status = ExceptionsHelper.status(ExceptionsHelper.unwrapCause(e));
        return new Unavailable("lookup failed: " + e.getMessage(), status.getStatus() < 500 ? status : RestStatus.SERVICE_UNAVAILABLE);
    }

    /** Null when every shard answered; otherwise the first failure's reason (e.g. a field of another algorithm). */
    private static Unavailable shardFailures(SearchResponse response) {
        if (response.getFailedShards() <= 0) {
            return null;
        }
        String reason = "lookup failed on " + response.getFailedShards() + " shard(s)";
        RestStatus status = RestStatus.SERVICE_UNAVAILABLE;
        if (response.getShardFailures().length > 0) {
            reason += ": " + response.getShardFailures()[0].reason();
            if (response.getShardFailures()[0].status().getStatus() < 500) status = response.getShardFailures()[0].status();
        }
        return new Unavailable(reason, status);
    }
}
