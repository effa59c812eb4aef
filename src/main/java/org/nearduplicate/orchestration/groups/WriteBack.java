package org.nearduplicate.orchestration.groups;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.nearduplicate.core.groups.GroupMembers;
import org.nearduplicate.core.groups.MembersToWrite;
import org.nearduplicate.core.groups.PhasedBatches;
import org.nearduplicate.core.sketch.Signature;

/**
 * Writes a run's groups into the documents: each member gets the group's representative {@code _id} and its distance
 * to it, then every other visible document with a fingerprint its own {@code _id} and distance 0 (the singleton pass,
 * page by page per shard, skipping documents already right), then documents without a fingerprint that still hold a
 * group lose both fields. Updates go in bulk requests of {@code batchSize}, throttled to {@code requestsPerSecond}
 * documents per second, at most {@link #BATCHES_IN_FLIGHT} in flight (one when throttled), made one batch at a time.
 * The groups stay reserved in the breaker until the write ends, which closes the result; cancelling the task stops a
 * throttle wait at once. The listener hears how it ended once: {@link Done}, or the failure (documents written until
 * then keep their values; a re-run completes them).
 */
public final class WriteBack {

    private static final int MAX_REPORTED_FAILURES = 20;
    /**
     * Bulk requests of one run in flight at a time. A shard indexes one bulk request on one write thread, so with one
     * in flight a one-shard index used one core; the second keeps the shard's other write thread busy (a first write
     * of 1M documents took 0.66x the time on 2 cores, bench/results/RESULTS-groups-signed-1M-inflight.md). More would
     * only queue behind them.
     */
    public static final int BATCHES_IN_FLIGHT = 2;
    /** Documents per singleton page: at least this many (or batch_size), and up to the members' units. */
    static final int MIN_PAGE = 10_000;
    /** Documents per singleton page at most (or batch_size): a page holds about 20 bytes per document plus its ids. */
    static final int MAX_PAGE = 100_000;
    private static final String CANCELLED = "near_duplicate groups write task";

    /** A write that ended: the failed updates (the first {@link #MAX_REPORTED_FAILURES} of them described). */
    public record Done(long failureCount, List<String> failures) {
    }

    private enum Phase {
        MEMBERS,
        SINGLETONS,
        CLEARING
    }

    private final GroupsTask task;
    private final WriteCounts counts;
    private final ShardReads shards;
    private final BulkSink sink;
    private final Executor generic;
    private final Delays delays;
    private final Grouping.Result result;
    private final int batchSize;
    private final float requestsPerSecond;
    private final Listener<Done> listener;
    private final long writeStartNanos = System.nanoTime(); // the throttle's clock
    /** The pages' and the stale pass's answers, reserved in the breaker until the run ends. */
    private final Reservation reservation;
    private final AtomicBoolean ended = new AtomicBoolean();
    private final List<String> failures = new ArrayList<>();
    private volatile Delays.Scheduled throttled;
    /** The current phase's updates, handed out in batches with at most {@link #BATCHES_IN_FLIGHT} in flight. */
    private final PhasedBatches<BulkSink.Update> batches;
    private long sent;
    private long failureCount;
    private volatile Phase phase = Phase.MEMBERS;
    /** The singleton pass: the members' units (sorted fingerprints, signatures beside them or null), reserved. */
    private long[] inGroups;
    private byte[] inGroupSignatures;
    private long unitBytes;
    /** The singleton pass: the shard being read, where its next page starts and its last {@code _seq_no}. */
    private int shard;
    private long fromSeqNo;
    private long toSeqNo = -1;
    private int pageLimit;
    /** The page being written, reserved until the next page is asked for. */
    private long pageBytes;

    public WriteBack(
        GroupsTask task,
        ShardReads shards,
        BulkSink sink,
        Executor generic,
        Delays delays,
        Breaker breaker,
        Grouping.Result result,
        int batchSize,
        float requestsPerSecond,
        Listener<Done> listener
    ) {
        this.task = task;
        this.counts = task.writeCounts();
        this.shards = shards;
        this.sink = sink;
        this.generic = generic;
        this.delays = delays;
        this.result = result;
        this.batchSize = batchSize;
        this.requestsPerSecond = requestsPerSecond;
        this.listener = listener;
        this.reservation = new Reservation(breaker, "near_duplicate groups write");
        this.batches = new PhasedBatches<>(BATCHES_IN_FLIGHT, memberUpdates());
        counts.groups.set(result.groups().size());
        counts.toWrite.set(result.docsInGroups());
    }

    /**
     * One update per member, made when its batch is sent: the run holds the groups, never all the requests. A member
     * whose group fields already hold its group and distance (read with it on its shard) is counted unchanged and not
     * sent.
     */
    private Iterator<BulkSink.Update> memberUpdates() {
        MembersToWrite members = new MembersToWrite(result.groups(), counts.noops::incrementAndGet);
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return members.hasNext();
            }

