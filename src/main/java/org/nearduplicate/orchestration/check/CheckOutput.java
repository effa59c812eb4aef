package org.nearduplicate.orchestration.check;

import java.util.LinkedHashMap;
import java.util.Map;

import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.stats.NearDuplicateStats;
import org.nearduplicate.core.window.RecentFingerprints;

/**
 * What a {@code near_duplicate_check} does with its answer: writes {@code result_field} and {@code group_field}, drops
 * the document ({@code on_duplicate: drop}) or fails it ({@code on_unavailable: fail}). The group of a duplicate found
 * in the recent window is decided by that document's own lookup, which may still be running: it is awaited
 * asynchronously, so that a copy joins the group its original ends up in without blocking a thread.
 */
final class CheckOutput {
    private final CheckOptions options;
    /** The node's counters of check outcomes; null: not counted (tests). */
    private final NearDuplicateStats stats;

    CheckOutput(CheckOptions options, NearDuplicateStats stats) {
        this.options = options;
        this.stats = stats;
    }

    private void count(NearDuplicateStats.Outcome outcome) {
        if (stats != null) stats.check(outcome);
    }

    /**
     * Answers {@code document}: {@code outcome} null for no match, {@code unavailable} non-null when the answer may be
     * incomplete; {@code added} is the document's own window entry, whose group is completed here for later copies.
     */
    void complete(CheckDocument document, String ownGroup, Outcome outcome, Unavailable unavailable, RecentFingerprints.Entry added) {
        String unavailableReason = unavailable == null ? null : unavailable.reason();
        if (unavailableReason != null
            && outcome == null
            && options.onUnavailable() == CheckOptions.OnUnavailable.FAIL
            && unavailable.mayFail()) {
            if (added != null) {
                added.group().complete(ownGroup);
            }
            count(unavailable.timedOut() ? NearDuplicateStats.Outcome.TIMED_OUT : NearDuplicateStats.Outcome.FAILED);
            document.fail(
                document.error(
                    "[" + NearDuplicateCheck.TYPE + "] could not check for near-duplicates: " + unavailableReason,
                    unavailable.status()
                )
            );
            return;
        }
        Map<String, Object> result = new LinkedHashMap<>();
        if (outcome != null) {
            result.put("status", "duplicate");
            result.put("_id", outcome.id());
            if (outcome.index() != null) {
                result.put("_index", outcome.index()); // a recent document whose index is not known claims none
            }
            result.put("distance", outcome.distance());
            result.put("source", outcome.source());
            count(NearDuplicateStats.Outcome.DUPLICATE);
        } else if (unavailableReason != null) {
            result.put("status", "unchecked");
            result.put("reason", unavailableReason);
            count(unavailable.timedOut() ? NearDuplicateStats.Outcome.TIMED_OUT : NearDuplicateStats.Outcome.UNCHECKED);
        } else {
            result.put("status", "unique");
            count(NearDuplicateStats.Outcome.UNIQUE);
        }
        document.set(options.resultField(), result);
        boolean drop = outcome != null && options.onDuplicate() == CheckOptions.OnDuplicate.DROP;
        if (outcome != null && outcome.entry() != null && options.groupField() != null) {
            // the group of a recent document is decided by its own (pending) lookup: wait for it, asynchronously
            outcome.entry().group().whenComplete((group, e) -> {
                String g = group != null ? group : outcome.id() != null ? outcome.id() : Fingerprints.toHex(outcome.entry().fingerprint());
                finish(document, g, added, drop);
            });
        } else {
            String group = outcome == null ? ownGroup
                : outcome.group() != null ? outcome.group()
                : outcome.id() != null ? outcome.id()
                : Fingerprints.toHex(outcome.entry().fingerprint());
            finish(document, group, added, drop);
        }
    }

    private void finish(CheckDocument document, String group, RecentFingerprints.Entry added, boolean drop) {
        if (added != null) {
            added.group().complete(group);
        }
        if (drop) {
            document.drop();
            return;
        }
        if (options.groupField() != null) {
            document.set(options.groupField(), group);
        }
        document.pass();
    }
}
