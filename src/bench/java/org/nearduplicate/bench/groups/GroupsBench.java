package org.nearduplicate.bench.groups;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.nearduplicate.bench.harness.*;

/**
 * The groups benchmark of bench/groups.sh, against a running node with the plugin; the in-process baseline calls
 * org.nearduplicate.core.groups.HammingGroups from the plugin's classes.
 * <ol>
 * <li>generates --docs N fingerprints from --seed (on the fly, document i -> fingerprint i): random 64-bit values plus
 * planted clusters (--cluster-share, default 1% of the documents, in clusters of 2..5 members; every member is its
 * cluster's random center with 1..8 random bits flipped), so there are real groups at k=3 and at k=8; loads them with
 * _bulk into {@code groups<N>_<S>s} ({"fp":{"type":"simhash"}}, --shards S, 0 replicas, refresh_interval -1; _source
 * stays enabled: the write-back is partial updates, which need it), refreshes and force-merges to one segment (--reuse
 * skips all this when the index already holds N documents) ({@link ClusterData}, {@link GroupsLoad});</li>
 * <li>per k of --ks (default 3,8), --reps times (default 2): POST /&lt;index&gt;/_near_duplicates
 * {"field":"fp","max_distance":k,"size":10}: client wall time, took, counts, plan; meanwhile GET
 * _nodes/stats/jvm,breaker every --poll-ms (500) ms: the largest heap used (bytes and %) and the largest estimated size
 * of the near_duplicate breaker; a 429 (breaker) is recorded, not fatal ({@link NodeRuns});</li>
 * <li>baselines in the same run on the same fingerprints: (a) in-process HammingGroups.find (sort + dedupe + counts,
 * then find), whose groups, docs in groups and verified pairs must EQUAL the node's (the program fails loudly
 * otherwise) ({@link InProcess}); (b) brute force (all pairs, XOR + bitCount, union-find) on a seeded sample of
 * --brute-sample docs (default 50,000), extrapolated to N by (N/sample)^2; HammingGroups.find on the same sample must
 * agree with it ({@link Brute});</li>
 * <li>once, at the first k: POST /&lt;index&gt;/_near_duplicates/_write?wait_for_completion=false, then GET
 * _tasks/&lt;id&gt; until completed (time, written, docs/s, status samples); then a composite aggregation over
 * duplicate_group (exact: every bucket) and a cardinality aggregation: the distinct groups must equal the groups count
 * ({@link WriteBacks});</li>
 * <li>writes bench/results/RESULTS-groups.md (--results NAME; --out DIR) ({@link GroupsResults}).</li>
 * </ol>
 * Options: {@link GroupsConfig#USAGE} (--help). Exit status 2: not exact, or the write-back's groups differ.
 */
