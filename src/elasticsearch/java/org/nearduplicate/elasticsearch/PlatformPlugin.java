package org.nearduplicate.elasticsearch;

import java.util.Collection;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;

import org.elasticsearch.cluster.metadata.IndexNameExpressionResolver;
import org.elasticsearch.cluster.node.DiscoveryNodes;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.io.stream.NamedWriteableRegistry;
import org.elasticsearch.common.settings.ClusterSettings;
import org.elasticsearch.common.settings.IndexScopedSettings;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.common.settings.SettingsFilter;
import org.elasticsearch.features.NodeFeature;
import org.elasticsearch.plugins.Plugin;
import org.elasticsearch.rest.RestController;
import org.elasticsearch.rest.RestHandler;

/**
 * The plugin extension points whose signatures differ between the platforms, reduced to what the plugin uses: the
 * cluster service when components are created, and the REST handlers.
 */
public abstract class PlatformPlugin extends Plugin implements ExtensionPoints {

    /** The objects to inject into the transport actions, once the node's cluster service exists. */
    protected abstract Collection<Object> components(ClusterService clusterService);

    /** The plugin's REST handlers. */
    protected abstract List<RestHandler> restHandlers();

    @Override
    public final Collection<?> createComponents(PluginServices services) {
        return components(services.clusterService());
    }

    @Override
    public final List<RestHandler> getRestHandlers(
        Settings settings,
        NamedWriteableRegistry namedWriteableRegistry,
        RestController restController,
        ClusterSettings clusterSettings,
        IndexScopedSettings indexScopedSettings,
        SettingsFilter settingsFilter,
        IndexNameExpressionResolver indexNameExpressionResolver,
        Supplier<DiscoveryNodes> nodesInCluster,
        Predicate<NodeFeature> clusterSupportsFeature
    ) {
        return restHandlers();
    }
}
