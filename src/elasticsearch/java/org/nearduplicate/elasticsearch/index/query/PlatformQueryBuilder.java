package org.nearduplicate.elasticsearch.index.query;

import org.apache.lucene.search.Query;

import java.io.IOException;

import org.elasticsearch.TransportVersion;
import org.elasticsearch.TransportVersions;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.index.query.AbstractQueryBuilder;
import org.elasticsearch.index.query.SearchExecutionContext;
import org.nearduplicate.elasticsearch.common.Platform;
import org.nearduplicate.elasticsearch.common.ShardContext;

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

    /** Every Elasticsearch 8 node knows the query (when the plugin is installed). */
    @Override
    public TransportVersion getMinimalSupportedVersion() {
        return TransportVersions.V_8_0_0;
    }

    @Override
    protected final Query doToQuery(SearchExecutionContext context) throws IOException {
        return shardQuery(Platform.shardContext(context));
    }

    /** The Lucene query of this builder on one shard. */
    protected abstract Query shardQuery(ShardContext context) throws IOException;
}
