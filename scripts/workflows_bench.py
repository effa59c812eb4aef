#!/usr/bin/env python3
"""Ingest cost of near_duplicate_check and cost of _near_duplicates on a synthetic corpus of fingerprints.

usage: scripts/workflows_bench.py [--port 9200] [--docs 100000] [--shards 2] [--noop] [--batch-sizes 1,100] [--rounds 3]
Indexes the same random corpus (fingerprints; 30% near copies of a few thousand centers) twice: without a pipeline
and through a near_duplicate_check pipeline, and reports docs/s for both; then runs _near_duplicates on it.
The fingerprints are given directly, so the simhash processor's own cost (text -> fingerprint) is not part of it.
"""
import argparse, json, random, statistics, time

import nd_http

def call(port, method, path, body=None, ndjson=False):
    return nd_http.call(f"http://127.0.0.1:{port}", method, path, body, ndjson, timeout=3600, on_error=_error)

def _error(method, path, status, text):
    if method == "DELETE" and status == 404:
        return {}
    raise RuntimeError(text)

def corpus(n, seed=7):
    rnd = random.Random(seed)
    centers = [rnd.getrandbits(64) for _ in range(max(1, n // 50))]
    for i in range(n):
        if rnd.random() < 0.3:
            fp = rnd.choice(centers)
            for _ in range(rnd.randint(0, 4)):
                fp ^= 1 << rnd.randint(0, 63)
        else:
            fp = rnd.getrandbits(64)
        yield f"d{i}", f"{fp:016x}"

def index(port, name, n, shards, pipeline):
    call(port, "DELETE", f"/{name}")
    call(port, "PUT", f"/{name}", {"settings": {"number_of_shards": shards, "number_of_replicas": 0, "refresh_interval": "1s"},
                                   "mappings": {"properties": {"fp": {"type": "simhash"}}}})
    start = time.time()
    batch = []
    def flush():
        if batch:
            q = f"?pipeline={pipeline}" if pipeline else ""
            r = call(port, "POST", f"/{name}/_bulk{q}", "".join(batch), ndjson=True)
            if r.get("errors"):
                raise RuntimeError(json.dumps(r)[:500])
            batch.clear()
    for doc_id, fp in corpus(n):
        batch.append(json.dumps({"index": {"_id": doc_id}}) + "\n" + json.dumps({"fp": fp}) + "\n")
        if len(batch) == 1000:
            flush()
    flush()
    took = time.time() - start
    call(port, "POST", f"/{name}/_refresh")
    return took

def outcomes(port, label):
    status = call(port, "POST", "/wf-bench-check/_search",
                  {"size": 0, "aggs": {"s": {"terms": {"field": "near_duplicate.status.keyword"}},
                                       "src": {"terms": {"field": "near_duplicate.source.keyword"}}}})
    print(f"{label} outcomes:", {b["key"]: b["doc_count"] for b in status["aggregations"]["s"]["buckets"]},
          {b["key"]: b["doc_count"] for b in status["aggregations"]["src"]["buckets"]}, flush=True)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=9200)
    ap.add_argument("--docs", type=int, default=100000)
    ap.add_argument("--shards", type=int, default=2)
    ap.add_argument("--groups-only", action="store_true", help="index without the pipeline and only time _near_duplicates")
    ap.add_argument("--skip-groups", action="store_true", help="only the ingest comparison (bench/ingest_check.sh)")
    ap.add_argument("--noop", action="store_true", help="also index through a pipeline of one 'set' processor (the ingest service's own cost)")
    ap.add_argument("--batch-sizes", default="default",
                    help="comma-separated batch_size values of near_duplicate_check, one run each; 'default' leaves the option out")
    ap.add_argument("--rounds", type=int, default=1,
                    help="repeat all variants, interleaved, and report medians (the machine's load drifts between runs)")
    a = ap.parse_args()
    if a.groups_only:
        plain = index(a.port, "wf-bench-plain", a.docs, a.shards, None)
        print(f"ingest {a.docs} docs, {a.shards} shards, no pipeline: {a.docs / plain:.0f} docs/s ({plain:.1f}s)", flush=True)
        groups(a)
        return
    variants = [("none", None, None)]
    if a.noop:
        call(a.port, "PUT", "/_ingest/pipeline/wf-bench-noop", {"processors": [{"set": {"field": "seen", "value": True}}]})
        variants.append(("pipeline of one set processor", "wf-bench-noop", None))
    for size in a.batch_sizes.split(","):
        options = {"field": "fp", "max_distance": 3, "on_unavailable": "tag"}
        if size != "default":
            options["batch_size"] = int(size)
        name = "wf-bench-check-" + size
        call(a.port, "PUT", f"/_ingest/pipeline/{name}", {"processors": [{"near_duplicate_check": options}]})
        variants.append(("near_duplicate_check" + ("" if size == "default" else f" batch_size {size}"), name, True))
    rates = {label: [] for label, _, _ in variants}
    for r in range(a.rounds):
        for label, pipeline, check in variants:
            took = index(a.port, "wf-bench-check" if check else "wf-bench-plain", a.docs, a.shards, pipeline)
            rates[label].append(a.docs / took)
            print(f"round {r + 1}: {label}: {a.docs / took:.0f} docs/s", flush=True)
            if check and r == 0:
                outcomes(a.port, label)
    med = {label: statistics.median(v) for label, v in rates.items()}
    print(f"ingest {a.docs} docs, {a.shards} shards, bulk requests of 1000, median of {a.rounds} interleaved round(s):")
    print("| pipeline | docs/s | % of no pipeline |\n| --- | --- | --- |")
    for label, _, _ in variants:
        print(f"| {label} | {med[label]:.0f} | {100 * med[label] / med['none']:.0f} % |", flush=True)
    if not a.skip_groups:
        groups(a)

def groups(a):
    start = time.time()
    g = call(a.port, "POST", f"/wf-bench-plain/_near_duplicates", {"field": "fp", "size": 10})
    print(f"_near_duplicates: {time.time() - start:.1f}s (took {g['took']} ms), counts {g['counts']}")

if __name__ == "__main__":
    main()
