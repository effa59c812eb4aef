package org.nearduplicate.elasticsearch.ingest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Supplier;

import org.elasticsearch.client.internal.Client;
import org.elasticsearch.common.util.concurrent.ThreadContext;
import org.elasticsearch.ingest.AbstractProcessor;
import org.elasticsearch.ingest.IngestDocument;
import org.elasticsearch.ingest.Processor;
import org.elasticsearch.threadpool.Scheduler;
import org.nearduplicate.core.stats.NearDuplicateStats;
import org.nearduplicate.core.window.RecentFingerprints;

/**
 * {@code near_duplicate_check}: after {@code simhash} has fingerprinted a document, looks for the closest existing
 * near-duplicate (within {@code max_distance}) in a target index and records it on the document, or drops the document.
 *
 * <p>Three sources are consulted: a {@code near_duplicate} search of the target index (asynchronous, with a timeout and
 * a cap on in-flight searches), the node's {@link RecentFingerprints} window, which holds the documents this node
 * checked recently and so catches copies not yet refreshed, and the bulk set, which holds every earlier document of the
 * same bulk request (batch), whatever its size. The closest wins (the index on ties). Fingerprints are compared only
 * with fingerprints of the same algorithm: the search sends the document's {@code algorithm}, and windows and bulk
 * sets are kept per algorithm.
 *
 * <p>A document that found nothing is {@code unchecked} rather than {@code unique} when the answer may be incomplete:
 * the target is closed or mapped with another algorithm, the bulk set could not keep every earlier document of the
 * bulk (memory), or the window let go of a document this node checked before it may be searchable (a gap, see
 * {@link RecentFingerprints#staleUntil}).
 *
 * <p>Result ({@code result_field}, default {@code near_duplicate}):
 * {@code {"status": "duplicate", "_id": "...", "_index": "...", "distance": 2, "source": "index" | "recent"}},
 * {@code {"status": "unique"}}, or {@code {"status": "unchecked", "reason": "..."}} when the check could not be sure
 * (lookup timed out, refused or failed, closed target, another algorithm, bulk set overflow, window gap) and
 * {@code on_unavailable} is {@code tag}; with {@code fail}, an ingest error with a status per case (400, 429 or 503).
 *
 * <p><b>Batches on Elasticsearch.</b> Elasticsearch has no batch ingest API (OpenSearch's {@code batchExecute}): it runs
 * a bulk request's documents one by one, in order, on one thread, and moves on to the next document as soon as an
 * asynchronous processor has returned from {@link #execute(IngestDocument, BiConsumer)}. The processor therefore keeps
 * an open batch per bulk request, found through the request's thread context (a transient of this processor): the
 * first document opens it, every later document of the request joins it (compared with the batch's bulk set, in
 * order), and its lookups wait in it, {@code batch_size} per search and target. A search goes out as soon as it is
 * full, or once no document came for {@link #SEARCH_LINGER_MILLIS}, under the request's thread context. The batch
 * closes once no document came for {@link #BATCH_CLOSE_MILLIS} (Elasticsearch does not say when a bulk request's
 * documents end): then its bulk sets are given back. Documents of the request that come after that (a pause longer
 * than that, e.g. a long GC) open a new batch, with a new bulk set; the window still compares them with the earlier ones.
 *
 * <p>The processor only sequences the parts, one concern each: {@link CheckOptions} (the options, parsed once),
 * {@link WindowCheck} (reading the document, the window and the bulk set), {@link CheckBatch} (one bulk request's
 * documents and their searches), {@link LookupAdmission} (in-flight cap, queue, timeouts), {@link LookupSearch} (the
 * searches and their hits) and {@link CheckOutput} (the result, the group, drop or fail).
 */
public final class SimHashCheckProcessor extends AbstractProcessor {
    public static final String TYPE = "near_duplicate_check";
    /** Time from a document's check to its being searchable beyond the target's refresh_interval (scheduling, search). */
    public static final long REFRESH_MARGIN_MILLIS = 1_000;
    /** The lookups of an open batch wait this long for more documents of their bulk request before their search goes out. */
    public static final long SEARCH_LINGER_MILLIS = 2;
    /**
     * An open batch closes (gives its bulk sets back) after this long without a new document: Elasticsearch has no
     * end-of-bulk signal.
     */
    public static final long BATCH_CLOSE_MILLIS = 100;

    private static final long SEARCH_LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(SEARCH_LINGER_MILLIS);
    private static final long CLOSE_NANOS = TimeUnit.MILLISECONDS.toNanos(BATCH_CLOSE_MILLIS);
    private static final AtomicLong INSTANCES = new AtomicLong();

    private final CheckOptions options;
    private final RecentFingerprints.Registry windows;
    private final WindowCheck check;
    private final LookupAdmission admission;
    private final LookupSearch search;
    private final BiFunction<Long, Runnable, Scheduler.ScheduledCancellable> scheduler;
    /** Where a bulk request's open batch is found: its thread context; null (tests): per thread. */
    private final ThreadContext threadContext;
    /** The transient of this processor in a bulk request's thread context. */
    private final String batchKey = "_near_duplicate_check_batch_" + INSTANCES.incrementAndGet();
    private final ThreadLocal<BatchHolder> threadBatches = ThreadLocal.withInitial(BatchHolder::new);

