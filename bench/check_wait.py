#!/usr/bin/env python3
"""What near_duplicate_check's wait_for_refresh costs in ingest (issue 39 item 2), on running nodes; standard library.

Real-looking text (random words of a generated vocabulary, 150-400 words, a share --dup-share of them near-duplicates
of earlier documents sent through another node) is indexed in bulk requests of --bulk documents by --clients client
threads, client i sending to node i mod len(--url), into an index of --shards primaries and --replicas replicas with
refresh_interval 1s. Rounds alternate three pipelines on the same data stream:
  * simhash only (no check): the floor of ingest through the pipeline;
  * simhash + near_duplicate_check with wait_for_refresh false: the path this option replaces (search at once);
  * simhash + near_duplicate_check with the defaults (wait_for_refresh true).
Each round writes --docs documents per pipeline into its own index (the check looks in that index). Reports docs/s
and the bulk latency (p50, p99) per pipeline as the median over rounds, the ratio of the waiting check to the
non-waiting one (the baseline: the path it replaces), the outcomes, and for the planted copies how many were found
(clients run at once, so a copy may be checked before its original is acknowledged: not all are promised).

usage: bench/check_wait.py --url http://127.0.0.1:9200[,http://127.0.0.1:9201,...] [--docs 6000] [--bulk 100]
         [--clients 4] [--rounds 3] [--shards 3] [--replicas 0] [--out bench/results/RESULTS-check-wait.md]
"""
import argparse, json, os, random, statistics, subprocess, sys, threading, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import nd_http  # noqa: E402  the project's one HTTP helper

PIPELINES = {
    "simhash only": [{"simhash": {"field": "content", "target_field": "simhash"}}],
    "check, wait_for_refresh false": [
        {"simhash": {"field": "content", "target_field": "simhash"}},
        {"near_duplicate_check": {"field": "simhash", "on_unavailable": "tag", "wait_for_refresh": False}},
    ],
    "check (defaults: wait_for_refresh true)": [
        {"simhash": {"field": "content", "target_field": "simhash"}},
        {"near_duplicate_check": {"field": "simhash", "on_unavailable": "tag"}},
    ],
}


def call(url, method, path, body=None, ndjson=False):
    return nd_http.call(url, method, path, body, ndjson=ndjson, timeout=600)


def texts(n, dup_share, seed):
    """n texts; a dup_share of them copies of an earlier one with 3 words replaced (their original's position)."""
    rnd = random.Random(seed)
    vocab = ["w%05d" % i for i in range(20000)]
    out, originals = [], []
    for i in range(n):
        if out and rnd.random() < dup_share:
            j = rnd.randrange(len(out))
            words = out[j][0].split()
            for _ in range(3):
                words[rnd.randrange(len(words))] = rnd.choice(vocab)
            out.append((" ".join(words), j))
        else:
            out.append((" ".join(rnd.choice(vocab) for _ in range(rnd.randint(150, 400))), None))
    return out


