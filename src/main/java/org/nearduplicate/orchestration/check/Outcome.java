package org.nearduplicate.orchestration.check;

import org.nearduplicate.core.window.RecentFingerprints;

/**
 * A near-duplicate a {@code near_duplicate_check} found, in the index ({@code source} {@code index}) or among the
 * documents this node checked recently ({@code recent}, with their window {@code entry}). {@code group} is known for
 * index hits (when {@code group_field} is set); for recent ones it is pending until their own lookup answers.
 */
record Outcome(String id, String index, int distance, String source, String group, RecentFingerprints.Entry entry) {

    /**
     * A match of the recent window or of the bulk set; null for none. Its index is the one the matched document was
     * written to (not the check's target, whose window may hold documents written elsewhere); null when not known.
     */
    static Outcome recent(RecentFingerprints.Match match) {
        return match == null
            ? null
            : new Outcome(match.entry().id(), match.entry().index(), match.distance(), "recent", null, match.entry());
    }

    /** The closer of the two; the index on ties. */
    static Outcome better(Outcome fromIndex, Outcome fromWindow) {
        if (fromIndex == null) return fromWindow;
        if (fromWindow == null) return fromIndex;
        return fromWindow.distance() < fromIndex.distance() ? fromWindow : fromIndex;
    }
}
