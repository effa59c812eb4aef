package org.nearduplicate.opensearch.ingest;

import org.opensearch.common.util.concurrent.AtomicArray;
import org.opensearch.ingest.IngestDocument;
import org.opensearch.ingest.IngestDocumentWrapper;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import org.nearduplicate.core.window.RecentFingerprints;

/**
 * One bulk request's documents in a {@code near_duplicate_check} (one {@code batchExecute} call, or one document
 * checked alone): a token for the windows' gaps, the bulk sets that compare each document with every earlier one of
 * the request, and how its lookups are grouped into searches.
 */
final class CheckBatch {
    /** Identifies the batch to the windows, which track their gaps per batch. */
    final Object token = new Object();
    final int size;
    /** Per (target, k, algorithm); null for a document checked alone. */
    private final Map<String, RecentFingerprints> sets;
    private final RecentFingerprints.Registry windows;

    CheckBatch(int size, RecentFingerprints.Registry windows) {
        this.size = size;
        this.windows = windows;
        this.sets = size > 1 ? new LinkedHashMap<>() : null;
    }

    /** The bulk set of (target, k, algorithm), created on first use; null for a document checked alone. */
    RecentFingerprints set(String targetIndex, int maxDistance, String algorithm) {
        if (sets == null) {
            return null;
        }
        return sets.computeIfAbsent(
            targetIndex + '\u0000' + maxDistance + '\u0000' + algorithm,
            k -> RecentFingerprints.bulkSet(maxDistance, windows.bulkBudget())
        );
    }

    /** The bulk sets are needed while the batch's documents are prepared (synchronously), not by their searches. */
    void release() {
        if (sets != null) {
            sets.values().forEach(RecentFingerprints::retire);
        }
    }

    /**
     * Per document, the handler of its answer; {@code handler} gets every document's result, in the documents' order,
     * once the last one is answered.
     */
    static List<BiConsumer<IngestDocument, Exception>> collect(
        List<IngestDocumentWrapper> documents,
        Consumer<List<IngestDocumentWrapper>> handler
    ) {
        AtomicArray<IngestDocumentWrapper> results = new AtomicArray<>(documents.size());
        AtomicInteger remaining = new AtomicInteger(documents.size());
        List<BiConsumer<IngestDocument, Exception>> handlers = new ArrayList<>(documents.size());
        for (int i = 0; i < documents.size(); i++) {
            int slot = i;
            IngestDocumentWrapper wrapper = documents.get(i);
            handlers.add((doc, e) -> {
                results.set(slot, new IngestDocumentWrapper(wrapper.getSlot(), wrapper.getChildSlot(), doc, e));
                if (remaining.decrementAndGet() == 0) {
                    handler.accept(results.asList());
                }
            });
        }
        return handlers;
    }

    /**
     * The searches of {@code lookups}: lookups of one target, k and algorithm share searches of up to {@code batchSize}
     * fingerprints, in the order the groups first appear.
     */
    static List<List<Lookup>> searches(List<Lookup> lookups, int batchSize) {
        Map<String, List<Lookup>> byTarget = new LinkedHashMap<>();
        for (Lookup lookup : lookups) {
            byTarget.computeIfAbsent(lookup.key.searchKey(), k -> new ArrayList<>()).add(lookup);
        }
        List<List<Lookup>> searches = new ArrayList<>();
        for (List<Lookup> group : byTarget.values()) {
            for (int from = 0; from < group.size(); from += batchSize) {
                searches.add(group.subList(from, Math.min(from + batchSize, group.size())));
            }
        }
        return searches;
    }
}
