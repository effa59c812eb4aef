package org.nearduplicate.elasticsearch.search.fetch;

import org.elasticsearch.search.fetch.FetchSubPhaseProcessor;
import org.elasticsearch.search.fetch.StoredFieldsSpec;

/**
 * A fetch sub-phase processor that reads doc values only, no stored field and no {@code _source}. Elasticsearch asks
 * every processor what it reads and OpenSearch does not: each adapter has its own interface of this name, so that the
 * sub-phases read the same on both and are ported to Elasticsearch unchanged.
 */
public interface DocValuesFetchProcessor extends FetchSubPhaseProcessor {
    @Override
    default StoredFieldsSpec storedFieldsSpec() {
        return StoredFieldsSpec.NO_REQUIREMENTS;
    }
}
