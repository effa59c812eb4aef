package org.nearduplicate.opensearch;

import org.nearduplicate.opensearch.rest.RestSimHashAction;
import org.opensearch.cluster.metadata.IndexNameExpressionResolver;
import org.opensearch.cluster.node.DiscoveryNodes;
import org.opensearch.common.settings.ClusterSettings;
import org.opensearch.common.settings.IndexScopedSettings;
import org.opensearch.common.settings.Setting;
import org.opensearch.common.settings.Settings;
import org.opensearch.core.common.breaker.CircuitBreaker;
import org.opensearch.indices.breaker.BreakerSettings;
import org.opensearch.common.settings.SettingsFilter;
import org.opensearch.core.common.io.stream.NamedWriteableRegistry;
import org.opensearch.index.mapper.Mapper;
import org.opensearch.ingest.Processor;
import org.opensearch.plugins.ActionPlugin;
import org.opensearch.plugins.CircuitBreakerPlugin;
import org.opensearch.plugins.IngestPlugin;
import org.opensearch.plugins.MapperPlugin;
import org.opensearch.plugins.Plugin;
import org.opensearch.plugins.SearchPlugin;
import org.opensearch.rest.RestController;
import org.opensearch.rest.RestHandler;
import org.opensearch.search.DocValueFormat;
import org.opensearch.search.fetch.FetchSubPhase;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** Wires the near-duplicate processor, field type, query, rescorer and REST API into OpenSearch. */
public class NearDuplicatePlugin extends Plugin implements IngestPlugin, ActionPlugin, MapperPlugin, SearchPlugin, CircuitBreakerPlugin {

    private final SimHasherCache hashers;

    public NearDuplicatePlugin(Settings settings) {
        this.hashers = new SimHasherCache(settings);
        ProbeFingerprinter.register(new SimHasherProbeFingerprinter(hashers));
    }

    @Override
    public List<Setting<?>> getSettings() {
        return SimHasherCache.settings();
    }

    /** The {@code near_duplicate} breaker: every fingerprint (ingest, text probe, {@code _simhash}) reserves from it. */
    @Override
    public BreakerSettings getCircuitBreaker(Settings settings) {
        return new BreakerSettings(
            SimHasherCache.BREAKER_NAME,
            SimHasherCache.BREAKER_LIMIT_SETTING.get(settings).getBytes(),
            1.0,
            CircuitBreaker.Type.MEMORY,
            CircuitBreaker.Durability.TRANSIENT
        );
    }

    @Override
    public void setCircuitBreaker(CircuitBreaker circuitBreaker) {
        hashers.setBreaker(circuitBreaker);
    }

    @Override
    public Map<String, Processor.Factory> getProcessors(Processor.Parameters parameters) {
        return Map.of(SimHashProcessor.TYPE, new SimHashProcessor.Factory(hashers));
    }

    @Override
    public Map<String, Mapper.TypeParser> getMappers() {
        return Map.of(SimHashFieldMapper.CONTENT_TYPE, SimHashFieldMapper.PARSER);
    }

    @Override
    public List<QuerySpec<?>> getQueries() {
        return List.of(
            new QuerySpec<>(NearDuplicateQueryBuilder.NAME, NearDuplicateQueryBuilder::new, NearDuplicateQueryBuilder::fromXContent)
        );
    }

    @Override
    public List<RescorerSpec<?>> getRescorers() {
        return List.of(
            new RescorerSpec<>(NearDuplicateRescorerBuilder.NAME, NearDuplicateRescorerBuilder::new, NearDuplicateRescorerBuilder::fromXContent)
        );
    }

    @Override
    public List<FetchSubPhase> getFetchSubPhases(FetchPhaseConstructionContext context) {
        return List.of(new NearDuplicateDistanceFetchSubPhase());
    }

    @Override
    public List<NamedWriteableRegistry.Entry> getNamedWriteables() {
        return List.of(new NamedWriteableRegistry.Entry(DocValueFormat.class, SimHashDocValueFormat.NAME, SimHashDocValueFormat::readFrom));
    }

    @Override
    public List<RestHandler> getRestHandlers(
        Settings settings,
        RestController restController,
        ClusterSettings clusterSettings,
        IndexScopedSettings indexScopedSettings,
        SettingsFilter settingsFilter,
        IndexNameExpressionResolver indexNameExpressionResolver,
        Supplier<DiscoveryNodes> nodesInCluster
    ) {
        return List.of(new RestSimHashAction(hashers));
    }
}
