package org.nearduplicate.opensearch.action.groups;

import org.opensearch.core.action.ActionListener;

import org.nearduplicate.core.stats.NearDuplicateStats;

/** A groups run's listener that counts the run (ended, failed, its time) in the node's stats before answering. */
final class CountedRun {
    private CountedRun() {}

    static <R> ActionListener<R> counted(NearDuplicateStats stats, boolean write, long startNanos, ActionListener<R> listener) {
        return new ActionListener<>() {
            @Override
            public void onResponse(R response) {
                stats.groups(write, false, (System.nanoTime() - startNanos) / 1_000_000);
                listener.onResponse(response);
            }

            @Override
            public void onFailure(Exception e) {
                stats.groups(write, true, (System.nanoTime() - startNanos) / 1_000_000);
                listener.onFailure(e);
            }
        };
    }
}
