package org.nearduplicate.opensearch.action.stats;

import org.nearduplicate.opensearch.common.PlatformActionType;

/**
 * {@code GET _plugins/_near_duplicate/stats}: the plugin's counters of every (or the selected) node and their sum. A
 * read-only cluster action ({@code cluster:monitor/*}), as {@code _nodes/stats}.
 */
public class NearDuplicateStatsAction extends PlatformActionType<NearDuplicateStatsResponse> {
    public static final String NAME = "cluster:monitor/near_duplicate/stats";
    public static final NearDuplicateStatsAction INSTANCE = new NearDuplicateStatsAction();

    private NearDuplicateStatsAction() {
        super(NAME, NearDuplicateStatsResponse::new);
    }
}
