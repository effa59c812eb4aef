package org.nearduplicate.opensearch.search.fetch;

import org.opensearch.search.fetch.FetchSubPhaseProcessor;

/**
 * A fetch sub-phase processor that reads doc values only, no stored field and no {@code _source}. Elasticsearch asks
 * every processor what it reads and OpenSearch does not: each adapter has its own interface of this name, so that the
 * sub-phases read the same on both and are ported to Elasticsearch unchanged.
 */
public interface DocValuesFetchProcessor extends FetchSubPhaseProcessor {}
