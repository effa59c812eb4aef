package org.nearduplicate.opensearch.ingest;

import org.opensearch.ExceptionsHelper;
import org.opensearch.action.search.SearchRequest;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.action.search.ShardSearchFailure;
import org.opensearch.action.support.IndicesOptions;
import org.opensearch.common.document.DocumentField;
import org.opensearch.common.unit.TimeValue;
import org.opensearch.common.xcontent.support.XContentMapValues;
import org.opensearch.core.action.ActionListener;
import org.opensearch.index.IndexNotFoundException;
import org.opensearch.index.query.BoolQueryBuilder;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.search.SearchHit;
import org.opensearch.search.builder.SearchSourceBuilder;
import org.opensearch.transport.client.Client;

import java.util.ArrayList;
import java.util.List;

import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.opensearch.action.check.WaitForRefreshAction;
import org.nearduplicate.opensearch.action.check.WaitForRefreshRequest;
import org.nearduplicate.opensearch.action.check.WaitForRefreshResponse;
import org.nearduplicate.opensearch.index.query.simhash.SimHashProbe;
import org.nearduplicate.opensearch.index.query.simhash.SimHashQueryBuilder;
import org.nearduplicate.orchestration.check.CandidateSearch;

/** The {@code near_duplicate} searches of a {@code near_duplicate_check}, sent with the node's client. */
final class TargetSearch implements CandidateSearch {
    /**
     * Not lenient about the target: a security layer (x-pack security, the security plugin) silently drops the
     * indices a user may not read from a request that ignores unavailable indices, and the check would then call a
     * document {@code unique} without having looked. Strict, an unreadable target fails the lookup with the 403 (the
     * document fails, or is {@code unchecked} with {@code on_unavailable: tag}); a missing target is an empty one.
     */
    static final IndicesOptions LOOKUP_INDICES_OPTIONS = IndicesOptions.fromOptions(false, true, true, false);

    private final Client client;

    TargetSearch(Client client) {
        this.client = client;
    }

    /**
     * With {@code wait_for_refresh}, first waits until the target's started shard copies have made searchable the writes
     * they had (acknowledged writes included), then searches; a wait that fails or times out fails the lookup.
     */
    @Override
    public void search(Request request, Listener listener) {
        if (request.waitForRefresh() == false) {
            send(request, listener);
            return;
        }
        WaitForRefreshRequest wait = new WaitForRefreshRequest(
            new String[] { request.targetIndex() },
            LOOKUP_INDICES_OPTIONS,
            TimeValue.parseTimeValue(request.timeout().value(), "timeout")
        );
        client.execute(WaitForRefreshAction.INSTANCE, wait, new ActionListener<WaitForRefreshResponse>() {
            @Override
            public void onResponse(WaitForRefreshResponse response) {
                try {
                    send(request, listener);
                } catch (Exception e) {
                    listener.onFailure(e);
                }
            }

            @Override
            public void onFailure(Exception e) {
                listener.onFailure(e);
            }
        });
    }

    private void send(Request request, Listener listener) {
        client.search(searchRequest(request), new ActionListener<SearchResponse>() {
            @Override
            public void onResponse(SearchResponse response) {
                Response candidates;
                try {
                    candidates = candidates(response, request.field());
                } catch (Exception e) {
                    listener.onFailure(e);
                    return;
                }
                listener.onResponse(candidates);
            }

            @Override
            public void onFailure(Exception e) {
                listener.onFailure(e);
            }
        });
    }

    @Override
    public boolean missingIndex(Exception e) {
        return ExceptionsHelper.unwrapCause(e) instanceof IndexNotFoundException;
    }

    @Override
    public int status(Exception e) {
        return ExceptionsHelper.status(ExceptionsHelper.unwrapCause(e)).getStatus();
    }

    /** One document: a size-1 search without the document itself. Several: one query for all their fingerprints. */
    static SearchRequest searchRequest(Request request) {
        SearchSourceBuilder source = new SearchSourceBuilder();
        if (request.single()) {
            long fingerprint = request.fingerprints()[0];
            byte[] signature = request.signatures()[0];
            byte[] keys = request.keys() == null ? null : request.keys()[0];
            // the document's candidate keys (simhash-v7): the target's query reads their postings, not every fingerprint
            SimHashProbe probe = signature != null
                ? SimHashProbe.fingerprint(new SimHash(fingerprint, signature), keys, request.algorithm())
                : SimHashProbe.fingerprints(new long[] { fingerprint }, new byte[][] { null }, request.algorithm());
            BoolQueryBuilder query = QueryBuilders.boolQuery()
                .must(new SimHashQueryBuilder(request.field(), probe).maxDistance(request.maxDistance()).ignoreUnmapped(true));
            if (request.id() != null) {
                // the document itself (an earlier version): its _id in its own index, not the same _id in another one
                query.mustNot(
                    request.index() == null
                        ? QueryBuilders.idsQuery().addIds(request.id())
                        : QueryBuilders.boolQuery()
                            .filter(QueryBuilders.idsQuery().addIds(request.id()))
                            .filter(QueryBuilders.termQuery("_index", request.index()))
                );
            }
            source.query(query);
        } else {
            SimHashProbe probe = SimHashProbe.fingerprints(
                request.fingerprints(),
                request.signatures(),
                request.keys(),
                request.algorithm()
            );
            source.query(
                QueryBuilders.constantScoreQuery(
                    new SimHashQueryBuilder(request.field(), probe).maxDistance(request.maxDistance()).ignoreUnmapped(true)
                )
            );
        }
        source.size(request.size())
            .docValueField(request.field())
            .timeout(TimeValue.parseTimeValue(request.timeout().value(), "timeout"))
            .trackTotalHits(false);
        if (request.sourceIncludes().isEmpty()) {
            source.fetchSource(false);
        } else {
            source.fetchSource(request.sourceIncludes().toArray(String[]::new), null);
        }
        return new SearchRequest(request.targetIndex()).source(source).indicesOptions(LOOKUP_INDICES_OPTIONS);
    }

    /** The hits with the field's doc value and a path-aware reader of their {@code _source}; the first shard failure. */
    private static Response candidates(SearchResponse response, String field) {
        SearchHit[] hits = response.getHits().getHits();
        List<Hit> candidates = new ArrayList<>(hits.length);
        for (SearchHit hit : hits) {
            DocumentField values = hit.field(field);
            candidates.add(
                new Hit(
                    hit.getId(),
                    hit.getIndex(),
                    values == null ? null : values.getValue(),
                    path -> hit.hasSource() ? XContentMapValues.extractValue(path, hit.getSourceAsMap()) : null
                )
            );
        }
        ShardSearchFailure[] failures = response.getShardFailures();
        ShardSearchFailure first = failures.length > 0 ? failures[0] : null;
        return new Response(
            candidates,
            response.getFailedShards(),
            first == null ? null : first.reason(),
            first == null ? 0 : first.status().getStatus()
        );
    }
}
