#!/usr/bin/env python3
"""Searches of an _msearch sharing column passes (docs/performance.md, "Concurrent searches share a pass"), on a running
node, standard library only. Against a loaded index of random fingerprints (default bench10000000_fp, loaded by
`bench/run.sh --docs 10000000 --reps fp --no-base --load-only --skip-ingest --layouts ""`), per batch of B probes
(near-copies of indexed fingerprints are not needed: the column is read whole either way), rounds alternating:

  * sequential: B single-probe `near_duplicate` searches (the field's default k), one after another;
  * msearch: the same B searches in one `_msearch` (the node runs them concurrently on its search pool);
  * msearch, passes not shared: the same with `near_duplicate.scan_cache.share_passes` off (set transiently for that
    request, reset after): each search scans the column alone, as before shared passes (the baseline);
  * one pass: one search with the B probes as `fingerprints` (a single pass for all of them: the ideal).

Reports the median time per probe of each and the ratios, and the node's `cache.shared_passes` counted during the
_msearch rounds (segments answered by a pass shared with another search).

usage: bench/msearch.py --url http://127.0.0.1:9400 [--index bench10000000_fp --field fp --batches 4,16,64 --rounds 15]
"""
import argparse, json, os, random, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import nd_http  # noqa: E402  the project's one HTTP helper


def call(url, method, path, body=None, ndjson=False):
    return nd_http.call(url, method, path, body, ndjson=ndjson, timeout=600)


def shared_passes(url):
    r = call(url, "GET", "/_plugins/_near_duplicate/_local/stats")
    return sum(n["cache"]["shared_passes"] for n in r["nodes"].values())


def share(url, on):
    """near_duplicate.scan_cache.share_passes set transiently (None: reset to the node's value)."""
    call(url, "PUT", "/_cluster/settings", {"transient": {"near_duplicate.scan_cache.share_passes": on}})


def query(field, probes):
    if len(probes) == 1:
        return {"near_duplicate": {"field": field, "fingerprint": probes[0]}}
    return {"near_duplicate": {"field": field, "fingerprints": probes}}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--url", required=True)
    p.add_argument("--index", default="bench10000000_fp")
    p.add_argument("--field", default="fp")
    p.add_argument("--batches", default="4,16,64")
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--results", help="write a markdown results file under bench/results/")
    a = p.parse_args()
    rng = random.Random(7)
    count = call(a.url, "GET", "/" + a.index + "/_count")["count"]
    node = next(iter(call(a.url, "GET", "/_nodes/_local/os,thread_pool")["nodes"].values()))
    search_pool = node["thread_pool"]["search"].get("max", node["thread_pool"]["search"].get("size"))
    rows = []
    for b in [int(x) for x in a.batches.split(",")]:
        times = {"sequential": [], "msearch": [], "msearch alone": [], "one pass": []}
        shared = 0
        for r in range(a.rounds + 2):
            probes = ["%016x" % rng.getrandbits(64) for _ in range(b)]
            t0 = time.time()
            for pr in probes:
                call(a.url, "POST", "/" + a.index + "/_search?request_cache=false", {"size": 10, "query": query(a.field, [pr])})
            t1 = time.time()
            lines = []
            for pr in probes:
                lines.append(json.dumps({"index": a.index, "request_cache": False}))
                lines.append(json.dumps({"size": 10, "query": query(a.field, [pr])}))
            before = shared_passes(a.url)
            t2 = time.time()
            res = call(a.url, "POST", "/_msearch", "\n".join(lines) + "\n", ndjson=True)
            t3 = time.time()
            after = shared_passes(a.url)
            errors = [x for x in res["responses"] if "error" in x]
            if errors:
                sys.exit("msearch error: " + json.dumps(errors[0])[:1000])
            share(a.url, False)
            try:
                t6 = time.time()
                call(a.url, "POST", "/_msearch", "\n".join(lines) + "\n", ndjson=True)
                t7 = time.time()
            finally:
                share(a.url, None)
            t4 = time.time()
            call(a.url, "POST", "/" + a.index + "/_search?request_cache=false", {"size": 10 * b, "query": query(a.field, probes)})
            t5 = time.time()
            if r < 2:
                continue  # warm-up
            times["sequential"].append(1000 * (t1 - t0) / b)
            times["msearch"].append(1000 * (t3 - t2) / b)
            times["msearch alone"].append(1000 * (t7 - t6) / b)
            times["one pass"].append(1000 * (t5 - t4) / b)
            shared += after - before
        med = {k: statistics.median(v) for k, v in times.items()}
        rows.append((b, med, shared, a.rounds * b))
        print("B=%d sequential %.2f ms/probe, msearch %.2f, msearch not shared %.2f, one pass %.2f; shared passes %d of %d"
              % (b, med["sequential"], med["msearch"], med["msearch alone"], med["one pass"], shared, a.rounds * b),
              flush=True)
    md = ["# Searches of an `_msearch` sharing column passes, on a real node", "",
          "`python3 bench/msearch.py --url ... --index %s --batches %s --rounds %d` on %s; index `%s`: %d documents"
          " (random 64-bit fingerprints, one force-merged shard), the field's default k; node: search pool of %d threads,"
          " 2 cores (shared machine), load average at the end %s; commit %s, %s." % (
              a.index, a.batches, a.rounds, a.url, a.index, count, search_pool, loadavg(), commit(),
              time.strftime("%Y-%m-%d", time.gmtime())), "",
          "Per batch of B probes, rounds alternating: B single-probe searches one after another (sequential), the same B"
          " searches in one `_msearch`, the same `_msearch` with `near_duplicate.scan_cache.share_passes` off (each search"
          " scans alone: the baseline), one search with the B probes as `fingerprints` (one pass). Median over the rounds"
          " of the time per probe (client wall time, HTTP included); shared: segments answered by a pass shared with"
          " another search during the `_msearch` rounds (`cache.shared_passes` of the node stats), of all searches.", "",
          "| B | sequential, ms per probe | `_msearch` not shared, ms per probe | `_msearch`, ms per probe |"
          " one pass, ms per probe | `_msearch` / not shared | `_msearch` / one pass | shared passes |",
          "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for b, med, shared, total in rows:
        md.append("| %d | %.2f | %.2f | %.2f | %.2f | %.2fx | %.2fx | %d of %d |" % (
            b, med["sequential"], med["msearch alone"], med["msearch"], med["one pass"],
            med["msearch"] / med["msearch alone"], med["msearch"] / med["one pass"], shared, total))
    text = "\n".join(md) + "\n"
    print(text)
    if a.results:
        with open(os.path.join(ROOT, "bench", "results", a.results), "w") as f:
            f.write(text)


def commit():
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout.strip()


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "?"


if __name__ == "__main__":
    main()
