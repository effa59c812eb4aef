package org.nearduplicate.opensearch.index.query;

import org.apache.lucene.util.SetOnce;

import org.opensearch.action.IndicesRequest;
import org.opensearch.action.admin.indices.mapping.get.GetFieldMappingsRequest;
import org.opensearch.core.action.ActionListener;
import org.opensearch.index.query.QueryRewriteContext;
import org.opensearch.threadpool.ThreadPool;

import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

import org.nearduplicate.opensearch.common.FieldMappings;
import org.nearduplicate.opensearch.common.Platform;
import org.nearduplicate.opensearch.sketching.SketchingService;

/**
 * Fingerprints a {@code text}/{@code html} probe once per search, on the coordinating node, with the algorithm the
 * searched indices map for the target field, so that the shards receive the fingerprint (or signature) instead of
 * each fingerprinting the text. Shared by the {@code near_duplicate} query and rescorer and {@code minhash_similar}.
 */
final class CoordinatorFingerprinting {
    private CoordinatorFingerprinting() {}

    /**
     * Registers, with the rewrite, a get-field-mappings call for {@code field} in the searched indices and, when they
     * map it as {@code fieldType} with one {@code algorithm}, runs {@code fingerprint} with it on the search pool (it is
     * CPU work on a possibly large page). Returns what supplies the outcome: null until known, then the fingerprinted
     * probe, or {@link Optional#empty()} when the shards must fingerprint (several algorithms, or the field mapped
     * with another type somewhere: the shards then report it). Returns null, registering nothing, outside a search's
     * coordinating rewrite or without an engine.
     *
     * @param owner prefixes a 400 error of the engine, e.g. {@code [near_duplicate]}
     */
    static <T> Supplier<Optional<T>> register(
        QueryRewriteContext context,
        String field,
        String fieldType,
        SketchingService sketching,
        String owner,
        Function<String, T> fingerprint
    ) {
        IndicesRequest searched = sketching == null ? null : Platform.searchedIndices(context);
        if (searched == null) {
            return null;
        }
        SetOnce<Optional<T>> outcome = new SetOnce<>();
        context.registerAsyncAction((client, listener) -> {
            GetFieldMappingsRequest mappings = new GetFieldMappingsRequest().indices(searched.indices())
                .indicesOptions(searched.indicesOptions())
                .fields(field)
                .includeDefaults(true);
            client.admin().indices().getFieldMappings(mappings, ActionListener.wrap(response -> {
                String algorithm = FieldMappings.singleAlgorithm(response, field, fieldType);
                if (algorithm == null) {
                    outcome.set(Optional.empty());
                    listener.onResponse(null);
                    return;
                }
                client.threadPool().executor(ThreadPool.Names.SEARCH).execute(() -> {
                    T fingerprinted;
                    try {
                        fingerprinted = fingerprint.apply(algorithm);
                    } catch (IllegalArgumentException e) {
                        listener.onFailure(new IllegalArgumentException(owner + " " + e.getMessage(), e));
                        return;
                    } catch (Exception e) {
                        listener.onFailure(e);
                        return;
                    }
                    outcome.set(Optional.of(fingerprinted));
                    listener.onResponse(null);
                });
            }, listener::onFailure));
        });
        return outcome::get;
    }
}
