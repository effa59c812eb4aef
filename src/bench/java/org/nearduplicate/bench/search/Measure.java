package org.nearduplicate.bench.search;

import java.io.*;
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

import org.nearduplicate.bench.harness.*;

import static org.nearduplicate.bench.harness.Json.num;
import static org.nearduplicate.bench.harness.Report.*;
import static org.nearduplicate.bench.search.Bench.LOG;
import static org.nearduplicate.bench.search.Layout.*;
import static org.nearduplicate.bench.search.SyntheticData.*;

/**
 * Bench's query timing: methods ({@link M}) run interleaved in rounds against the synthetic indices, client-side
 * latencies, the server's took, hit counts and recall of the planted neighbours; the node's JVM counters around a group;
 * the in-process floor loop over the same fingerprints.
 */
final class Measure {
    private final Synthetic s;
    private final NodeClient node;
    private final List<String> rawLines;

    Measure(Synthetic s, List<String> rawLines) {
        this.s = s;
        this.node = s.node;
        this.rawLines = rawLines;
    }

    interface Q {
        String body(int probe);
    }

    /** runs n queries at concurrency conc; probes offset.. offset+n-1 (mod probes), so every query has a distinct probe when n <= probes. */
    /** one method under test: its own probes, latencies and recall counters. */
    final class M {
        final String name, rep;
        final int k, n, warmup;
        final Q q;
        java.util.function.IntFunction<Set<String>> exp; // planted ids a query of probe p must find (default: within k)
        final long[] lat;
        final double[] took;
        final long[] totals; // hits.total.value per query
        final AtomicLong found = new AtomicLong(), expected = new AtomicLong(), falseHits = new AtomicLong();
        long nanos;

        M(String name, int k, String rep, int n, int warmup, Q q) {
            this.name = name;
            this.k = k;
            this.rep = rep;
            this.n = n;
            this.warmup = warmup;
            this.q = q;
            lat = new long[n];
            took = new double[n];
            totals = new long[n];
        }

        String path() {
            return "/" + s.idx(rep) + "/_search?request_cache=false";
        }
    }

    M m(String name, int k, String rep, int n, int warmup, Q q) {
        return new M(name, k, rep, n, warmup, q);
    }

    MethodStats measure(String name, int k, int conc, int n, int offset, String rep, Q q, int warmup) throws Exception {
        List<MethodStats> r = measureGroup(List.of(m(name, k, rep, n, warmup, q)), conc, offset, 1);
        return r.isEmpty() ? null : r.get(0);
    }

    /**
     * Runs the methods of a group interleaved: {@code rounds} rounds, each running the next slice of every method's
     * queries, so that the machine's background noise hits all methods alike. Every query uses a distinct probe
     * (offset + i mod probes); all methods see the same probe sequence.
     */
    List<MethodStats> measureGroup(List<M> group, int conc, int offset, int rounds) throws Exception {
        return measureGroup(group, conc, offset, rounds, null);
    }

