package org.nearduplicate.opensearch.common;

import org.apache.lucene.search.IndexSearcher;

import org.opensearch.OpenSearchStatusException;
import org.opensearch.action.ActionRequest;
import org.opensearch.action.ActionType;
import org.opensearch.action.IndicesRequest;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.metadata.IndexAbstraction;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.common.CheckedFunction;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.unit.TimeValue;
import org.opensearch.common.util.concurrent.OpenSearchExecutors;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.index.IndexService;
import org.opensearch.index.mapper.MappedFieldType;
import org.opensearch.index.query.QueryCoordinatorContext;
import org.opensearch.index.query.QueryRewriteContext;
import org.opensearch.index.query.QueryShardContext;
import org.opensearch.index.query.QueryShardException;
import org.opensearch.rest.BytesRestResponse;
import org.opensearch.rest.RestChannel;
import org.opensearch.rest.RestRequest;
import org.opensearch.rest.RestResponse;
import org.opensearch.search.fetch.subphase.FetchSourceContext;
import org.opensearch.search.internal.AliasFilter;
import org.opensearch.tasks.LoggingTaskListener;
import org.opensearch.tasks.Task;
import org.opensearch.threadpool.Scheduler;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.client.node.NodeClient;

import java.io.IOException;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The few calls whose signatures differ between OpenSearch and Elasticsearch, so that the classes making them read the
 * same on both and the Elasticsearch build can port them (src/build/PortToElasticsearch.java). Each adapter has its own
 * class of this name; the types of the values may differ, the code that uses them does not.
 */
public final class Platform {
    private Platform() {}

    /** The executor argument of a transport action that runs on the thread that received it. */
    public static final String DIRECT_EXECUTOR = ThreadPool.Names.SAME;

    /** The executor argument of a shard-level action that searches. */
    public static String searchExecutor(ThreadPool threadPool) {
        return ThreadPool.Names.SEARCH;
    }

    /** A context for building queries over one shard's searcher outside a search request. */
    public static QueryShardContext searchContext(IndexService indexService, int shardId, IndexSearcher searcher) {
        return indexService.newQueryShardContext(shardId, searcher, System::currentTimeMillis, null);
    }

    /** The request's {@code timeout} parameter, as a nodes request takes it. */
    public static String timeout(RestRequest request) {
        return request.param("timeout");
    }

    /** The field type a mapped field stands for (OpenSearch wraps some field types). */
    public static MappedFieldType unwrap(MappedFieldType type) {
        return type.unwrap();
    }

    /** A listener that answers {@code listener} with {@code fn} of its response (failures pass through). */
    public static <T, R> ActionListener<T> map(ActionListener<R> listener, CheckedFunction<T, R, Exception> fn) {
        return ActionListener.map(listener, fn);
    }

    /** A listener that hands its response to {@code onResponse} with {@code listener}, and its failures to {@code listener}. */
    public static <T, R> ActionListener<T> delegateFailure(ActionListener<R> listener, BiConsumer<ActionListener<R>, T> onResponse) {
        return ActionListener.delegateFailure(listener, onResponse);
    }

    /** Fetch these fields of {@code _source} only. */
    public static FetchSourceContext sourceFields(String... includes) {
        return new FetchSourceContext(true, includes, null);
    }

    /** An error with an HTTP {@code status} (e.g. 429 or 503), as the platform reports it. */
    public static RuntimeException statusException(String message, int status) {
        return new OpenSearchStatusException(message, RestStatus.fromCode(status));
    }

    /** The probe queries' and rescorers' view of a shard's search context (see {@link ShardContext}). */
    public static ShardContext shardContext(QueryShardContext context) {
        return new ShardContext(
            context::fieldMapper,
            () -> context.index().getName(),
            context::getIndexReader,
            (type, value) -> type.termQuery(value, context),
            (message, cause) -> cause == null ? new QueryShardException(context, message) : new QueryShardException(context, message, cause)
        );
    }

    /**
     * The indices a search searches, on the coordinating node's rewrite of that search; null in any other rewrite (a
     * shard's, or outside a search).
     */
    public static IndicesRequest searchedIndices(QueryRewriteContext context) {
        QueryCoordinatorContext coordinator = context.convertToCoordinatorContext();
        return coordinator == null ? null : coordinator.getSearchRequest();
    }

    /** The indices of an index, alias or data stream of {@code state}. */
    public static List<IndexMetadata> indices(ClusterState state, IndexAbstraction abstraction) {
        return abstraction.getIndices();
    }

    /** The index a write to an index, alias or data stream of {@code state} goes to: its write index, else its first. */
    public static IndexMetadata writeIndex(ClusterState state, IndexAbstraction abstraction) {
        return abstraction.getWriteIndex() != null ? abstraction.getWriteIndex() : abstraction.getIndices().get(0);
    }

    /** The processors the node may use (its {@code node.processors} setting, else the machine's). */
    public static int allocatedProcessors(Settings nodeSettings) {
        return OpenSearchExecutors.allocatedProcessors(nodeSettings);
    }

    /** Runs {@code command} on the generic pool after {@code delay}. */
    public static Scheduler.ScheduledCancellable scheduleGeneric(ThreadPool threadPool, Runnable command, TimeValue delay) {
        return threadPool.schedule(command, delay, ThreadPool.Names.GENERIC);
    }

    /** Runs {@code request} on this node as a task whose outcome is only logged (its stored result is the answer). */
    public static <Q extends ActionRequest, R extends ActionResponse> Task executeLogged(
        NodeClient client,
        ActionType<R> action,
        Q request
    ) {
        return client.executeLocally(action, request, LoggingTaskListener.instance());
    }

    /** A REST response of {@code status} with {@code builder}'s content. */
    public static RestResponse restResponse(RestStatus status, XContentBuilder builder) {
        return new BytesRestResponse(status, builder);
    }

    /** The REST response of a failure. */
    public static RestResponse restResponse(RestChannel channel, Exception e) throws IOException {
        return new BytesRestResponse(channel, e);
    }

    /** An alias filter as written on the wire. */
    public static AliasFilter readAliasFilter(StreamInput in) throws IOException {
        return new AliasFilter(in);
    }

}
