package org.nearduplicate.opensearch.action.simhash;

import org.nearduplicate.opensearch.common.PlatformActionType;

/**
 * {@code /{index}/_simhash}: reads the mapping of the index's {@code simhash} field (its algorithm and layout), so it
 * is an index read action whose request ({@link IndexSimHashRequest}) names that index: a role needs a read privilege
 * on the index, as for {@code _search}.
 *
 * <p>Why two actions and not one {@code indices:} action whose request has no indices without an index: the security
 * plugin resolves an {@code indices:} action whose request names no index (or is no {@code IndicesRequest}) to all
 * indices, so the index-less tool would need a privilege on every index.
 */
public class IndexSimHashAction extends PlatformActionType<SimHashResponse> {
    public static final String NAME = "indices:data/read/near_duplicate/simhash";
    public static final IndexSimHashAction INSTANCE = new IndexSimHashAction();

    private IndexSimHashAction() {
        super(NAME, SimHashResponse::new);
    }
}
