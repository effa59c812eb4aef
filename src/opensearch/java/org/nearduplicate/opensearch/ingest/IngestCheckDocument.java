package org.nearduplicate.opensearch.ingest;

import org.opensearch.ingest.IngestDocument;

import java.util.function.BiConsumer;

import org.nearduplicate.opensearch.common.Platform;
import org.nearduplicate.orchestration.check.CheckDocument;

/** An ingest document of a {@code near_duplicate_check} and the handler that continues its pipeline. */
final class IngestCheckDocument implements CheckDocument {
    private final IngestDocument document;
    private final BiConsumer<IngestDocument, Exception> handler;

    IngestCheckDocument(IngestDocument document, BiConsumer<IngestDocument, Exception> handler) {
        this.document = document;
        this.handler = handler;
    }

    @Override
    public Object value(String path) {
        return document.getFieldValue(path, Object.class, true);
    }

    @Override
    public String index() {
        return document.getFieldValue(IngestDocument.Metadata.INDEX.getFieldName(), String.class, true);
    }

    @Override
    public String id() {
        return document.getFieldValue(IngestDocument.Metadata.ID.getFieldName(), String.class, true);
    }

    @Override
    public void set(String path, Object value) {
        document.setFieldValue(path, value);
    }

    @Override
    public void pass() {
        handler.accept(document, null);
    }

    @Override
    public void drop() {
        handler.accept(null, null); // the ingest "drop" semantics: the document is not indexed
    }

    @Override
    public void fail(Exception e) {
        handler.accept(null, e);
    }

    @Override
    public Exception error(String message, int status) {
        return Platform.statusException(message, status);
    }
}
