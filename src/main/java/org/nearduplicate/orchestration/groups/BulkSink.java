package org.nearduplicate.orchestration.groups;

import java.util.List;

/** Where the write-back sends its updates: one bulk request of partial updates, as a child of the run's task. */
public interface BulkSink {
    /**
     * One document's update: {@code group} into the group field and {@code distance} into the distance field; both
     * null clear them.
     */
    record Update(String id, String routing, String group, Integer distance) {
    }

    /** How one update ended: failed (with the platform's message), unchanged ({@code noop}), or written. */
    record Item(String id, boolean failed, String failureMessage, boolean noop) {
    }

    /** Sends {@code updates} as one bulk request (partial updates, {@code detect_noop}); answers one item per update. */
    void bulk(List<Update> updates, Listener<List<Item>> listener);
}
