package org.nearduplicate.elasticsearch.common;

import org.apache.lucene.search.IndexSearcher;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;

import org.elasticsearch.ElasticsearchStatusException;
import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.ActionRequest;
import org.elasticsearch.action.ActionResponse;
import org.elasticsearch.action.ActionType;
import org.elasticsearch.action.IndicesRequest;
import org.elasticsearch.action.ResolvedIndices;
import org.elasticsearch.action.support.SubscribableListener;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.cluster.ClusterState;
import org.elasticsearch.cluster.metadata.IndexAbstraction;
import org.elasticsearch.cluster.metadata.IndexMetadata;
import org.elasticsearch.common.io.stream.StreamInput;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.common.util.concurrent.EsExecutors;
import org.elasticsearch.core.CheckedFunction;
import org.elasticsearch.core.TimeValue;
import org.elasticsearch.index.Index;
import org.elasticsearch.index.IndexService;
import org.elasticsearch.index.mapper.MappedFieldType;
import org.elasticsearch.index.query.QueryRewriteContext;
import org.elasticsearch.index.query.QueryShardException;
import org.elasticsearch.index.query.SearchExecutionContext;
import org.elasticsearch.rest.RestChannel;
import org.elasticsearch.rest.RestRequest;
import org.elasticsearch.rest.RestResponse;
import org.elasticsearch.rest.RestStatus;
import org.elasticsearch.rest.RestUtils;
import org.elasticsearch.search.fetch.subphase.FetchSourceContext;
import org.elasticsearch.search.internal.AliasFilter;
import org.elasticsearch.tasks.LoggingTaskListener;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.threadpool.Scheduler;
import org.elasticsearch.threadpool.ThreadPool;
import org.elasticsearch.xcontent.XContentBuilder;

/**
 * The few calls whose signatures differ between OpenSearch and Elasticsearch, so that the classes making them read the
 * same on both and the Elasticsearch build can port them (src/build/PortToElasticsearch.java). Each adapter has its own
 * class of this name; the types of the values may differ, the code that uses them does not.
 */
public final class Platform {
    private Platform() {}

    /** The executor argument of a transport action that runs on the thread that received it. */
    public static final Executor DIRECT_EXECUTOR = EsExecutors.DIRECT_EXECUTOR_SERVICE;

    /** The executor argument of a shard-level action that searches. */
    public static Executor searchExecutor(ThreadPool threadPool) {
        return threadPool.executor(ThreadPool.Names.SEARCH);
    }

    /** A context for building queries over one shard's searcher outside a search request. */
    public static SearchExecutionContext searchContext(IndexService indexService, int shardId, IndexSearcher searcher) {
        return indexService.newSearchExecutionContext(shardId, 0, searcher, System::currentTimeMillis, null, Map.of());
    }

    /** The request's {@code timeout} parameter, as a nodes request takes it. */
    public static TimeValue timeout(RestRequest request) {
        return RestUtils.getTimeout(request);
    }

    /** The field type a mapped field stands for (Elasticsearch does not wrap field types). */
    public static MappedFieldType unwrap(MappedFieldType type) {
        return type;
    }

    /** A listener that answers {@code listener} with {@code fn} of its response (failures pass through). */
    public static <T, R> ActionListener<T> map(ActionListener<R> listener, CheckedFunction<T, R, Exception> fn) {
        return listener.map(fn);
    }

    /** A listener that hands its response to {@code onResponse} with {@code listener}, and its failures to {@code listener}. */
    public static <T, R> ActionListener<T> delegateFailure(ActionListener<R> listener, BiConsumer<ActionListener<R>, T> onResponse) {
        return listener.delegateFailure(onResponse);
    }

    /** Fetch these fields of {@code _source} only. */
    public static FetchSourceContext sourceFields(String... includes) {
        return FetchSourceContext.of(true, includes, null);
    }

    /** An error with an HTTP {@code status} (e.g. 429 or 503), as the platform reports it. */
    public static RuntimeException statusException(String message, int status) {
        return new ElasticsearchStatusException(message, RestStatus.fromCode(status));
    }

    /** The probe queries' and rescorers' view of a shard's search context (see {@link ShardContext}). */
    public static ShardContext shardContext(SearchExecutionContext context) {
        return new ShardContext(
            context::getFieldType,
            () -> context.index().getName(),
            context::getIndexReader,
            (type, value) -> type.termQuery(value, context),
            (message, cause) -> cause == null ? new QueryShardException(context, message) : new QueryShardException(context, message, cause)
        );
    }

    /**
     * The local indices a search searches, on the coordinating node's rewrite of that search (and of validate, explain
     * and search_shards), which alone is given resolved indices; null in any other rewrite (a shard's, or outside a
     * search).
     */
    public static IndicesRequest searchedIndices(QueryRewriteContext context) {
        ResolvedIndices resolved = context.getResolvedIndices();
        if (context.convertToSearchExecutionContext() != null || resolved == null) {
            return null;
        }
        return resolved.getLocalIndices();
    }

    /** The indices of an index, alias or data stream of {@code state} (Elasticsearch's abstractions name them by {@link Index}). */
    public static List<IndexMetadata> indices(ClusterState state, IndexAbstraction abstraction) {
        List<IndexMetadata> result = new ArrayList<>();
        for (Index index : abstraction.getIndices()) {
            IndexMetadata metadata = state.metadata().index(index);
            if (metadata != null) result.add(metadata);
        }
        return result;
    }

    /** The index a write to an index, alias or data stream of {@code state} goes to: its write index, else its first. */
    public static IndexMetadata writeIndex(ClusterState state, IndexAbstraction abstraction) {
        Index index = abstraction.getWriteIndex() != null ? abstraction.getWriteIndex() : abstraction.getIndices().get(0);
        return state.metadata().index(index);
    }

    /** The processors the node may use (its {@code node.processors} setting, else the machine's). */
    public static int allocatedProcessors(Settings nodeSettings) {
        return EsExecutors.allocatedProcessors(nodeSettings);
    }

    /** Runs {@code command} on the generic pool after {@code delay}. */
    public static Scheduler.ScheduledCancellable scheduleGeneric(ThreadPool threadPool, Runnable command, TimeValue delay) {
        return threadPool.schedule(command, delay, threadPool.generic());
    }

    /** Runs {@code request} on this node as a task whose outcome is only logged (its stored result is the answer). */
    public static <Q extends ActionRequest, R extends ActionResponse> Task executeLogged(
        NodeClient client,
        ActionType<R> action,
        Q request
    ) {
        SubscribableListener<R> outcome = new SubscribableListener<>();
        Task task = client.executeLocally(action, request, outcome);
        outcome.addListener(new LoggingTaskListener<>(task));
        return task;
    }

    /** A REST response of {@code status} with {@code builder}'s content. */
    public static RestResponse restResponse(RestStatus status, XContentBuilder builder) {
        return new RestResponse(status, builder);
    }

    /** The REST response of a failure. */
    public static RestResponse restResponse(RestChannel channel, Exception e) throws IOException {
        return new RestResponse(channel, e);
    }

    /** An alias filter as written on the wire. */
    public static AliasFilter readAliasFilter(StreamInput in) throws IOException {
        return AliasFilter.readFrom(in);
    }

}
