package org.nearduplicate.elasticsearch.search.rescore;

import java.io.IOException;

import org.elasticsearch.TransportVersion;
import org.elasticsearch.TransportVersions;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.search.rescore.RescorerBuilder;

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
}
