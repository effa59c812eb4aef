package org.nearduplicate.orchestration.check;

import java.util.Base64;
import java.util.Map;
import java.util.Set;

import org.nearduplicate.core.MaxDistance;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.core.sketch.SketchValues;
import org.nearduplicate.core.window.RecentFingerprints;

/**
 * The synchronous half of a {@code near_duplicate_check}: reads a document's fingerprint, algorithm and target, tells
 * whether the target can be searched at all (closed, another algorithm), and merges what the node's recent window and
 * the bulk request's set know of it, adding the document to both. It runs for the documents of a bulk request in order
 * and atomically per window, so that of two copies in one bulk request the second sees the first.
 */
final class WindowCheck {

    private final CheckOptions options;
    private final TargetIndices targets;
    private final RecentFingerprints.Registry windows;
    private final CheckOutput output;
    private final Scheduling scheduling;

    WindowCheck(
        CheckOptions options,
        TargetIndices targets,
        RecentFingerprints.Registry windows,
        CheckOutput output,
        Scheduling scheduling
    ) {
        this.scheduling = scheduling;
        this.options = options;
        this.targets = targets;
        this.windows = windows;
        this.output = output;
    }

    /**
     * Checks {@code document} against the window and the batch's bulk set and adds it to both. Null when the document is
     * already answered (missing field with {@code ignore_missing}, or an error).
     */
    Lookup prepare(CheckDocument document, CheckBatch batch) {
        Lookup.Key key;
        try {
            key = read(document);
            if (key == null) {
                document.pass();
                return null;
            }
        } catch (Exception e) {
            document.fail(e);
            return null;
        }
        String targetIndex = key.targetIndex();
        Unavailable unavailable = searchable(key);
        // a document this node checked counts as searchable once the target's refresh_interval (and a margin) has passed
        long refresh = targets.refreshMillis(targetIndex);
        long horizon = refresh < 0 ? Long.MAX_VALUE : refresh + NearDuplicateCheck.REFRESH_MARGIN_MILLIS;
        RecentFingerprints window = windows.window(
            targetIndex,
            options.indexField(),
            key.algorithm(),
            key.maxDistance(),
            options.windowSize(),
            options.windowTtl().millis()
        );
        // the target field's verification: a window entry within k whose signature disagrees is not a duplicate
        double minSimilarity = key.minSimilarity();
        RecentFingerprints.Result recent = window.checkAndAdd(
            key.fingerprint(),
            key.signature(),
            minSimilarity,
            key.index(),
            key.id(),
            batch.token,
            horizon,
            key.written()
        );
        Outcome fromWindow = Outcome.recent(recent.match());
        Unavailable gap = null;
        RecentFingerprints set = batch.set(targetIndex, key.maxDistance(), key.algorithm());
        if (set != null) {
            boolean exhaustive = set.overflowed() == false; // every earlier document of the batch is in the set
            Outcome fromBulk = Outcome.recent(set.checkAndKeep(recent.added(), minSimilarity));
            if (fromBulk != null && (fromWindow == null || fromBulk.distance() < fromWindow.distance())) {
                fromWindow = fromBulk;
            }
            if (exhaustive == false) {
                gap = new Unavailable(
                    "the bulk request's "
                        + batch.size
                        + " documents could not all be compared with each other: the [near_duplicate] "
                        + "breaker refused memory for the fingerprints of the earlier ones after "
                        + set.size()
                        + " documents",
                    Unavailable.TOO_MANY_REQUESTS
                );
            }
        }
        long checked = recent.added().addedMillis();
        if (gap == null && recent.staleUntil() > checked) {
            gap = new Unavailable(
                "the search may not see documents this node checked recently: its recent window (window_size "
                    + options.windowSize()
                    + ", window_ttl "
                    + options.windowTtl()
                    + ") let go of "
                    + window.lostEntries()
                    + " document(s) before they could be searchable ("
                    + (recent.staleUntil() == Long.MAX_VALUE
                        ? "never: refresh_interval of [" + targetIndex + "] is -1"
                        : "for another "
                            + scheduling.text(recent.staleUntil() - checked)
                            + ": the refresh_interval of ["
                            + targetIndex
                            + "] and "
                            + NearDuplicateCheck.REFRESH_MARGIN_MILLIS
                            + " ms after their check")
                    + ")",
                Unavailable.SERVICE_UNAVAILABLE,
                false
            );
        }
        return new Lookup(document, key, recent, fromWindow, unavailable, gap, output);
    }