            @Override
            public BulkSink.Update next() {
                MembersToWrite.Update u = members.next();
                return new BulkSink.Update(u.id(), u.routing(), u.group(), u.distance());
            }
        };
    }

    public void start() {
        task.phase("writing groups");
        // a cancel stops a throttle wait at once, not when its delay ends
        task.whenCancelled(() -> {
            Delays.Scheduled waiting = throttled;
            if (waiting != null && waiting.cancel()) {
                fail(task.cancelled(CANCELLED));
            }
        });
        nextBatch();
    }

    /**
     * Sends the next batches of updates, after the delay the throttle asks for; members first, then the singletons
     * page by page, then documents without a fingerprint that still hold a group. Up to {@link #BATCHES_IN_FLIGHT}
     * bulk requests are in flight (one when throttled); a phase moves on when its last batch has answered.
     */
    private void nextBatch() {
        if (ended.get()) return;
        try {
            task.checkCancelled(CANCELLED);
            PhasedBatches.Take<BulkSink.Update> take = batches.take(batchSize, requestsPerSecond > 0);
            if (take.phaseOver()) {
                switch (phase) {
                    case MEMBERS -> startSingletons();
                    case SINGLETONS -> nextPage();
                    case CLEARING -> finish();
                }
                return;
            }
            for (List<BulkSink.Update> updates : take.batches()) {
                sendThrottled(updates);
            }
        } catch (Exception e) {
            fail(e);
        }
    }

    private void sendThrottled(List<BulkSink.Update> updates) {
        long delayNanos = 0;
        synchronized (this) {
            if (requestsPerSecond > 0) {
                double due = writeStartNanos + sent * 1e9 / requestsPerSecond;
                delayNanos = (long) Math.max(0, Math.min(Long.MAX_VALUE / 2, due - System.nanoTime()));
            }
            sent += updates.size();
        }
        Runnable send = () -> {
            throttled = null;
            try {
                task.checkCancelled(CANCELLED);
                sink.bulk(updates, new Listener<>() {
                    @Override
                    public void onResponse(List<BulkSink.Item> items) {
                        counts.batches.incrementAndGet();
                        synchronized (WriteBack.this) {
                            for (BulkSink.Item item : items)
                                count(item);
                        }
                        batches.answered(); // after counting: the phase's end sees every answer counted
                        nextBatch();
                    }

                    @Override
                    public void onFailure(Exception e) {
                        fail(e);
                    }
                });
            } catch (Exception e) {
                fail(e);
            }
        };
        if (delayNanos > 0) {
            counts.throttledMillis.addAndGet(TimeUnit.NANOSECONDS.toMillis(delayNanos));
            throttled = delays.schedule(send, delayNanos);
            if (task.isCancelled() && throttled.cancel()) {
                fail(task.cancelled(CANCELLED));
            }
        } else {
            send.run();
        }
    }

    private void count(BulkSink.Item item) {
        if (item.failed()) {
            failureCount++;
            counts.failures.incrementAndGet();
            if (failures.size() < MAX_REPORTED_FAILURES) failures.add("[" + item.id() + "]: " + item.failureMessage());
        } else if (item.noop()) {
            counts.noops.incrementAndGet();
        } else if (phase == Phase.CLEARING) {
            counts.cleared.incrementAndGet();
        } else if (phase == Phase.SINGLETONS) {
            counts.singletons.incrementAndGet();
        } else {
            counts.written.incrementAndGet();
        }
    }

    /**
     * The singleton pass: every visible document with a fingerprint that is in no group gets its own {@code _id} as
     * group and distance 0, so that {@code collapse} never merges unrelated documents. One shard at a time, one page at
     * a time: a shard answers the next page of its documents to write (by {@code _seq_no}, skipping members and
     * documents that already carry their own id; {@link ShardReads#singletons}), the page is reserved when it arrives,
     * written in batches, and given back before the next page is asked for. The members' units (fingerprint and, for
     * a signed run, signature) go with every page request and stay reserved until the pass ends.
     */
    private void startSingletons() {
        phase = Phase.SINGLETONS;
        task.phase("writing singletons");
        boolean signed = Double.isNaN(result.minSimilarity()) == false;
        unitBytes = (8L + (signed ? Signature.BYTES : 0)) * result.docsInGroups();
        reservation.reserve(unitBytes, "fingerprints in groups");
        if (signed) {
            // units (fingerprint, signature): a document sharing a member's fingerprint but not its signature may be in
            // no group, and is then a singleton
            GroupMembers.Member[] units = result.groups()
                .stream()
                .flatMap(g -> g.members().stream())
                .sorted(
                    Comparator.comparingLong(GroupMembers.Member::fingerprint)
                        .thenComparing(GroupMembers.Member::signature, Comparator.nullsFirst(Arrays::compareUnsigned))
                )
                .toArray(GroupMembers.Member[]::new);
            inGroups = new long[units.length];
            inGroupSignatures = new byte[Signature.BYTES * units.length];
            for (int i = 0; i < units.length; i++) {
                inGroups[i] = units[i].fingerprint();
                if (units[i].signature() != null) {
                    System.arraycopy(units[i].signature(), 0, inGroupSignatures, Signature.BYTES * i, Signature.BYTES);
                }
            }
        } else {
            inGroups = result.groups()
                .stream()
                .flatMap(g -> g.members().stream())
                .mapToLong(GroupMembers.Member::fingerprint)
                .sorted()
                .distinct()
                .toArray();
        }
        pageLimit = (int) Math.max(batchSize, Math.min(Math.max(inGroups.length, MIN_PAGE), MAX_PAGE));
        shard = 0;
        fromSeqNo = 0;
        toSeqNo = -1;
        nextPage();
    }

    /** Gives back the page just written and asks the current shard for its next one (or moves on). */
    private void nextPage() {
        reservation.release(pageBytes);
        pageBytes = 0;
        if (shard >= shards.shards()) {
            reservation.release(unitBytes);
            unitBytes = 0;
            inGroups = null;
            inGroupSignatures = null;
            clearStale();
            return;
        }
        shards.singletons(shard, inGroups, inGroupSignatures, fromSeqNo, toSeqNo, pageLimit, new Listener<>() {
            @Override
            public void onResponse(ShardAnswer r) {
                try {
                    reservation.reserve(r.ramBytes(), "a page of singletons of a shard");
                } catch (Exception e) {
                    fail(e);
                    return;
                }
                pageBytes = r.ramBytes();
                generic.execute(() -> writePage(r));
            }

            @Override
            public void onFailure(Exception e) {
                fail(e);
            }
        });
    }

    private void writePage(ShardAnswer page) {
        try {
            if (ended.get()) return;
            toSeqNo = page.toSeqNo();
            fromSeqNo = page.nextSeqNo();
            if (fromSeqNo > toSeqNo) {
                shard++;
                fromSeqNo = 0;
                toSeqNo = -1;
            }
            GroupMembers.Documents docs = page.docs();
            batches.startPhase(new Iterator<>() {
                private int doc;

                @Override
                public boolean hasNext() {
                    return doc < docs.size();
                }

                @Override
                public BulkSink.Update next() {
                    if (hasNext() == false) throw new NoSuchElementException();
                    int i = doc++;
                    String id = docs.id(i);
                    return new BulkSink.Update(id, docs.routing(i), id, 0);
                }
            });
            nextBatch();
        } catch (Exception e) {
            fail(e);
        }
    }

    /**
     * Documents without a fingerprint that hold a group from an earlier run lose both fields (documents with one are
     * members or singletons, written above). Every shard lists them from doc values (the group field's, then the
     * fingerprint's): no search context to keep open. Their answers are reserved in the breaker when they arrive and
     * held until the run ends.
     */
    private void clearStale() {
        phase = Phase.CLEARING;
        task.phase("clearing documents without a fingerprint");
        AllShards.read(shards, shards::stale, reservation, "documents to clear of a shard", new Listener<>() {
            @Override
            public void onResponse(List<ShardAnswer> answers) {
                generic.execute(() -> clearAll(answers));
            }

            @Override
            public void onFailure(Exception e) {
                fail(e);
            }
        });
    }

    private void clearAll(List<ShardAnswer> answers) {
        try {
            List<GroupMembers.Documents> lists = new ArrayList<>();
            for (ShardAnswer r : answers)
                lists.add(r.docs());
            batches.startPhase(new Iterator<>() {
                private int list;
                private int doc;

                @Override
                public boolean hasNext() {
                    while (list < lists.size() && doc >= lists.get(list).size()) {
                        list++;
                        doc = 0;
                    }
                    return list < lists.size();
                }

                @Override
                public BulkSink.Update next() {
                    if (hasNext() == false) throw new NoSuchElementException();
                    GroupMembers.Documents docs = lists.get(list);
                    int i = doc++;
                    return new BulkSink.Update(docs.id(i), docs.routing(i), null, null);
                }
            });
            nextBatch();
        } catch (Exception e) {
            fail(e);
        }
    }

    /** Ends the run once: gives back its memory. */
    private boolean end() {
        if (ended.compareAndSet(false, true) == false) return false;
        try {
            reservation.close();
        } finally {
            result.close();
        }
        return true;
    }

    private void fail(Exception e) {
        if (end() == false) return;
        listener.onFailure(e);
    }

    private void finish() {
        if (end() == false) return;
        listener.onResponse(new Done(failureCount, failures));
    }
}