    SimHashCheckProcessor(
        String tag,
        String description,
        CheckOptions options,
        MappedMaxDistance mappedMaxDistance,
        Client client,
        BiFunction<Long, Runnable, Scheduler.ScheduledCancellable> scheduler,
        RecentFingerprints.Registry windows
    ) {
        this(tag, description, options, mappedMaxDistance, client, scheduler, windows, null, null);
    }

    SimHashCheckProcessor(
        String tag,
        String description,
        CheckOptions options,
        MappedMaxDistance mappedMaxDistance,
        Client client,
        BiFunction<Long, Runnable, Scheduler.ScheduledCancellable> scheduler,
        RecentFingerprints.Registry windows,
        ThreadContext threadContext,
        NearDuplicateStats stats
    ) {
        super(tag, description);
        this.options = options;
        this.windows = windows;
        this.scheduler = scheduler;
        this.threadContext = threadContext;
        this.check = new WindowCheck(options, mappedMaxDistance, windows, new CheckOutput(options, stats));
        this.admission = new LookupAdmission(options.maxInFlight(), options.maxQueued(), options.timeout(), scheduler);
        this.search = new LookupSearch(options, client, admission);
    }

    @Override
    public boolean isAsync() {
        return true;
    }

    @Override
    public IngestDocument execute(IngestDocument document) {
        throw new UnsupportedOperationException("[" + TYPE + "] is asynchronous");
    }

    /**
     * One document of a bulk request: checked against the window and against every earlier document of its batch (the
     * bulk set) at once, in the order the documents come; its search waits in the batch until {@code batch_size}
     * lookups of its target share it, or the batch closes.
     */
    @Override
    public void execute(IngestDocument document, BiConsumer<IngestDocument, Exception> handler) {
        BatchHolder holder = holder();
        DeferredHandler deferred = new DeferredHandler(handler);
        OpenBatch toCheck = null;
        long checkSeq = 0;
        Lookup lookup = null;
        List<Lookup> full = null;
        try {
            synchronized (holder) {
                OpenBatch open = holder.current;
                if (open == null || open.closed) {
                    open = new OpenBatch(holder, new CheckBatch(windows), restorableContext());
                    holder.current = open;
                }
                open.batch.size++;
                try {
                    lookup = check.prepare(document, deferred, open.batch);
                } finally {
                    open.lastNanos = System.nanoTime();
                }
                if (lookup != null && lookup.unavailable == null) {
                    String key = lookup.key.searchKey();
                    List<Lookup> group = open.pending.computeIfAbsent(key, k -> new ArrayList<>());
                    group.add(lookup);
                    if (group.size() >= options.batchSize()) {
                        full = open.pending.remove(key);
                    }
                }
                // the first document, or lookups waiting while the next check is the batch's close: check after their linger
                long due = open.lastNanos + SEARCH_LINGER_NANOS;
                if (open.checkSeq == 0 || (open.pending.isEmpty() == false && open.checkDueNanos - due > 0)) {
                    checkSeq = ++open.checkSeq;
                    open.checkDueNanos = due;
                    toCheck = open;
                }
            }
        } finally {
            deferred.release(); // a document answered while it was prepared (missing field, error)
            if (toCheck != null) {
                scheduleCheck(toCheck, checkSeq, SEARCH_LINGER_NANOS);
            }
        }
        if (lookup != null && lookup.unavailable != null) {
            lookup.finishFromWindow(lookup.unavailable); // closed target or another algorithm: no search
        }
        if (full != null) {
            search.dispatch(full);
            synchronized (holder) {
                if (holder.current != null) {
                    holder.current.lastNanos = System.nanoTime(); // sending the search is no idle time of the bulk request
                }
            }
        }
    }

    /** The open batch of the current bulk request: a transient of its thread context (per thread without one). */
    private BatchHolder holder() {
        if (threadContext == null) {
            return threadBatches.get();
        }
        BatchHolder holder = threadContext.getTransient(batchKey);
        if (holder == null) {
            holder = new BatchHolder();
            threadContext.putTransient(batchKey, holder);
        }
        return holder;
    }

    /**
     * The bulk request's headers (its user's authentication among them) in an otherwise fresh context: the lookups are
     * authorized as that user's own searches. Not the whole context: its transients hold what security decided for the
     * bulk request (the target index's access control), under which a search of another index read nothing.
     */
    private Supplier<ThreadContext.StoredContext> restorableContext() {
        if (threadContext == null) return null;
        Map<String, String> headers = Map.copyOf(threadContext.getHeaders());
        return () -> {
            ThreadContext.StoredContext restore = threadContext.stashContext();
            threadContext.copyHeaders(headers.entrySet());
            return restore;
        };
    }

