package org.nearduplicate.core.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * The plugin's own counters on one node, cheap enough to be always on: each count is one {@link LongAdder} increment
 * (no lock, no allocation, contended threads write to different cells), read only when a stats request sums them.
 * Owned by the plugin instance (through its engine gateway); platform-free, so both adapters report the same names.
 *
 * <p>Besides the counters, gauges read at snapshot time (breaker and cache memory) are filled in by the adapter's
 * {@link #addGauges gauge sources}. A {@link Snapshot} is a plain array of longs in {@link Stat} order: it crosses the
 * wire as (name, value) pairs, sums node by node into the total, and renders as nested objects by the stats' dotted
 * names.
 */
public final class NearDuplicateStats {

    /** A fingerprinting method, as counted by {@link #fingerprint} and {@link #refused}. */
    public enum Method {
        SIMHASH,
        MINHASH,
        IMATCH;

        String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** How a segment of a {@code near_duplicate} query was answered (lucene's SegmentPath, by name). */
    public enum Path {
        KEYS,
        SCAN,
        COLUMN,
        /** The probes' candidate keys ({@code simhash-v7} fields). */
        CANDIDATE_KEYS
    }

    /** What a {@code near_duplicate_check} answered for one document (disjoint: each document counts once). */
    public enum Outcome {
        DUPLICATE,
        UNIQUE,
        UNCHECKED,
        TIMED_OUT,
        FAILED
    }

    /** Every value a snapshot holds, by its dotted name in the JSON answer. */
    public enum Stat {
        FINGERPRINTS_SIMHASH_COMPUTED("fingerprints.simhash.computed"),
        FINGERPRINTS_SIMHASH_REFUSED("fingerprints.simhash.refused"),
        FINGERPRINTS_MINHASH_COMPUTED("fingerprints.minhash.computed"),
        FINGERPRINTS_MINHASH_REFUSED("fingerprints.minhash.refused"),
        FINGERPRINTS_IMATCH_COMPUTED("fingerprints.imatch.computed"),
        FINGERPRINTS_IMATCH_REFUSED("fingerprints.imatch.refused"),
        FINGERPRINTS_PROBES("fingerprints.probes"),
        QUERIES_TOTAL("queries.total"),
        QUERIES_KEYS_SEGMENTS("queries.keys.segments"),
        QUERIES_KEYS_TIME("queries.keys.time_in_nanos"),
        QUERIES_KEYS_TIMED("queries.keys.timed_segments"),
        QUERIES_SCAN_SEGMENTS("queries.scan.segments"),
        QUERIES_SCAN_TIME("queries.scan.time_in_nanos"),
        QUERIES_SCAN_TIMED("queries.scan.timed_segments"),
        QUERIES_COLUMN_SEGMENTS("queries.column.segments"),
        QUERIES_COLUMN_TIME("queries.column.time_in_nanos"),
        QUERIES_COLUMN_TIMED("queries.column.timed_segments"),
        QUERIES_CANDIDATE_KEYS_SEGMENTS("queries.candidate_keys.segments"),
        QUERIES_CANDIDATE_KEYS_TIME("queries.candidate_keys.time_in_nanos"),
        QUERIES_CANDIDATE_KEYS_TIMED("queries.candidate_keys.timed_segments"),
        /** Postings of the probes' candidate keys read on that path: a bound of the candidates it verified. */
        QUERIES_CANDIDATE_KEYS_POSTINGS("queries.candidate_keys.postings"),
        CHECK_DUPLICATE("check.duplicate"),
        CHECK_UNIQUE("check.unique"),
        CHECK_UNCHECKED("check.unchecked"),
        CHECK_TIMED_OUT("check.timed_out"),
        CHECK_FAILED("check.failed"),
        GROUPS_RUNS("groups.runs"),
        GROUPS_FAILED("groups.failed"),
        GROUPS_TIME("groups.time_in_millis"),
        GROUPS_WRITE_RUNS("groups.write_runs"),
        GROUPS_WRITE_FAILED("groups.write_failed"),
        GROUPS_WRITE_TIME("groups.write_time_in_millis"),
        BREAKER_USED("breaker.used_in_bytes"),
        BREAKER_LIMIT("breaker.limit_in_bytes"),
        BREAKER_TRIPPED("breaker.tripped"),
        CACHE_ENTRIES("cache.entries"),
        CACHE_BYTES("cache.size_in_bytes"),
        CACHE_MAX_BYTES("cache.max_size_in_bytes"),
        CACHE_HITS("cache.hits"),
        CACHE_MISSES("cache.misses"),
        CACHE_LOADS("cache.loads"),
        CACHE_EVICTIONS("cache.evictions"),
        CACHE_FALLBACKS("cache.fallbacks"),
        CACHE_SHARED_PASSES("cache.shared_passes"),
        // the check's recent windows now (gauges; rendered inside "check", after its outcomes)
        CHECK_WINDOWS("check.windows.count"),
        CHECK_WINDOW_ENTRIES("check.windows.entries"),
        CHECK_WINDOW_BYTES("check.windows.size_in_bytes"),
        CHECK_WINDOW_MAX_ENTRIES("check.windows.max_entries"),
        CHECK_WINDOW_MAX_BYTES("check.windows.max_size_in_bytes");

        private final String key;

        Stat(String key) {
            this.key = key;
        }

        /** The dotted name, e.g. {@code queries.keys.segments}. */
        public String key() {
            return key;
        }

        private static final Map<String, Stat> BY_KEY = new LinkedHashMap<>();
        static {
            for (Stat s : values()) {
                BY_KEY.put(s.key, s);
            }
        }

        /** The stat of a dotted name; null for a name this version does not know (a newer node's). */
        public static Stat ofKey(String key) {
            return BY_KEY.get(key);
        }
    }

    private static final Stat[] COMPUTED = {
        Stat.FINGERPRINTS_SIMHASH_COMPUTED,
        Stat.FINGERPRINTS_MINHASH_COMPUTED,
        Stat.FINGERPRINTS_IMATCH_COMPUTED };
    private static final Stat[] REFUSED = {
        Stat.FINGERPRINTS_SIMHASH_REFUSED,
        Stat.FINGERPRINTS_MINHASH_REFUSED,
        Stat.FINGERPRINTS_IMATCH_REFUSED };
    private static final Stat[] SEGMENTS = {
        Stat.QUERIES_KEYS_SEGMENTS,
        Stat.QUERIES_SCAN_SEGMENTS,
        Stat.QUERIES_COLUMN_SEGMENTS,
        Stat.QUERIES_CANDIDATE_KEYS_SEGMENTS };
    private static final Stat[] SEGMENT_TIME = {
        Stat.QUERIES_KEYS_TIME,
        Stat.QUERIES_SCAN_TIME,
        Stat.QUERIES_COLUMN_TIME,
        Stat.QUERIES_CANDIDATE_KEYS_TIME };
    private static final Stat[] TIMED_SEGMENTS = {
        Stat.QUERIES_KEYS_TIMED,
        Stat.QUERIES_SCAN_TIMED,
        Stat.QUERIES_COLUMN_TIMED,
        Stat.QUERIES_CANDIDATE_KEYS_TIMED };
    private static final Stat[] OUTCOMES = {
        Stat.CHECK_DUPLICATE,
        Stat.CHECK_UNIQUE,
        Stat.CHECK_UNCHECKED,
        Stat.CHECK_TIMED_OUT,
        Stat.CHECK_FAILED };

    private final LongAdder[] counters = new LongAdder[Stat.values().length];
    private final List<Consumer<Snapshot.Builder>> gauges = new java.util.concurrent.CopyOnWriteArrayList<>();

    public NearDuplicateStats() {
        for (int i = 0; i < counters.length; i++) {
            counters[i] = new LongAdder();
        }
    }

    private void add(Stat stat, long value) {
        counters[stat.ordinal()].add(value);
    }

    /** One fingerprint (signature, keys) of {@code method} computed. */
    public void fingerprint(Method method) {
        add(COMPUTED[method.ordinal()], 1);
    }

    /** One input of {@code method} refused: over a limit, bad input, or the breaker would not reserve its memory. */
    public void refused(Method method) {
        add(REFUSED[method.ordinal()], 1);
    }

    /** One text/html probe of a query or rescorer fingerprinted on this (coordinating) node. */
    public void probe() {
        add(Stat.FINGERPRINTS_PROBES, 1);
    }

    /** One {@code near_duplicate} query built for a shard on this node. */
    public void query() {
        add(Stat.QUERIES_TOTAL, 1);
    }

    /** One segment answered by {@code path}; {@code nanos} spent on it (0 when not measured). */
    public void segment(Path path, long nanos) {
        add(SEGMENTS[path.ordinal()], 1);
        if (nanos > 0) {
            add(SEGMENT_TIME[path.ordinal()], nanos);
            add(TIMED_SEGMENTS[path.ordinal()], 1);
        }
    }

    /** Time spent on a segment already counted by {@link #segment}, which is then a timed one. */
    public void segmentTime(Path path, long nanos) {
        add(SEGMENT_TIME[path.ordinal()], nanos);
        add(TIMED_SEGMENTS[path.ordinal()], 1);
    }

    /** The postings of the probes' candidate keys one segment answered by {@link Path#CANDIDATE_KEYS} reads. */
    public void candidateKeyPostings(long postings) {
        add(Stat.QUERIES_CANDIDATE_KEYS_POSTINGS, postings);
    }

    /** One document answered by a {@code near_duplicate_check}. */
    public void check(Outcome outcome) {
        add(OUTCOMES[outcome.ordinal()], 1);
    }

    /** One {@code _near_duplicates} run ended ({@code write}: the {@code _write} variant), after {@code millis}. */
    public void groups(boolean write, boolean failed, long millis) {
        add(write ? Stat.GROUPS_WRITE_RUNS : Stat.GROUPS_RUNS, 1);
        if (failed) add(write ? Stat.GROUPS_WRITE_FAILED : Stat.GROUPS_FAILED, 1);
        add(write ? Stat.GROUPS_WRITE_TIME : Stat.GROUPS_TIME, Math.max(0, millis));
    }

    /** A source of gauges (memory in use, cache size), asked at every {@link #snapshot}. */
    public void addGauges(Consumer<Snapshot.Builder> source) {
        gauges.add(source);
    }

    /** The counters now, with the gauges' current values. */
    public Snapshot snapshot() {
        Snapshot.Builder b = new Snapshot.Builder();
        for (int i = 0; i < counters.length; i++) {
            b.values[i] = counters[i].sum();
        }
        for (Consumer<Snapshot.Builder> source : gauges) {
            source.accept(b);
        }
        return b.build();
    }

    /** The values of one node (or the sum of several), in {@link Stat} order. */
    public static final class Snapshot {
        private final long[] values;

        private Snapshot(long[] values) {
            this.values = values;
        }

        public static Snapshot empty() {
            return new Snapshot(new long[Stat.values().length]);
        }

        public long get(Stat stat) {
            return values[stat.ordinal()];
        }

        /** This plus {@code other}, value by value (the cluster's total). */
        public Snapshot plus(Snapshot other) {
            long[] sum = values.clone();
            for (int i = 0; i < sum.length; i++) {
                sum[i] += other.values[i];
            }
            return new Snapshot(sum);
        }

        /** Every value by its dotted name, in {@link Stat} order (for the wire). */
        public Map<String, Long> byKey() {
            Map<String, Long> map = new LinkedHashMap<>();
            for (Stat s : Stat.values()) {
                map.put(s.key(), values[s.ordinal()]);
            }
            return map;
        }

        /** A snapshot of dotted names and values; unknown names (a newer node's) are ignored, missing ones are 0. */
        public static Snapshot fromKeys(Map<String, Long> byKey) {
            long[] values = new long[Stat.values().length];
            byKey.forEach((k, v) -> {
                Stat s = Stat.ofKey(k);
                if (s != null && v != null) values[s.ordinal()] = v;
            });
            return new Snapshot(values);
        }

        /** The values as nested maps of the dotted names (the JSON shape), in {@link Stat} order. */
        @SuppressWarnings("unchecked")
        public Map<String, Object> toNestedMap() {
            Map<String, Object> root = new LinkedHashMap<>();
            for (Stat s : Stat.values()) {
                String[] parts = s.key().split("\\.");
                Map<String, Object> at = root;
                for (int i = 0; i < parts.length - 1; i++) {
                    at = (Map<String, Object>) at.computeIfAbsent(parts[i], p -> new LinkedHashMap<String, Object>());
                }
                at.put(parts[parts.length - 1], values[s.ordinal()]);
            }
            return root;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Snapshot other && Arrays.equals(values, other.values);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(values);
        }

        @Override
        public String toString() {
            return byKey().toString();
        }

        /** Sets gauge values while a snapshot is made. */
        public static final class Builder {
            private final long[] values = new long[Stat.values().length];

            public Builder set(Stat stat, long value) {
                values[stat.ordinal()] = value;
                return this;
            }

            Snapshot build() {
                return new Snapshot(values);
            }
        }
    }

    /** The names of every stat, for docs and tests. */
    public static List<String> keys() {
        List<String> keys = new ArrayList<>();
        for (Stat s : Stat.values()) {
            keys.add(s.key());
        }
        return keys;
    }
}
