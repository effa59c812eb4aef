package org.nearduplicate.elasticsearch.search.rescore;

import java.io.IOException;

import org.elasticsearch.TransportVersion;
import org.elasticsearch.TransportVersions;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.index.query.SearchExecutionContext;
import org.elasticsearch.search.rescore.RescoreContext;
import org.elasticsearch.search.rescore.RescorerBuilder;
import org.nearduplicate.elasticsearch.common.Platform;
import org.nearduplicate.elasticsearch.common.ShardContext;

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

    /** Every Elasticsearch 8 node knows the rescorer (when the plugin is installed). */
    @Override
    public TransportVersion getMinimalSupportedVersion() {
        return TransportVersions.V_8_0_0;
    }

    @Override
    protected final RescoreContext innerBuildContext(int windowSize, SearchExecutionContext context) throws IOException {
        return rescoreContext(windowSize, Platform.shardContext(context));
    }

    /** The shard's rescore context of this builder, over {@code windowSize} hits. */
    protected abstract RescoreContext rescoreContext(int windowSize, ShardContext context) throws IOException;
}