    /**
     * Checks {@code open} after {@code delayNanos}: sends the searches that waited long enough, closes it when idle.
     * {@code seq}: the check's number; only the batch's latest check acts (an earlier one is superseded).
     */
    private void scheduleCheck(OpenBatch open, long seq, long delayNanos) {
        long delayMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(delayNanos + TimeUnit.MILLISECONDS.toNanos(1) - 1));
        try {
            scheduler.apply(delayMillis, () -> check(open, seq, false));
        } catch (Exception e) {
            check(open, seq, true); // cannot wait (e.g. the node is closing): close it and send what it has now
        }
    }

    /**
     * Sends the searches of {@code open} once no document came for {@link #SEARCH_LINGER_MILLIS}, and closes it once none
     * came for {@link #BATCH_CLOSE_MILLIS} (or {@code now}); otherwise checks again when the next of these is due.
     */
    private void check(OpenBatch open, long seq, boolean now) {
        List<Lookup> ready = new ArrayList<>();
        long wait = 0;
        long nextSeq = 0;
        synchronized (open.holder) {
            if (open.closed || seq != open.checkSeq) {
                return; // closed, or superseded by a check a document scheduled earlier
            }
            long idle = System.nanoTime() - open.lastNanos;
            if (now || idle >= CLOSE_NANOS) {
                open.closed = true;
                open.batch.release();
            }
            if (open.closed || idle >= SEARCH_LINGER_NANOS) {
                open.pending.values().forEach(ready::addAll);
                open.pending.clear();
            }
            if (open.closed == false) {
                // lookups still waiting: their linger; none: the close, unless a document comes first (it checks again)
                wait = Math.max(1, open.pending.isEmpty() ? CLOSE_NANOS - idle : SEARCH_LINGER_NANOS - idle);
                nextSeq = ++open.checkSeq;
                open.checkDueNanos = System.nanoTime() + wait;
            }
        }
        if (nextSeq != 0) {
            scheduleCheck(open, nextSeq, wait);
        }
        if (ready.isEmpty()) {
            return;
        }
        // the searches are sent as the bulk request (its user, its headers), not as whatever ran this check
        try (ThreadContext.StoredContext ignored = open.context == null ? () -> {} : open.context.get()) {
            for (List<Lookup> lookupsOfOneSearch : CheckBatch.searches(ready, options.batchSize())) {
                search.dispatch(lookupsOfOneSearch);
            }
        }
    }

    @Override
    public String getType() {
        return TYPE;
    }

    int availableLookups() {
        return admission.available();
    }

    int queuedLookups() {
        return admission.queued();
    }

    /** The current batch of a bulk request (or of a thread); its lock serializes the request's documents and the checks. */
    private static final class BatchHolder {
        OpenBatch current;
    }

    /** A batch that documents may still join, and its lookups waiting for their search. */
    private static final class OpenBatch {
        final BatchHolder holder;
        final CheckBatch batch;
        final Supplier<ThreadContext.StoredContext> context;
        /** Per search key, the lookups not sent yet (fewer than batch_size). */
        final Map<String, List<Lookup>> pending = new LinkedHashMap<>();
        long lastNanos = System.nanoTime();
        boolean closed;
        /** The number of the batch's latest check (0: none yet), which reschedules itself while the batch is open. */
        long checkSeq;
        /** When that check is due ({@link System#nanoTime}). */
        long checkDueNanos;

        OpenBatch(BatchHolder holder, CheckBatch batch, Supplier<ThreadContext.StoredContext> context) {
            this.holder = holder;
            this.batch = batch;
            this.context = context;
        }
    }

    /**
     * The document's handler, held while the document is prepared under its batch's lock (an answer then continues the
     * pipeline only after the lock is given back); later answers go through at once.
     */
    private static final class DeferredHandler implements BiConsumer<IngestDocument, Exception> {
        private final BiConsumer<IngestDocument, Exception> handler;
        private boolean holding = true;
        private boolean answered;
        private IngestDocument document;
        private Exception exception;

        DeferredHandler(BiConsumer<IngestDocument, Exception> handler) {
            this.handler = handler;
        }

        @Override
        public void accept(IngestDocument result, Exception e) {
            synchronized (this) {
                if (holding) {
                    answered = true;
                    document = result;
                    exception = e;
                    return;
                }
            }
            handler.accept(result, e);
        }

        void release() {
            boolean call;
            IngestDocument result;
            Exception e;
            synchronized (this) {
                holding = false;
                call = answered;
                result = document;
                e = exception;
                document = null;
                exception = null;
            }
            if (call) {
                handler.accept(result, e);
            }
        }
    }

    /** Reads and validates the options ({@link CheckOptions#parse}). */
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
            CheckOptions options = CheckOptions.parse(tag, config);
            return new SimHashCheckProcessor(
                tag,
                description,
                options,
                mappedMaxDistance,
                parameters.client,
                parameters.scheduler,
                windows,
                parameters.threadContext,
                stats
            );
        }
    }
}