    /** The same; {@code perRound} (if not null) runs after every round, e.g. the floor loop sharing the rounds' noise. */
    List<MethodStats> measureGroup(List<M> group, int conc, int offset, int rounds, java.util.function.IntConsumer perRound)
        throws Exception {
        List<M> ms = new ArrayList<>();
        for (M m : group)
            if (s.files.containsKey(m.rep)) ms.add(m);
        for (M m : ms)
            for (int i = 0; i < m.warmup; i++)
                node.post(m.path(), m.q.body(-1 - i - offset));
        ExecutorService ex = Executors.newFixedThreadPool(conc);
        try {
            for (int r = 0; r < rounds; r++) {
                for (M m : ms) {
                    int from = (int) ((long) r * m.n / rounds), to = (int) ((long) (r + 1) * m.n / rounds);
                    if (to > from) runChunk(ex, m, conc, offset, from, to);
                }
                if (perRound != null) perRound.accept(r);
            }
        } finally {
            ex.shutdownNow();
        }
        List<MethodStats> out = new ArrayList<>();
        for (M m : ms) {
            long[] s = m.lat.clone();
            Arrays.sort(s);
            double[] tks = m.took.clone();
            Arrays.sort(tks);
            double mean = Arrays.stream(m.lat).average().orElse(0) / 1e6;
            MethodStats st = new MethodStats(
                m.name,
                m.k,
                conc,
                m.n,
                pct(s, 50),
                pct(s, 95),
                pct(s, 99),
                mean,
                m.n / (m.nanos / 1e9),
                m.expected.get() == 0 ? Double.NaN : m.found.get() / (double) m.expected.get(),
                m.falseHits.get(),
                tks[tks.length / 2]
            );
            LOG.log(
                String.format(
                    Locale.ROOT,
                    "  %-48s k=%d c=%d n=%d p50 %.3f p95 %.3f p99 %.3f ms, %.0f q/s, recall %.3f",
                    m.name,
                    m.k,
                    conc,
                    m.n,
                    st.p50(),
                    st.p95(),
                    st.p99(),
                    st.qps(),
                    st.recall()
                )
            );
            rawLines.add(
                String.format(
                    Locale.ROOT,
                    "%s\t%d\t%d\t%s",
                    m.name,
                    m.k,
                    conc,
                    Arrays.toString(Arrays.stream(m.lat).mapToDouble(x -> x / 1e6).toArray())
                )
            );
            out.add(st);
        }
        return out;
    }

