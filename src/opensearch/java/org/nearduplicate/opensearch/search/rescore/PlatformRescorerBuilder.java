package org.nearduplicate.opensearch.search.rescore;

import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.index.query.QueryShardContext;
import org.opensearch.search.rescore.RescoreContext;
import org.opensearch.search.rescore.RescorerBuilder;

import java.io.IOException;

import org.nearduplicate.opensearch.common.Platform;
import org.nearduplicate.opensearch.common.ShardContext;

/**
 * The platform's rescorer builder base, with what one platform asks of every rescorer builder and the other does not
 * (Elasticsearch: the first transport version that knows it), so that {@link ProbeRescorerBuilder} reads the same on
 * both and is ported to Elasticsearch unchanged. Each adapter has its own class of this name.
 */
public abstract class PlatformRescorerBuilder<B extends PlatformRescorerBuilder<B>> extends RescorerBuilder<B> {
    protected PlatformRescorerBuilder() {}

    protected PlatformRescorerBuilder(StreamInput in) throws IOException {
        super(in);
    }

    @Override
    protected final RescoreContext innerBuildContext(int windowSize, QueryShardContext context) throws IOException {
        return rescoreContext(windowSize, Platform.shardContext(context));
    }

    /** The shard's rescore context of this builder, over {@code windowSize} hits. */
    protected abstract RescoreContext rescoreContext(int windowSize, ShardContext context) throws IOException;
}
