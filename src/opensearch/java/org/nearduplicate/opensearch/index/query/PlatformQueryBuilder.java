package org.nearduplicate.opensearch.index.query;

import org.apache.lucene.search.Query;

import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.index.query.AbstractQueryBuilder;
import org.opensearch.index.query.QueryShardContext;

import java.io.IOException;

import org.nearduplicate.opensearch.common.Platform;
import org.nearduplicate.opensearch.common.ShardContext;

/**
 * The platform's query builder base, with what one platform asks of every query builder and the other does not
 * (Elasticsearch: the first transport version that knows it), so that {@link ProbeQueryBuilder} reads the same on both
 * and is ported to Elasticsearch unchanged. Each adapter has its own class of this name.
 */
public abstract class PlatformQueryBuilder<B extends PlatformQueryBuilder<B>> extends AbstractQueryBuilder<B> {
    protected PlatformQueryBuilder() {}

    protected PlatformQueryBuilder(StreamInput in) throws IOException {
        super(in);
    }

    @Override
    protected final Query doToQuery(QueryShardContext context) throws IOException {
        return shardQuery(Platform.shardContext(context));
    }

    /** The Lucene query of this builder on one shard. */
    protected abstract Query shardQuery(ShardContext context) throws IOException;
}