    void runChunk(ExecutorService ex, M m, int conc, int offset, int from, int to) throws Exception {
        AtomicInteger next = new AtomicInteger(from);
        String path = m.path();
        List<Future<?>> fs = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int c = 0; c < conc; c++)
            fs.add(ex.submit(() -> {
                int i;
                while ((i = next.getAndIncrement()) < to) {
                    int p = (offset + i) % s.c.probes();
                    String body = m.q.body(p);
                    long t = System.nanoTime();
                    String r = node.post(path, body);
                    m.lat[i] = System.nanoTime() - t;
                    int tk = r.indexOf("\"took\":");
                    m.took[i] = Integer.parseInt(r.substring(tk + 7, r.indexOf(',', tk)));
                    int tv = r.indexOf("\"total\":{\"value\":");
                    if (tv >= 0) {
                        tv += 17;
                        int e = tv;
                        while (Character.isDigit(r.charAt(e)))
                            e++;
                        m.totals[i] = Long.parseLong(r.substring(tv, e));
                    }
                    if (m.k >= 0 || m.exp != null) {
                        Set<String> exp = m.exp != null ? m.exp.apply(p) : s.data.expected(p, m.k);
                        Set<String> got = new HashSet<>();
                        int at = 0;
                        while ((at = r.indexOf("\"_id\":\"", at)) >= 0) {
                            at += 7;
                            got.add(r.substring(at, r.indexOf('"', at)));
                        }
                        m.expected.addAndGet(exp.size());
                        for (String id : got)
                            if (exp.contains(id)) m.found.incrementAndGet();
                            else m.falseHits.incrementAndGet();
                    }
                }
                return null;
            }));
        for (Future<?> f : fs)
            f.get();
        m.nanos += System.nanoTime() - t0;
    }

    /** --ks: one row per k, the three methods and the round-trip floor measured in the same interleaved group. */
    record KsRow(int k, MethodStats floor, MethodStats nd, MethodStats scan, MethodStats script, double ndHits, double scanHits,
        double scriptHits, String agree, double loopP50, String mode, NodeSnap before, NodeSnap after, String slowest) {
    }

    /** What the node's `_nodes/_local/stats` says about its JVM, the near_duplicate breaker and the search pool. */
    record NodeSnap(long youngCount, long youngMs, long oldCount, long oldMs, long heapUsed, long heapMax, long breakerBytes,
        long breakerTripped, long searchRejected, long searchCompleted) {
    }

    NodeSnap nodeSnap() throws Exception {
        Map<?, ?> nodes = (Map<?, ?>) ((Map<?, ?>) Json.parse(node.get("/_nodes/_local/stats/jvm,breaker,thread_pool"))).get("nodes");
        Map<?, ?> n = (Map<?, ?>) nodes.values().iterator().next();
        Map<?, ?> jvm = (Map<?, ?>) n.get("jvm");
        Map<?, ?> gcs = (Map<?, ?>) ((Map<?, ?>) jvm.get("gc")).get("collectors");
        Map<?, ?> young = (Map<?, ?>) gcs.get("young"), old = (Map<?, ?>) gcs.get("old");
        Map<?, ?> mem = (Map<?, ?>) jvm.get("mem");
        Map<?, ?> br = (Map<?, ?>) ((Map<?, ?>) n.get("breakers")).get("near_duplicate");
        Map<?, ?> search = (Map<?, ?>) ((Map<?, ?>) n.get("thread_pool")).get("search");
        return new NodeSnap(
            num(young, "collection_count"),
            num(young, "collection_time_in_millis"),
            num(old, "collection_count"),
            num(old, "collection_time_in_millis"),
            num(mem, "heap_used_in_bytes"),
            num(mem, "heap_max_in_bytes"),
            br == null ? -1 : num(br, "estimated_size_in_bytes"),
            br == null ? -1 : num(br, "tripped"),
            num(search, "rejected"),
            num(search, "completed")
        );
    }

    /**
     * The 5 slowest queries of a method: latency (server took) @ query index; * marks the first query of one of the
     * group's 10 rounds (the first after the other methods ran).
     */
    static String slowest(M m, int rounds) {
        if (m == null || m.n == 0) return "";
        Set<Integer> firsts = new HashSet<>();
        for (int r = 0; r < rounds; r++)
            firsts.add((int) ((long) r * m.n / rounds));
        Integer[] order = new Integer[m.n];
        for (int i = 0; i < m.n; i++)
            order[i] = i;
        Arrays.sort(order, (a, b) -> Long.compare(m.lat[b], m.lat[a]));
        List<Double> first = new ArrayList<>(), rest = new ArrayList<>();
        for (int i = 0; i < m.n; i++)
            (firsts.contains(i) ? first : rest).add(m.took[i]);
        Collections.sort(first);
        Collections.sort(rest);
        StringBuilder sb = new StringBuilder();
        sb.append(f(first.get(first.size() / 2))).append(" / ").append(f(rest.get(rest.size() / 2))).append(" | ");
        for (int j = 0; j < Math.min(5, m.n); j++) {
            int i = order[j];
            if (j > 0) sb.append(", ");
            sb.append(f(m.lat[i] / 1e6))
                .append(" (")
                .append((long) m.took[i])
                .append(") @")
                .append(i)
                .append(firsts.contains(i) ? "*" : "");
        }
        return sb.toString();
    }

    /** The same fingerprints in a plain long[] (issue 26's floor: one core, the same machine, the same run). */
    long[] loopColumn;

    /** p50 in ms of a plain {@code Long.bitCount(v ^ q) <= k} loop over every indexed fingerprint, over 50 probes. */
    double loopFloorP50(int k) {
        return loopFloorP50(k, 50, 5, 0);
    }

    /** The same over {@code n} probes from {@code from} after {@code warm} unmeasured ones; the median of those n. */
    double loopFloorP50(int k, int n, int warm, int from) {
        if (loopColumn == null) {
            loopColumn = new long[Math.toIntExact(s.data.n)];
            for (int i = 0; i < loopColumn.length; i++)
                loopColumn[i] = s.data.fp(i);
        }
        long[] times = new long[n];
        long sink = 0;
        for (int round = -warm; round < times.length; round++) {
            long q = s.data.probeFp[Math.floorMod(from + round, s.data.probeFp.length)];
            long t0 = System.nanoTime();
            int count = 0;
            for (long v : loopColumn)
                if (Long.bitCount(v ^ q) <= k) count++;
            long t = System.nanoTime() - t0;
            sink += count;
            if (round >= 0) times[round] = t;
        }
        if (sink == Long.MIN_VALUE) LOG.log("unreachable");
        Arrays.sort(times);
        return times[times.length / 2] / 1e6;
    }

    static MethodStats statsOf(List<MethodStats> l, M m) {
        if (m == null) return null;
        for (MethodStats s : l)
            if (s.name().equals(m.name) && s.k() == m.k) return s;
        return null;
    }

    static double meanHits(M m) {
        return m == null ? Double.NaN : Arrays.stream(m.totals).average().orElse(Double.NaN);
    }

}