    /** The document's fingerprint, algorithm, target and k; null when the field is missing and {@code ignore_missing}. */
    private Lookup.Key read(CheckDocument document) {
        String field = options.field();
        Object value = document.value(field);
        if (value == null) {
            if (options.ignoreMissing()) {
                return null;
            }
            throw new IllegalArgumentException("field [" + field + "] is missing, cannot check for near-duplicates");
        }
        // a bare fingerprint's algorithm is unknown (null), assumed to be the field's
        SketchValues.Stored stored = SketchValues.Stored.of(value, SketchValues.FINGERPRINT, SketchValues.ALGORITHM);
        if (stored.value() == null) {
            throw new IllegalArgumentException("field [" + field + "] has no [" + SketchValues.FINGERPRINT + "]");
        }
        String algorithm = stored.algorithm();
        long fingerprint = Lookup.fingerprint(stored.value());
        byte[] signature = signature(field, value);
        byte[] keys = keys(field, value);
        // the index the document is written to: the same _id elsewhere (e.g. in the target) is another document
        String writtenTo = document.index();
        String targetIndex = options.index() != null ? options.index() : writtenTo;
        if (targetIndex == null) {
            throw new IllegalArgumentException("field [_index] not present as part of path [_index]");
        }
        String id = document.id();
        String index = targets.documentIndex(writtenTo);
        // _simulate's documents carry the placeholder index "_index" (no index name starts with '_'): never written
        boolean written = writtenTo == null || writtenTo.startsWith("_") == false;
        int maxDistance = MaxDistance.orField(options.maxDistance(), targets.of(targetIndex, options.indexField()));
        RecentFingerprints.checkMaxDistance(maxDistance);
        double minSimilarity = minSimilarity(signature, algorithm, targetIndex);
        return new Lookup.Key(fingerprint, signature, keys, algorithm, targetIndex, index, id, maxDistance, written, minSimilarity);
    }

    /** The processor object's verification signature ({@code simhash-v4}); null for a bare value or an object without one. */
    private static byte[] signature(String field, Object value) {
        if (value instanceof Map<?, ?> map && map.get(SketchValues.SIGNATURE) != null) {
            try {
                return Signature.parse(map.get(SketchValues.SIGNATURE).toString());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                    "field [" + field + "] has an invalid [" + SketchValues.SIGNATURE + "]: " + e.getMessage(),
                    e
                );
            }
        }
        return null;
    }

    /**
     * The processor object's candidate keys ({@code simhash-v7}: base64 of the packed hashes, {@code core.keys.StoredKeys}),
     * decoded; null for a bare value or an object without them. Their length is the target field's to check (its query
     * refuses keys of another layout).
     */
    private static byte[] keys(String field, Object value) {
        if (value instanceof Map<?, ?> map && map.get(SketchValues.KEYS) != null) {
            Object keys = map.get(SketchValues.KEYS);
            try {
                if (keys instanceof String base64) return Base64.getDecoder().decode(base64.trim());
                throw new IllegalArgumentException("expected a base64 string, got [" + keys.getClass().getSimpleName() + "]");
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("field [" + field + "] has invalid [" + SketchValues.KEYS + "]: " + e.getMessage(), e);
            }
        }
        return null;
    }

    /**
     * The {@code min_similarity} a match of a document must reach where both sides carry a signature: the target field's
     * ({@link SimHashSettings#recommendedMinSimilarity()}, the query's default; the strictest when the target maps several algorithms) when its algorithm has signatures; NaN
     * (not verified) when it does not. The field's algorithm is the mapped one; where the target does not map the field
     * (yet), the document's, or that of a new field ({@link SimHashSettings#DEFAULT}).
     */
    private double minSimilarity(byte[] signature, String algorithm, String targetIndex) {
        if (signature == null) {
            return Double.NaN; // nothing to verify: compared on the fingerprint alone
        }
        Set<String> mapped = targets.algorithms(targetIndex, options.indexField());
        if (mapped.isEmpty()) {
            return SimHashSettings.recommendedMinSimilarity(algorithm != null ? algorithm : SimHashSettings.DEFAULT.algorithmId());
        }
        // fields of several algorithms (an alias over indices of two versions): the strictest of their defaults
        double strictest = Double.NaN;
        for (String fieldAlgorithm : mapped) {
            double t = SimHashSettings.recommendedMinSimilarity(fieldAlgorithm);
            if (Double.isNaN(t) == false && (Double.isNaN(strictest) || t > strictest)) strictest = t;
        }
        return strictest;
    }

    /** Null when the target can be searched; otherwise why not (closed, or mapped with another algorithm). */
    private Unavailable searchable(Lookup.Key key) {
        String targetIndex = key.targetIndex();
        if (targets.closed(targetIndex)) {
            return new Unavailable("target index [" + targetIndex + "] is closed", Unavailable.BAD_REQUEST);
        }
        if (key.algorithm() != null) {
            Set<String> mapped = targets.algorithms(targetIndex, options.indexField());
            if (mapped.isEmpty() == false && mapped.contains(key.algorithm()) == false) {
                return new Unavailable(
                    "the fingerprint was made with algorithm ["
                        + key.algorithm()
                        + "] but field ["
                        + options.indexField()
                        + "] of ["
                        + targetIndex
                        + "] is mapped with algorithm "
                        + mapped
                        + "; fingerprints made differently cannot be compared",
                    Unavailable.BAD_REQUEST
                );
            }
        }
        return null;
    }
}
