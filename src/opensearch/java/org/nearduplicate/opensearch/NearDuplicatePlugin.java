package org.nearduplicate.opensearch;

import org.apache.lucene.util.SetOnce;

import org.opensearch.action.ActionRequest;
import org.opensearch.action.support.ActionFilter;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.settings.ClusterSettings;
import org.opensearch.common.settings.Setting;
import org.opensearch.common.settings.Settings;
import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.breaker.CircuitBreaker;
import org.opensearch.core.common.io.stream.NamedWriteableRegistry;
import org.opensearch.index.mapper.Mapper;
import org.opensearch.indices.breaker.BreakerSettings;
import org.opensearch.ingest.Processor;
import org.opensearch.rest.RestHandler;
import org.opensearch.search.DocValueFormat;
import org.opensearch.search.fetch.FetchSubPhase;
import org.opensearch.tasks.Task;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import org.nearduplicate.core.window.RecentFingerprints;
import org.nearduplicate.lucene.FingerprintColumns;
import org.nearduplicate.lucene.SegmentPathStats;
import org.nearduplicate.opensearch.action.check.CopyRefreshAction;
import org.nearduplicate.opensearch.action.check.TransportCopyRefreshAction;
import org.nearduplicate.opensearch.action.check.TransportWaitForRefreshAction;
import org.nearduplicate.opensearch.action.check.WaitForRefreshAction;
import org.nearduplicate.opensearch.action.groups.GroupsComputation;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsAction;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsTask;
import org.nearduplicate.opensearch.action.groups.SimHashGroupsWriteAction;
import org.nearduplicate.opensearch.action.groups.SimHashShardFingerprintsAction;
import org.nearduplicate.opensearch.action.groups.TransportSimHashGroupsAction;
import org.nearduplicate.opensearch.action.groups.TransportSimHashGroupsWriteAction;
import org.nearduplicate.opensearch.action.groups.TransportSimHashShardFingerprintsAction;
import org.nearduplicate.opensearch.action.simhash.IndexSimHashAction;
import org.nearduplicate.opensearch.action.simhash.SimHashAction;
import org.nearduplicate.opensearch.action.simhash.TransportIndexSimHashAction;
import org.nearduplicate.opensearch.action.simhash.TransportSimHashAction;
import org.nearduplicate.opensearch.action.stats.NearDuplicateStatsAction;
import org.nearduplicate.opensearch.action.stats.TransportNearDuplicateStatsAction;
import org.nearduplicate.opensearch.index.mapper.MinHashFieldMapper;
import org.nearduplicate.opensearch.index.mapper.ScanColumnMemory;
import org.nearduplicate.opensearch.index.mapper.SimHashDocValueFormat;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.nearduplicate.opensearch.index.query.ProbeQueryBuilder;
import org.nearduplicate.opensearch.index.query.minhash.MinHashQueryBuilder;
import org.nearduplicate.opensearch.index.query.minhash.MinHashQuerying;
import org.nearduplicate.opensearch.index.query.minhash.MinHashRescoring;
import org.nearduplicate.opensearch.index.query.simhash.SimHashQueryBuilder;
import org.nearduplicate.opensearch.index.query.simhash.SimHashQuerying;
import org.nearduplicate.opensearch.index.query.simhash.SimHashRescoring;
import org.nearduplicate.opensearch.ingest.ImatchMethod;
import org.nearduplicate.opensearch.ingest.MappedMaxDistance;
import org.nearduplicate.opensearch.ingest.MinHashMethod;
import org.nearduplicate.opensearch.ingest.SimHashCheckProcessor;
import org.nearduplicate.opensearch.ingest.SimHashMethod;
import org.nearduplicate.opensearch.ingest.SketchProcessor;
import org.nearduplicate.opensearch.ingest.WindowMemory;
import org.nearduplicate.opensearch.rest.RestNearDuplicateStatsAction;
import org.nearduplicate.opensearch.rest.RestSimHashAction;
import org.nearduplicate.opensearch.rest.RestSimHashGroupsAction;
import org.nearduplicate.opensearch.rest.RestSimHashGroupsWriteAction;
import org.nearduplicate.opensearch.search.fetch.FilteredOutFetchSubPhase;
import org.nearduplicate.opensearch.search.fetch.SimHashDistanceFetchSubPhase;
import org.nearduplicate.opensearch.search.rescore.MinHashRescorerBuilder;
import org.nearduplicate.opensearch.search.rescore.ProbeRescorerBuilder;
import org.nearduplicate.opensearch.search.rescore.SimHashRescorerBuilder;
import org.nearduplicate.opensearch.search.response.FilteredOutHitsActionFilter;
import org.nearduplicate.opensearch.sketching.SketchingService;

