package org.nearduplicate.elasticsearch.ingest;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

import org.elasticsearch.common.util.concurrent.ThreadContext;
import org.elasticsearch.ingest.IngestDocument;
import org.elasticsearch.ingest.Processor;
import org.nearduplicate.orchestration.check.NearDuplicateCheck;
import org.nearduplicate.orchestration.check.RequestScope;
import org.nearduplicate.orchestration.check.StreamedBatches;

/**
 * {@code near_duplicate_check} on Elasticsearch, which has no batch ingest API: the documents of a bulk request come
 * one by one and are gathered into batches by {@link StreamedBatches}, which finds a bulk request's open batch through
 * the request's thread context (a transient of this processor) and sends its searches under the request's headers.
 */
public final class SimHashCheckProcessor extends CheckProcessor {
    private static final AtomicLong INSTANCES = new AtomicLong();

    private final StreamedBatches batches;

    /** {@code threadContext}: where a bulk request's open batch is found; null (tests): per thread. */
    private SimHashCheckProcessor(String tag, String description, NearDuplicateCheck check, ThreadContext threadContext) {
        super(tag, description, check);
        this.batches = new StreamedBatches(check, threadContext == null ? null : new Scope(threadContext));
    }

    /** The processor of {@link CheckProcessor.Factory}. */
    static SimHashCheckProcessor of(String tag, String description, NearDuplicateCheck check, Processor.Parameters parameters) {
        return new SimHashCheckProcessor(tag, description, check, parameters.threadContext);
    }

    @Override
    public boolean isAsync() {
        return true;
    }

    @Override
    public void execute(IngestDocument document, BiConsumer<IngestDocument, Exception> handler) {
        batches.check(new IngestCheckDocument(document, handler));
    }

    /** A bulk request as its thread context knows it. */
    private static final class Scope implements RequestScope {
        private final ThreadContext threadContext;
        /** The transient of this processor in a bulk request's thread context. */
        private final String key = "_near_duplicate_check_batch_" + INSTANCES.incrementAndGet();

        Scope(ThreadContext threadContext) {
            this.threadContext = threadContext;
        }

        @Override
        public <T> T attached(Supplier<T> create) {
            T value = threadContext.getTransient(key);
            if (value == null) {
                value = create.get();
                threadContext.putTransient(key, value);
            }
            return value;
        }

        /**
         * The bulk request's headers (its user's authentication among them) in an otherwise fresh context: the lookups
         * are authorized as that user's own searches. Not the whole context: its transients hold what security decided
         * for the bulk request (the target index's access control), under which a search of another index read nothing.
         */
        @Override
        public Context capture() {
            Map<String, String> headers = Map.copyOf(threadContext.getHeaders());
            return () -> {
                ThreadContext.StoredContext restore = threadContext.stashContext();
                threadContext.copyHeaders(headers.entrySet());
                return restore::close;
            };
        }
    }
}