def run_round(urls, index, pipeline, docs, bulk_size, clients):
    """Indexes docs through pipeline, bulks round-robin over the clients, client i to urls[i % len]."""
    per_client = [[] for _ in range(clients)]
    for i, (text, original) in enumerate(docs):
        # bulks go round-robin to the clients: a copy and its original are mostly sent by different clients (nodes)
        c = (i // bulk_size) % clients
        per_client[c].append((i, text))
    latencies, errors = [], []

    def client(c):
        batch = per_client[c]
        url = urls[c % len(urls)]
        for start in range(0, len(batch), bulk_size):
            lines = []
            for i, text in batch[start:start + bulk_size]:
                lines.append(json.dumps({"index": {"_index": index, "_id": str(i)}}))
                lines.append(json.dumps({"content": text}))
            t = time.perf_counter()
            r = call(url, "POST", "/_bulk?pipeline=" + pipeline, "\n".join(lines) + "\n", ndjson=True)
            latencies.append(time.perf_counter() - t)
            if r.get("errors"):
                errors.append(next(i for i in r["items"] if "error" in next(iter(i.values()))))

    threads = [threading.Thread(target=client, args=(c,)) for c in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - t0
    if errors:
        sys.exit("bulk errors: " + json.dumps(errors[:3])[:1500])
    return len(docs) / elapsed, latencies


def outcomes(url, index, docs):
    call(url, "POST", "/" + index + "/_refresh")
    counts, found, copies = {}, 0, 0
    after = None
    while True:
        body = {"size": 5000, "_source": ["near_duplicate"], "sort": [{"_id": "asc"}]}
        if after:
            body["search_after"] = after
        hits = call(url, "POST", "/" + index + "/_search", body)["hits"]["hits"]
        if not hits:
            break
        for h in hits:
            r = h["_source"].get("near_duplicate")
            if r is None:
                continue
            counts[r["status"]] = counts.get(r["status"], 0) + 1
            if docs[int(h["_id"])][1] is not None:
                copies += 1
                found += r["status"] == "duplicate"
        after = hits[-1]["sort"]
    return counts, found, copies


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", default="http://127.0.0.1:9200")
    ap.add_argument("--docs", type=int, default=6000)
    ap.add_argument("--bulk", type=int, default=100)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--shards", type=int, default=3)
    ap.add_argument("--replicas", type=int, default=0)
    ap.add_argument("--dup-share", type=float, default=0.1)
    ap.add_argument("--out")
    a = ap.parse_args()
    urls = a.url.split(",")
    nodes = len(call(urls[0], "GET", "/_nodes")["nodes"])
    names = {}
    for n, (label, processors) in enumerate(PIPELINES.items()):
        names[label] = "check-wait-bench-%d" % n
        call(urls[0], "PUT", "/_ingest/pipeline/" + names[label], {"processors": processors})
    rates = {label: [] for label in PIPELINES}
    lat = {label: [] for label in PIPELINES}
    results = {label: None for label in PIPELINES}
    for r in range(a.rounds):
        docs = texts(a.docs, a.dup_share, seed=r)
        for label in PIPELINES:
            index = "check-wait-bench-%d-%d" % (list(PIPELINES).index(label), r)
            call(urls[0], "DELETE", "/" + index + "?ignore_unavailable=true")
            call(urls[0], "PUT", "/" + index, {
                "settings": {"number_of_shards": a.shards, "number_of_replicas": a.replicas, "refresh_interval": "1s"},
                "mappings": {"properties": {"simhash": {"type": "simhash"}}}})
            call(urls[0], "GET", "/_cluster/health/" + index + "?wait_for_status=green&timeout=60s")
            rate, latencies = run_round(urls, index, names[label], docs, a.bulk, a.clients)
            rates[label].append(rate)
            lat[label].extend(latencies)
            if "check" in label:
                results[label] = outcomes(urls[0], index, docs)
            call(urls[0], "DELETE", "/" + index)
            print("round %d %-40s %8.0f docs/s" % (r, label, rate), flush=True)
    base = statistics.median(rates["check, wait_for_refresh false"])
    lines = [
        "# near_duplicate_check: the cost of wait_for_refresh (bench/check_wait.py)",
        "",
        "Commit %s; %d node(s), %d client thread(s) spread over %d URL(s), bulks of %d, %d documents per pipeline and"
        " round (%d%% planted copies, sent through another client than their original), %d rounds; index of %d"
        " primaries and %d replicas, refresh_interval 1s. Command: `%s`." % (
            subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout.strip(),
            nodes, a.clients, len(urls), a.bulk, a.docs, round(100 * a.dup_share), a.rounds, a.shards, a.replicas,
            "bench/check_wait.py " + " ".join(sys.argv[1:])),
        "",
        "| pipeline | docs/s (median) | vs. check without wait | bulk p50 ms | bulk p99 ms | outcomes (last round) | planted copies found |",
        "| --- | ---: | ---: | ---: | ---: | --- | ---: |",
    ]
    for label in PIPELINES:
        m = statistics.median(rates[label])
        q = sorted(lat[label])
        p50, p99 = q[len(q) // 2] * 1000, q[min(len(q) - 1, int(len(q) * 0.99))] * 1000
        res = results[label]
        out = ", ".join("%s %d" % kv for kv in sorted(res[0].items())) if res else ""
        found = "%d / %d" % (res[1], res[2]) if res else ""
        lines.append("| %s | %.0f | %.2f | %.0f | %.0f | %s | %s |" % (label, m, m / base, p50, p99, out, found))
    text = "\n".join(lines) + "\n"
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