/** Wires the near-duplicate processors, field types, queries, rescorers, actions and REST API into the platform. */
public class NearDuplicatePlugin extends PlatformPlugin {

    /** The one gateway into the engine of this plugin instance: every processor, field type and REST action uses it. */
    private final SketchingService sketching;
    private final RecentFingerprints.Registry recentWindows;
    /** The node's fingerprint columns for the simhash queries' column scan (off while near_duplicate.scan_cache.size is 0). */
    private final FingerprintColumns scanColumns;
    private final SetOnce<ClusterService> clusterService = new SetOnce<>();

    public NearDuplicatePlugin(Settings settings) {
        this.sketching = new SketchingService(settings);
        this.recentWindows = new RecentFingerprints.Registry(
            () -> System.nanoTime() / 1_000_000,
            WindowMemory.MAX_NODE_ENTRIES_SETTING.get(settings),
            WindowMemory.MAX_NODE_BYTES_SETTING.get(settings).getBytes(),
            new WindowMemory(sketching::breaker)
        );
        recentWindows.addGauges(sketching.stats());
        this.scanColumns = ScanColumnMemory.columns(settings, sketching::breaker);
        SegmentPathStats.cacheGauges(sketching.stats(), scanColumns);
    }

    /** The node's column cache (bounded by near_duplicate.scan_cache.size; 0 bytes when off). */
    public FingerprintColumns scanColumns() {
        return scanColumns;
    }

    /** The node's recent windows of near_duplicate_check (bounded by window_max_entries and window_max_bytes). */
    public RecentFingerprints.Registry recentWindows() {
        return recentWindows;
    }

    /** Returns the cached columns' and the recent windows' bytes to the breaker, and stops the windows' sweep. */
    @Override
    public void close() throws IOException {
        scanColumns.clear();
        recentWindows.stopSweeping();
        recentWindows.clear();
        super.close();
    }

    /** The engine gateway of this plugin instance. */
    public SketchingService sketching() {
        return sketching;
    }

    @Override
    public List<Setting<?>> getSettings() {
        List<Setting<?>> settings = new java.util.ArrayList<>(SketchingService.settings());
        settings.add(WindowMemory.MAX_NODE_ENTRIES_SETTING);
        settings.add(WindowMemory.MAX_NODE_BYTES_SETTING);
        settings.add(ScanColumnMemory.SIZE_SETTING);
        settings.add(ScanColumnMemory.SHARE_PASSES_SETTING);
        settings.add(GroupsComputation.THREADS_SETTING);
        return settings;
    }

    /** The {@code near_duplicate} breaker: every fingerprint (ingest, text probe, {@code _simhash}) reserves from it. */
    @Override
    public BreakerSettings getCircuitBreaker(Settings settings) {
        return new BreakerSettings(
            SketchingService.BREAKER_NAME,
            SketchingService.BREAKER_LIMIT_SETTING.get(settings).getBytes(),
            1.0,
            CircuitBreaker.Type.MEMORY,
            CircuitBreaker.Durability.TRANSIENT
        );
    }

    @Override
    public void setCircuitBreaker(CircuitBreaker circuitBreaker) {
        sketching.setBreaker(circuitBreaker);
    }

    /** The processors; the node's scheduler, which they are handed, also sweeps the recent windows from now on. */
    @Override
    public Map<String, Processor.Factory> getProcessors(Processor.Parameters parameters) {
        if (parameters.scheduler != null) {
            recentWindows.startSweeping(WindowMemory.sweeps(parameters.scheduler));
        }
        return Map.of(
            SimHashMethod.TYPE,
            new SketchProcessor.Factory(new SimHashMethod(sketching)),
            SimHashCheckProcessor.TYPE,
            new SimHashCheckProcessor.Factory(
                parameters,
                recentWindows,
                MappedMaxDistance.fromClusterState(() -> clusterService.get() == null ? null : clusterService.get().state()),
                sketching.stats()
            ),
            MinHashMethod.TYPE,
            new SketchProcessor.Factory(new MinHashMethod(sketching)),
            ImatchMethod.TYPE,
            new SketchProcessor.Factory(new ImatchMethod(sketching))
        );
    }

    /** A deleted index's recent-fingerprints windows are forgotten, so that an index re-created under the name starts empty. */
    @Override
    protected Collection<Object> components(ClusterService clusterService) {
        this.clusterService.set(clusterService);
        clusterService.addListener(event -> event.indicesDeleted().forEach(index -> recentWindows.removeIndex(index.getName())));
        honourDynamicSettings(clusterService.getClusterSettings());
        return List.of(sketching); // injected into the transport actions
    }