public final class GroupsBench {
    static final Log LOG = new Log("groups-bench");
    /** The default k of signed fields (what a request without max_distance gets), for the in-process reference. */
    static final int SIGNED_K = 16;
    static final int SIG = org.nearduplicate.core.sketch.Signature.BYTES;
    /** The signed in-process reference runs on as many threads as the node's default (its allocated processors). */
    static final int FIND_THREADS = Runtime.getRuntime().availableProcessors();
    static final ExecutorService FIND_POOL = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "find");
        t.setDaemon(true);
        return t;
    });

    private GroupsBench() {}

    public static void main(String[] args) throws Exception {
        GroupsConfig c = GroupsConfig.parse(args);
        Files.createDirectories(c.outDir());
        NodeClient client = new NodeClient(c.url(), 6, Duration.ofMinutes(90), LOG);
        GroupsRun run = new GroupsRun(c, client);
        run.facts.put("command", c.command());
        long started = System.nanoTime();
        try {
            // the version from the node's info: Elasticsearch's integ-test distribution has no GET / handler
            Map<?, ?> nodes = Json.at(client.getJson("/_nodes/_local?filter_path=nodes.*.version"), "nodes");
            run.facts.put("opensearch", ((Map<?, ?>) nodes.values().iterator().next()).get("version"));
            run.facts.put("plugins", client.get("/_cat/plugins?h=component,version").trim().replace('\n', ';'));
            run.facts.put("loadStart", Report.cmd("cat", "/proc/loadavg"));
            ClusterData data = new ClusterData(c.docs(), c.seed(), c.clusterShare());
            LOG.log(
                "target "
                    + client.url()
                    + ", "
                    + c.docs()
                    + " docs ("
                    + data.clusters
                    + " planted clusters, "
                    + data.plantedDocs()
                    + " docs), "
                    + c.shards()
                    + " shard(s), seed "
                    + c.seed()
                    + ", index "
                    + c.index()
            );
            GroupsLoad.Load load = new GroupsLoad(run).load(data);
            NodeRuns.NodeStats idle = NodeRuns.NodeStats.read(client);
            run.facts.put("heapMax", idle.heapMax());
            run.facts.put("breakerLimit", idle.breakerLimit());
            run.facts.put("heapIdle", idle.heapUsed());
            // node runs first (the client holds nothing big yet), then the in-process baselines
            NodeRuns nodeRuns = new NodeRuns(run);
            Map<Integer, List<NodeRuns.NodeRun>> runs = new LinkedHashMap<>();
            for (int k : c.ks()) {
                List<NodeRuns.NodeRun> kRuns = new ArrayList<>();
                for (int r = 1; r <= c.reps(); r++)
                    kRuns.add(nodeRuns.run(k, r));
                runs.put(k, kRuns);
            }
            WriteBacks writeBacks = new WriteBacks(run);
            List<WriteBacks.WriteBack> writes = new ArrayList<>();
            if (!c.skipWrite()) {
                if (c.writeBaseline()) writes.add(
                    writeBacks.write(
                        c.ks()[0],
                        runs.get(c.ks()[0]),
                        "first run, one bulk request in flight (baseline: requests_per_second 1e9, fields base_group/base_distance)",
                        "base_group",
                        ",\"group_field\":\"base_group\",\"distance_field\":\"base_distance\"",
                        "&requests_per_second=1000000000"
                    )
                );
                writes.add(writeBacks.write(c.ks()[0], runs.get(c.ks()[0]), "first run"));
                if (c.rewrite()) writes.add(writeBacks.write(c.ks()[0], runs.get(c.ks()[0]), "re-run, nothing changed"));
            }
            InProcess in = c.signed() ? InProcess.signed(run, data) : InProcess.of(run, data);
            Brute brute = c.signed() ? null : Brute.of(run, data, in.all);
            // exactness: the node's answer vs HammingGroups in process, on the same fingerprints
            for (int k : c.ks()) {
                InProcess.PerK p = in.perK.get(k);
                for (NodeRuns.NodeRun n : runs.get(k)) {
                    if (n.error != null) continue;
                    // signed: the default (representative) groups split components, so exactness is the verified pairs
                    // (and, below, the candidate pairs) of the same plan over the same units
                    boolean eq = c.signed()
                        ? n.verifiedPairs == p.verifiedPairs
                        : n.groups == p.groups && n.docsInGroups == p.docsInGroups && n.verifiedPairs == p.verifiedPairs;
                    n.exact = eq;
                    if (!eq) {
                        String msg = "k="
                            + k
                            + " run "
                            + n.rep
                            + ": node groups/docs_in_groups/verified_pairs "
                            + n.groups
                            + "/"
                            + n.docsInGroups
                            + "/"
                            + n.verifiedPairs
                            + " != in-process "
                            + p.groups
                            + "/"
                            + p.docsInGroups
                            + "/"
                            + p.verifiedPairs;
                        run.problems.add("**NOT EXACT** " + msg);
                        LOG.log("NOT EXACT: " + msg);
                    }
                    if (n.candidatePairs != p.candidatePairs || n.tables != p.plan.tables()) {
                        run.problems.add(
                            "k="
                                + k
                                + " run "
                                + n.rep
                                + ": candidate_pairs/plan tables differ from in-process: "
                                + n.candidatePairs
                                + "/"
                                + n.tables
                                + " vs "
                                + p.candidatePairs
                                + "/"
                                + p.plan.tables()
                        );
                    }
                }
            }
            new GroupsResults(run).write(data, load, runs, writes, in, brute, (System.nanoTime() - started) / 1e9);
            boolean failed = run.problems.stream().anyMatch(s -> s.startsWith("**"));
            LOG.log("done in " + (System.nanoTime() - started) / 1_000_000_000 + " s; wrote " + c.outDir().resolve(c.resultsName()));
            if (failed) {
                LOG.log("FAILED: " + run.problems);
                System.exit(2);
            }
        } catch (Throwable t) {
            t.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }
}
