package org.nearduplicate.opensearch.ingest;

import org.opensearch.common.util.concurrent.AtomicArray;
import org.opensearch.ingest.IngestDocument;
import org.opensearch.ingest.IngestDocumentWrapper;
import org.opensearch.ingest.Processor;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import org.nearduplicate.orchestration.check.NearDuplicateCheck;

/**
 * {@code near_duplicate_check} on OpenSearch: hands {@link NearDuplicateCheck} one document ({@code execute}) or all
 * documents of one bulk request for one index and pipeline ({@code batchExecute}), which it checks as one batch.
 */
public final class SimHashCheckProcessor extends CheckProcessor {

    private SimHashCheckProcessor(String tag, String description, NearDuplicateCheck check) {
        super(tag, description, check);
    }

    /** The processor of {@link CheckProcessor.Factory}. */
    static SimHashCheckProcessor of(String tag, String description, NearDuplicateCheck check, Processor.Parameters parameters) {
        return new SimHashCheckProcessor(tag, description, check);
    }

    @Override
    public void execute(IngestDocument document, BiConsumer<IngestDocument, Exception> handler) {
        check.check(new IngestCheckDocument(document, handler));
    }

    @Override
    public void batchExecute(List<IngestDocumentWrapper> documents, Consumer<List<IngestDocumentWrapper>> handler) {
        if (documents.isEmpty()) {
            handler.accept(List.of());
            return;
        }
        List<BiConsumer<IngestDocument, Exception>> handlers = collect(documents, handler);
        List<IngestCheckDocument> batch = new ArrayList<>(documents.size());
        for (int i = 0; i < documents.size(); i++) {
            batch.add(new IngestCheckDocument(documents.get(i).getIngestDocument(), handlers.get(i)));
        }
        check.checkAll(batch);
    }

    /**
     * Per document, the handler of its answer; {@code handler} gets every document's result, in the documents' order,
     * once the last one is answered.
     */
    private static List<BiConsumer<IngestDocument, Exception>> collect(
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
}
