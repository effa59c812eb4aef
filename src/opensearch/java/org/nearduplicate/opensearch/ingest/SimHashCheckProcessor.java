package org.nearduplicate.opensearch.ingest;

import org.opensearch.common.util.concurrent.AtomicArray;
import org.opensearch.ingest.AbstractProcessor;
import org.opensearch.ingest.IngestDocument;
import org.opensearch.ingest.IngestDocumentWrapper;
import org.opensearch.ingest.Processor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import org.nearduplicate.core.stats.NearDuplicateStats;
import org.nearduplicate.core.window.RecentFingerprints;
import org.nearduplicate.orchestration.check.NearDuplicateCheck;

/**
 * {@code near_duplicate_check} on OpenSearch: hands {@link NearDuplicateCheck} one document ({@code execute}) or all
 * documents of one bulk request for one index and pipeline ({@code batchExecute}), which it checks as one batch.
 */
public final class SimHashCheckProcessor extends AbstractProcessor {
    public static final String TYPE = NearDuplicateCheck.TYPE;
    /** Time from a document's check to its being searchable beyond the target's refresh_interval (scheduling, search). */
    public static final long REFRESH_MARGIN_MILLIS = NearDuplicateCheck.REFRESH_MARGIN_MILLIS;

    private final NearDuplicateCheck check;

    SimHashCheckProcessor(String tag, String description, NearDuplicateCheck check, Processor.Parameters parameters) {
        super(tag, description);
        this.check = check;
    }

    @Override
    public IngestDocument execute(IngestDocument document) {
        throw new UnsupportedOperationException("[" + TYPE + "] is asynchronous");
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

    @Override
    public String getType() {
        return TYPE;
    }

    int availableLookups() {
        return check.availableLookups();
    }

    int queuedLookups() {
        return check.queuedLookups();
    }

    /** Reads and validates the options ({@link CheckConfig}). */
    public static final class Factory implements Processor.Factory {
        private final Processor.Parameters parameters;
        private final RecentFingerprints.Registry windows;
        private final MappedMaxDistance mappedMaxDistance;
        private final NearDuplicateStats stats;

        /** Without a cluster state: an absent {@code max_distance} is the default of a new field (tests). */
        public Factory(Processor.Parameters parameters, RecentFingerprints.Registry windows) {
            this(parameters, windows, MappedMaxDistance.DEFAULT);
        }

        /** Outcomes not counted (tests). */
        public Factory(Processor.Parameters parameters, RecentFingerprints.Registry windows, MappedMaxDistance mappedMaxDistance) {
            this(parameters, windows, mappedMaxDistance, null);
        }

        /** {@code stats}: the node's counters, told each document's outcome (null: none). */
        public Factory(
            Processor.Parameters parameters,
            RecentFingerprints.Registry windows,
            MappedMaxDistance mappedMaxDistance,
            NearDuplicateStats stats
        ) {
            this.parameters = parameters;
            this.windows = windows;
            this.mappedMaxDistance = mappedMaxDistance;
            this.stats = stats;
        }

        @Override
        public SimHashCheckProcessor create(
            Map<String, Processor.Factory> registry,
            String tag,
            String description,
            Map<String, Object> config
        ) {
            NearDuplicateCheck check = CheckConfig.check(tag, config, parameters, mappedMaxDistance, windows, stats);
            return new SimHashCheckProcessor(tag, description, check, parameters);
        }
    }
}
