package org.nearduplicate.orchestration.check;

import org.apache.lucene.util.BytesRef;

import java.util.concurrent.atomic.AtomicBoolean;

import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.SketchValues;
import org.nearduplicate.core.window.RecentFingerprints;

/**
 * One document of a {@code near_duplicate_check}, prepared by {@link WindowCheck} and waiting for its search. It is
 * answered once, by the first of its search, its timeout or a refusal; later answers are ignored.
 */
final class Lookup {

    /**
     * What is looked for: the document's fingerprint, its verification signature (null when its value has none: compared
     * on the fingerprint alone) and algorithm, in which index, within which distance; and the document itself, which is
     * never its own duplicate: {@code id} in {@code index}, the index it is written to
     * ({@link TargetIndices#documentIndex}; null when not known: then {@code id} in any index).
     * {@code written}: the document is written when it passes (false for {@code _simulate}'s: compared, never recorded).
     * {@code minSimilarity}: what a match must reach where both sides carry a signature, the target field's default
     * (NaN: not verified); the same for every key of a search key, whose target and algorithm it depends on.
     * {@code keys}: the candidate keys of the document's value ({@code simhash-v7}: the packed hashes the simhash processor
     * stores), with which its search reads the target's keys instead of every fingerprint; null when it has none.
     */
    record Key(long fingerprint, byte[] signature, byte[] keys, String algorithm, String targetIndex, String index, String id,
        int maxDistance, boolean written, double minSimilarity) {
        /** Lookups with the same search key can share a search. */
        String searchKey() {
            return targetIndex + '\u0000' + maxDistance + '\u0000' + algorithm;
        }
    }

    final CheckDocument document;
    final Key key;
    final RecentFingerprints.Result recent;
    /** The closest match of the window and the bulk set, if any. */
    final Outcome fromWindow;
    /** Not searched (closed target, another algorithm). */
    final Unavailable unavailable;
    /** The answer may be incomplete (window gap, bulk set overflow): no match is then not {@code unique}. */
    final Unavailable gap;
    private final CheckOutput output;
    private final AtomicBoolean done = new AtomicBoolean();

    Lookup(
        CheckDocument document,
        Key key,
        RecentFingerprints.Result recent,
        Outcome fromWindow,
        Unavailable unavailable,
        Unavailable gap,
        CheckOutput output
    ) {
        this.document = document;
        this.key = key;
        this.recent = recent;
        this.fromWindow = fromWindow;
        this.unavailable = unavailable;
        this.gap = gap;
        this.output = output;
    }

    boolean done() {
        return done.get();
    }

    /** Answers the document, unless it was answered already; {@code unavailable} null when the search answered. */
    void finish(Outcome outcome, Unavailable unavailable) {
        if (done.compareAndSet(false, true) == false) {
            return;
        }
        String ownGroup = key.id() != null ? key.id() : Fingerprints.toHex(key.fingerprint());
        try {
            Unavailable why = unavailable != null ? unavailable : gap;
            output.complete(document, ownGroup, outcome, why, recent == null ? null : recent.added());
        } catch (Exception e) {
            if (recent != null) {
                recent.added().group().complete(ownGroup);
            }
            document.fail(e);
        }
    }

    /** A fingerprint as the platform hands it over (a string, a number, or a {@link BytesRef} of a string). */
    static long fingerprint(Object value) {
        if (value instanceof BytesRef bytes) {
            return Fingerprints.parse(bytes.utf8ToString());
        }
        return SketchValues.fingerprint(value);
    }

    /** Answers from the window alone (the search is unavailable). */
    void finishFromWindow(Unavailable unavailable) {
        finish(fromWindow, unavailable);
    }
}
