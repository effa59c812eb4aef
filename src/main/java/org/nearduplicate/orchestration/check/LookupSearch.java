package org.nearduplicate.orchestration.check;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.core.sketch.SketchValues;

/**
 * The {@code near_duplicate} searches of a {@code near_duplicate_check}: asks for one search per group of lookups (same
 * target, k and algorithm), sends it under {@link LookupAdmission} through the platform's {@link CandidateSearch}, and
 * answers each lookup with the closest hit or what its window found, whichever is closer.
 */
final class LookupSearch {
    /** Hits a batched search returns per document it looks up (beyond that, its documents are looked up one by one). */
    static final int HITS_PER_BATCHED_DOCUMENT = 10;
    /** The default {@code index.max_result_window}: a batched search never asks for more hits. */
    static final int MAX_BATCH_HITS = 10_000;

    private final CheckOptions options;
    private final CandidateSearch searches;
    private final LookupAdmission admission;

    LookupSearch(CheckOptions options, CandidateSearch searches, LookupAdmission admission) {
        this.options = options;
        this.searches = searches;
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
        public void start(Scheduling.Timer timer) {
            search(lookups, timer);
        }

        @Override
        public void unavailable(Unavailable why) {
            lookups.forEach(l -> l.finishFromWindow(why));
        }
    }

    /**
     * One document: the closest hit of a size-1 search without the document itself. Several: one search for all their
     * fingerprints (a {@code near_duplicate} query with {@code fingerprints}) returning up to {@link #HITS_PER_BATCHED_DOCUMENT}
     * hits per document, from which each document takes its closest hit within k. When that many hits come back, some may
     * be missing: each document is then looked up alone, under the same timer, so that the answer stays exact.
     */
    private void search(List<Lookup> lookups, Scheduling.Timer timer) {
        CandidateSearch.Request request = request(lookups);
        try {
            searches.search(request, new CandidateSearch.Listener() {
                @Override
                public void onResponse(CandidateSearch.Response response) {
                    try {
                        try {
                            answer(lookups, request, response, timer);
                        } catch (Exception e) {
                            fail(lookups, e, timer);
                        }
                    } finally {
                        admission.release();
                    }
                }

                @Override
                public void onFailure(Exception e) {
                    try {
                        fail(lookups, e, timer);
                    } finally {
                        admission.release();
                    }
                }
            });
        } catch (Exception e) {
            if (timer != null) timer.cancel();
            admission.release();
            lookups.forEach(l -> l.finishFromWindow(failed(e)));
        }
    }

