package org.nearduplicate.orchestration.check;

import java.util.List;
import java.util.function.Function;

/**
 * The platform's {@code near_duplicate} search of a target index for a {@code near_duplicate_check}: one search for
 * the fingerprints of one or more documents, answering the candidate hits with their fingerprints (and, when asked
 * for, their {@code _source}). What the hits mean for each document is {@link LookupSearch}'s.
 */
public interface CandidateSearch {

    /** Sends {@code request}; answers {@code listener} once. May throw when the search cannot be sent. */
    void search(Request request, Listener listener);

    /** Whether {@code e} (a failed search) says the target does not exist: then it is an empty one. */
    boolean missingIndex(Exception e);

    /** The HTTP status of {@code e} (a failed search), read from its cause. */
    int status(Exception e);

    /**
     * One search of {@code targetIndex}'s {@code field} for {@code fingerprints} (with their {@code signatures}, null
     * entries for none, and their candidate {@code keys}: packed hashes, null when no probe has them, null entries for
     * a probe without) of one {@code algorithm}, within {@code maxDistance}, returning up to {@code size} hits with the
     * field's doc value and the {@code sourceIncludes} of {@code _source} (empty: no {@code _source}).
     *
     * @param single one document's search (its closest hit, verified by the query against its signature if it has one),
     *        which never returns the document itself: {@code id} in {@code index} (in any index when {@code index} is
     *        null; no exclusion when {@code id} is null); otherwise a batch's search, scored constant
     * @param waitForRefresh first wait until the writes every shard copy of the target had when the search was asked
     *        for are searchable ({@link CheckOptions#WAIT_FOR_REFRESH}); failing that within {@code timeout}, the
     *        search fails
     */
    record Request(String targetIndex, String field, String algorithm, int maxDistance, long[] fingerprints, byte[][] signatures,
        byte[][] keys, boolean single, String id, String index, int size, List<String> sourceIncludes, TimeSpan timeout,
        boolean waitForRefresh) {
    }

    /**
     * A hit: its {@code _id} and {@code _index}, the field's doc value ({@code value}, null when the hit has none) and
     * {@code source}, the value at a path of its {@code _source} (read path-aware, as the platform reads a dotted name;
     * null when absent or {@code _source} was not returned).
     */
    record Hit(String id, String index, Object value, Function<String, Object> source) {
    }

    /**
     * The hits of a search; {@code failedShards} the shards that did not answer, with the first failure's reason and
     * status ({@code failureReason} null when none is known).
     */
    record Response(List<Hit> hits, int failedShards, String failureReason, int failureStatus) {
    }

    /** The answer of a search. */
    interface Listener {
        void onResponse(Response response);

        void onFailure(Exception e);
    }
}