    /**
     * The node settings an operator may change at runtime ({@code PUT _cluster/settings}): the input limits (read on each
     * request, probe and document), the breaker's limit, the recent windows' entry and byte bounds and the scan cache's size. See
     * docs/reliability.md for what a change does to work already under way.
     */
    void honourDynamicSettings(ClusterSettings clusterSettings) {
        clusterSettings.addSettingsUpdateConsumer(SketchingService.MAX_INPUT_CHARS_SETTING, sketching::setMaxInputChars);
        clusterSettings.addSettingsUpdateConsumer(SketchingService.MAX_FEATURES_SETTING, sketching::setMaxFeatures);
        clusterSettings.addSettingsUpdateConsumer(SketchingService.BREAKER_LIMIT_SETTING, sketching::setBreakerLimit);
        clusterSettings.addSettingsUpdateConsumer(WindowMemory.MAX_NODE_ENTRIES_SETTING, recentWindows::setMaxEntries);
        clusterSettings.addSettingsUpdateConsumer(WindowMemory.MAX_NODE_BYTES_SETTING, size -> recentWindows.setMaxBytes(size.getBytes()));
        clusterSettings.addSettingsUpdateConsumer(ScanColumnMemory.SIZE_SETTING, size -> scanColumns.setMaxBytes(size.getBytes()));
        clusterSettings.addSettingsUpdateConsumer(ScanColumnMemory.SHARE_PASSES_SETTING, scanColumns::setSharePasses);
    }

    @Override
    public Map<String, Mapper.TypeParser> getMappers() {
        return Map.of(
            SimHashFieldMapper.CONTENT_TYPE,
            SimHashFieldMapper.parser(sketching, scanColumns),
            MinHashFieldMapper.CONTENT_TYPE,
            MinHashFieldMapper.parser(sketching)
        );
    }

    @Override
    public List<QuerySpec<?>> getQueries() {
        return List.of(
            // the engine fingerprints a text probe once, on the coordinating node
            ProbeQueryBuilder.spec(SimHashQuerying.INSTANCE, SimHashQueryBuilder::new, SimHashQueryBuilder::new, sketching),
            ProbeQueryBuilder.spec(MinHashQuerying.INSTANCE, MinHashQueryBuilder::new, MinHashQueryBuilder::new, sketching)
        );
    }

    /** As the queries: the engine signs or fingerprints a text probe once, on the coordinating node. */
    @Override
    public List<RescorerSpec<?>> getRescorers() {
        return List.of(
            ProbeRescorerBuilder.spec(SimHashRescoring.INSTANCE, SimHashRescorerBuilder::new, SimHashRescorerBuilder::new, sketching),
            ProbeRescorerBuilder.spec(MinHashRescoring.INSTANCE, MinHashRescorerBuilder::new, MinHashRescorerBuilder::new, sketching)
        );
    }

    @Override
    public List<FetchSubPhase> getFetchSubPhases(FetchPhaseConstructionContext context) {
        return List.of(new SimHashDistanceFetchSubPhase(), new FilteredOutFetchSubPhase());
    }

    @Override
    public List<ActionFilter> getActionFilters() {
        return List.of(new FilteredOutHitsActionFilter());
    }

    @Override
    public List<NamedWriteableRegistry.Entry> getNamedWriteables() {
        return List.of(
            new NamedWriteableRegistry.Entry(DocValueFormat.class, SimHashDocValueFormat.NAME, SimHashDocValueFormat::readFrom),
            new NamedWriteableRegistry.Entry(Task.Status.class, SimHashGroupsTask.Status.NAME, SimHashGroupsTask.Status::new)
        );
    }

    @Override
    public List<ActionHandler<? extends ActionRequest, ? extends ActionResponse>> getActions() {
        return List.of(
            new ActionHandler<>(SimHashGroupsAction.INSTANCE, TransportSimHashGroupsAction.class),
            new ActionHandler<>(SimHashShardFingerprintsAction.INSTANCE, TransportSimHashShardFingerprintsAction.class),
            new ActionHandler<>(WaitForRefreshAction.INSTANCE, TransportWaitForRefreshAction.class),
            new ActionHandler<>(CopyRefreshAction.INSTANCE, TransportCopyRefreshAction.class),
            new ActionHandler<>(SimHashGroupsWriteAction.INSTANCE, TransportSimHashGroupsWriteAction.class),
            new ActionHandler<>(SimHashAction.INSTANCE, TransportSimHashAction.class),
            new ActionHandler<>(IndexSimHashAction.INSTANCE, TransportIndexSimHashAction.class),
            new ActionHandler<>(NearDuplicateStatsAction.INSTANCE, TransportNearDuplicateStatsAction.class)
        );
    }

    @Override
    protected List<RestHandler> restHandlers() {
        return List.of(
            new RestSimHashAction(sketching),
            new RestSimHashGroupsAction(),
            new RestSimHashGroupsWriteAction(),
            new RestNearDuplicateStatsAction()
        );
    }
}