    /** Answers each lookup with its closest hit; looks up alone those whose closest hit the batch may have missed. */
    private void answer(List<Lookup> lookups, CandidateSearch.Request request, CandidateSearch.Response response, Scheduling.Timer timer) {
        List<CandidateSearch.Hit> hits = response.hits();
        if (lookups.size() > 1 && hits.size() >= request.size()) {
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
    }

    private void fail(List<Lookup> lookups, Exception e, Scheduling.Timer timer) {
        if (timer != null) timer.cancel();
        if (searches.missingIndex(e)) {
            // no target index (yet): no document to compare with, as an empty index
            lookups.forEach(l -> l.finish(Outcome.better(null, l.fromWindow), null));
        } else {
            lookups.forEach(l -> l.finishFromWindow(failed(e)));
        }
    }

    /** The search for {@code lookups}; when as many hits as its size come back, a document's closest hit may be missing. */
    private CandidateSearch.Request request(List<Lookup> lookups) {
        Lookup.Key first = lookups.get(0).key;
        long[] fingerprints;
        byte[][] signatures;
        byte[][] keys;
        int size;
        if (lookups.size() == 1) {
            // signed: the query verifies the hits against this document's signature; unsigned: one probe without
            // signature, compared on its fingerprint alone (as the index compares a bare value)
            fingerprints = new long[] { first.fingerprint() };
            signatures = new byte[][] { first.signature() };
            keys = new byte[][] { first.keys() };
            size = 1;
        } else {
            // one query for all fingerprints: one pass over each segment's terms (or one scan of a small segment); each
            // probe with its signature (null: none) and candidate keys (null: none), distinct by all three
            Map<String, Lookup.Key> distinct = new LinkedHashMap<>();
            for (Lookup l : lookups) {
                String sig = l.key.signature() == null ? "" : Signature.toHex(l.key.signature());
                String k = l.key.keys() == null ? "" : Base64.getEncoder().encodeToString(l.key.keys());
                distinct.putIfAbsent(Fingerprints.toHex(l.key.fingerprint()) + '/' + sig + '/' + k, l.key);
            }
            fingerprints = distinct.values().stream().mapToLong(Lookup.Key::fingerprint).toArray();
            signatures = distinct.values().stream().map(Lookup.Key::signature).toArray(byte[][]::new);
            keys = distinct.values().stream().map(Lookup.Key::keys).toArray(byte[][]::new);
            size = Math.min(MAX_BATCH_HITS, lookups.size() * HITS_PER_BATCHED_DOCUMENT);
        }
        // a batch with signed documents reads the hits' own value of the field (the simhash processor's object, with its
        // signature) to verify a hit against a document when the query's own verification does not settle it (another
        // probe of the batch is within k of the hit too, see verifiedByQuery); a single lookup's hits are verified by
        // its query, and unsigned documents compare fingerprints only: neither reads _source for it, so a target with
        // _source disabled keeps answering them (group_field is read from _source when asked for)
        boolean readSignatures = lookups.size() > 1 && lookups.stream().anyMatch(l -> l.key.signature() != null);
        List<String> includes = new ArrayList<>();
        if (readSignatures) includes.add(options.indexField());
        if (options.groupField() != null) includes.add(options.groupField());
        return new CandidateSearch.Request(
            first.targetIndex(),
            options.indexField(),
            first.algorithm(),
            first.maxDistance(),
            fingerprints,
            signatures,
            // no probe with keys: none (the target reads every fingerprint); some: the target's query takes the keys only
            // when every probe has them (a batch mixing bare values is answered exactly)
            Arrays.stream(keys).allMatch(java.util.Objects::isNull) ? null : keys,
            lookups.size() == 1,
            first.id(),
            first.index(),
            size,
            List.copyOf(includes),
            options.timeout(),
            options.waitForRefresh()
        );
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
    private Closest closest(List<CandidateSearch.Hit> hits, Lookup.Key key, List<Lookup> lookups) {
        boolean alone = lookups.size() == 1;
        int minAgreeing = Signature.minAgreeing(key.minSimilarity()); // the target field's, once per key
        Outcome best = null;
        for (CandidateSearch.Hit hit : hits) {
            if (itself(hit, key)) {
                continue;
            }
            if (hit.value() == null) {
                continue;
            }
            long fingerprint = Lookup.fingerprint(hit.value());
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
            if (options.groupField() != null) {
                // group_field is written path-aware (a dotted name makes objects), so it is read the same way
                Object g = hit.source().apply(options.groupField());
                group = g == null ? null : g.toString();
            }
            best = new Outcome(hit.id(), hit.index(), d, "index", group != null ? group : hit.id(), null);
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
    private static boolean itself(CandidateSearch.Hit hit, Lookup.Key key) {
        return key.id() != null
            && key.id().equals(hit.id())
            && (key.index() == null || hit.index() == null || key.index().equals(hit.index()));
    }

    /** Whether a hit whose signature is unknown (and not verified by the query) is within k and closer than {@code distance}. */
    private boolean unverifiedCloser(List<CandidateSearch.Hit> hits, Lookup.Key key, List<Lookup> lookups, int distance) {
        for (CandidateSearch.Hit hit : hits) {
            if (itself(hit, key)) continue;
            if (hit.value() == null) continue;
            long fingerprint = Lookup.fingerprint(hit.value());
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
    private byte[] signature(CandidateSearch.Hit hit) {
        Object value = hit.source().apply(options.indexField());
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
    private Unavailable failed(Exception e) {
        int status = searches.status(e);
        return new Unavailable("lookup failed: " + e.getMessage(), status < 500 ? status : Unavailable.SERVICE_UNAVAILABLE);
    }

    /** Null when every shard answered; otherwise the first failure's reason (e.g. a field of another algorithm). */
    private static Unavailable shardFailures(CandidateSearch.Response response) {
        if (response.failedShards() <= 0) {
            return null;
        }
        String reason = "lookup failed on " + response.failedShards() + " shard(s)";
        int status = Unavailable.SERVICE_UNAVAILABLE;
        if (response.failureReason() != null) {
            reason += ": " + response.failureReason();
            if (response.failureStatus() < 500) status = response.failureStatus();
        }
        return new Unavailable(reason, status);
    }
}
