package org.nearduplicate.orchestration.check;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Batches of a platform without a batch ingest API (Elasticsearch): it runs a bulk request's documents one by one, in
 * order, on one thread, and moves on to the next document as soon as an asynchronous processor has returned. So an
 * open batch is kept per bulk request, found through its {@link RequestScope}: the first document opens it, every
 * later document of the request joins it (compared with the batch's bulk set, in order), and its lookups wait in it,
 * {@code batch_size} per search and target. A search goes out as soon as it is full, or once no document came for
 * {@link #SEARCH_LINGER_MILLIS}, under the request's context. The batch closes once no document came for
 * {@link #BATCH_CLOSE_MILLIS} (the platform does not say when a bulk request's documents end): then its bulk sets are
 * given back. Documents of the request that come after that (a pause longer than that, e.g. a long GC) open a new
 * batch, with a new bulk set; the window still compares them with the earlier ones.
 */
public final class StreamedBatches {
    /** The lookups of an open batch wait this long for more documents of their bulk request before their search goes out. */
    public static final long SEARCH_LINGER_MILLIS = 2;
    /** An open batch closes (gives its bulk sets back) after this long without a new document: there is no end-of-bulk signal. */
    public static final long BATCH_CLOSE_MILLIS = 100;

    private static final long SEARCH_LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(SEARCH_LINGER_MILLIS);
    private static final long CLOSE_NANOS = TimeUnit.MILLISECONDS.toNanos(BATCH_CLOSE_MILLIS);

    private final NearDuplicateCheck check;
    /** Where a bulk request's open batch is found; null (tests): per thread. */
    private final RequestScope scope;
    private final ThreadLocal<Holder> threadBatches = ThreadLocal.withInitial(Holder::new);

    public StreamedBatches(NearDuplicateCheck check, RequestScope scope) {
        this.check = check;
        this.scope = scope;
    }

    /**
     * One document of a bulk request: checked against the window and against every earlier document of its batch (the
     * bulk set) at once, in the order the documents come; its search waits in the batch until {@code batch_size}
     * lookups of its target share it, or the batch closes.
     */
    public void check(CheckDocument document) {
        Holder holder = scope == null ? threadBatches.get() : scope.attached(Holder::new);
        Deferred deferred = new Deferred(document);
        OpenBatch toCheck = null;
        long checkSeq = 0;
        Lookup lookup = null;
        List<Lookup> full = null;
        try {
            synchronized (holder) {
                OpenBatch open = holder.current;
                if (open == null || open.closed) {
                    open = new OpenBatch(holder, CheckBatch.open(check.windows()), scope == null ? null : scope.capture());
                    holder.current = open;
                }
                open.batch.join();
                try {
                    lookup = check.prepare(deferred, open.batch);
                } finally {
                    open.lastNanos = System.nanoTime();
                }
                if (lookup != null && lookup.unavailable == null) {
                    String key = lookup.key.searchKey();
                    List<Lookup> group = open.pending.computeIfAbsent(key, k -> new ArrayList<>());
                    group.add(lookup);
                    if (group.size() >= check.options().batchSize()) {
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
                schedule(toCheck, checkSeq, SEARCH_LINGER_NANOS);
            }
        }
        if (lookup != null && lookup.unavailable != null) {
            lookup.finishFromWindow(lookup.unavailable); // closed target or another algorithm: no search
        }
        if (full != null) {
            check.send(full);
            synchronized (holder) {
                if (holder.current != null) {
                    holder.current.lastNanos = System.nanoTime(); // sending the search is no idle time of the bulk request
                }
            }
        }
    }

    /**
     * Checks {@code open} after {@code delayNanos}: sends the searches that waited long enough, closes it when idle.
     * {@code seq}: the check's number; only the batch's latest check acts (an earlier one is superseded).
     */
    private void schedule(OpenBatch open, long seq, long delayNanos) {
        long delayMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(delayNanos + TimeUnit.MILLISECONDS.toNanos(1) - 1));
        try {
            check.scheduling().schedule(delayMillis, () -> idle(open, seq, false));
        } catch (Exception e) {
            idle(open, seq, true); // cannot wait (e.g. the node is closing): close it and send what it has now
        }
    }

    /**
     * Sends the searches of {@code open} once no document came for {@link #SEARCH_LINGER_MILLIS}, and closes it once none
     * came for {@link #BATCH_CLOSE_MILLIS} (or {@code now}); otherwise checks again when the next of these is due.
     */
    private void idle(OpenBatch open, long seq, boolean now) {
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
            schedule(open, nextSeq, wait);
        }
        if (ready.isEmpty()) {
            return;
        }
        // the searches are sent as the bulk request (its user, its headers), not as whatever ran this check
        try (RequestScope.Restore ignored = open.context == null ? () -> {} : open.context.enter()) {
            check.send(ready);
        }
    }

    /** The current batch of a bulk request (or of a thread); its lock serializes the request's documents and the checks. */
    private static final class Holder {
        OpenBatch current;
    }

    /** A batch that documents may still join, and its lookups waiting for their search. */
    private static final class OpenBatch {
        final Holder holder;
        final CheckBatch batch;
        final RequestScope.Context context;
        /** Per search key, the lookups not sent yet (fewer than batch_size). */
        final Map<String, List<Lookup>> pending = new LinkedHashMap<>();
        long lastNanos = System.nanoTime();
        boolean closed;
        /** The number of the batch's latest check (0: none yet), which reschedules itself while the batch is open. */
        long checkSeq;
        /** When that check is due ({@link System#nanoTime}). */
        long checkDueNanos;

        OpenBatch(Holder holder, CheckBatch batch, RequestScope.Context context) {
            this.holder = holder;
            this.batch = batch;
            this.context = context;
        }
    }

    /**
     * The document, whose answer is held while it is prepared under its batch's lock (an answer then continues the
     * pipeline only after the lock is given back); later answers go through at once.
     */
    private static final class Deferred implements CheckDocument {
        private final CheckDocument document;
        private boolean holding = true;
        private Runnable answer;

        Deferred(CheckDocument document) {
            this.document = document;
        }

        @Override
        public Object value(String path) {
            return document.value(path);
        }

        @Override
        public String index() {
            return document.index();
        }

        @Override
        public String id() {
            return document.id();
        }

        @Override
        public void set(String path, Object value) {
            document.set(path, value);
        }

        @Override
        public Exception error(String message, int status) {
            return document.error(message, status);
        }

        @Override
        public void pass() {
            answer(document::pass);
        }

        @Override
        public void drop() {
            answer(document::drop);
        }

        @Override
        public void fail(Exception e) {
            answer(() -> document.fail(e));
        }

        private void answer(Runnable then) {
            synchronized (this) {
                if (holding) {
                    answer = then;
                    return;
                }
            }
            then.run();
        }

        void release() {
            Runnable then;
            synchronized (this) {
                holding = false;
                then = answer;
                answer = null;
            }
            if (then != null) {
                then.run();
            }
        }
    }
}
