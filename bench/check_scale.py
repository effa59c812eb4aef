#!/usr/bin/env python3
"""near_duplicate_check at scale (issue 26 item 3), on a running node. Two modes; standard library only.

TARGET MODE (default): N new documents checked against a big, already loaded TARGET index. New documents are indexed in
bulk requests of B documents into fresh indices, rounds alternating plain indexing (no pipeline) and indexing through a
pipeline with `near_duplicate_check` against TARGET's field (default k of the field, window_size 0 so every document is
looked up in the index, on_duplicate tag, on_unavailable tag). Reports docs/s of both, the outcomes, and the check's
docs/s against the floor for the same batch (batch_size probes per search): with --floor, a plain long[] popcount loop
over the target's own fingerprints (Bench --check-floor, which rebuilds them from the loader's seed), timed
after every round in the same run; without it, --floor-ms-per-probe from an earlier run (the first version's figure).

  * bare (the first version's case): random 64-bit fingerprints as bare hex in `fp` (compared on the fingerprint alone),
    target `bench/run.sh --docs 10000000 --reps fp` (index bench10000000_fp).
  * --signed: documents as the `simhash` processor writes them (the default algorithm's object: fingerprint, 32-byte signature,
    algorithm) in `fps`, target `bench/run.sh --docs 10000000 --reps fps --no-base --load-only` (bench10000000_fps:
    random fingerprints and random signatures, _source kept). A share --planted of the new documents are near-duplicates
    of target documents read back with _mget (1-10 fingerprint bits flipped, 0-8 of the 32 signature slots replaced:
    still a match), the rest random (a signed random document has ~390 chance neighbours within k = 16 among 10M by
    its fingerprint, rejected by their signatures). Each round also times the check's own searches sent directly (the
    query the processor builds for a batch, from this client, one at a time): with the hits' fetch (size, doc values,
    _source of the field) and without (size 0), which splits a batch's cost between the scan and the fetch.

  * --keys-model (issue 40): the target is `bench/run.sh --docs N --reps fpk --no-base --load-only` (bench<N>_fpk: the
    KeysModel's documents, simhash-v7 objects {fingerprint, signature, keys, algorithm}, or v6 ones with --fpk-version 6).
    New documents come from the same model (org.nearduplicate.bench.KeysCheckDocs, run once): a share --planted are
    edited copies of random target documents that still match (0-8 of the 32 full min-wise values replaced, 1-10
    fingerprint bits flipped), the others fresh model documents; the new indices map the field as the target does.
    --check-option NAME=VALUE (repeatable) adds options to the check processor; --exact-option NAME adds a third kind of
    round, the check with NAME: true (the check forced onto the exact column path, where the build has such an option),
    interleaved with the other two; --exact-nokeys makes that third round the check of the same kind of documents
    reading a copy of the value without its `keys` member in <field>_nokeys (`field`; `index_field` the target's), which
    the check answers exactly; the copy is an unindexed object and the value itself is indexed as in the other rounds. The direct split of a batch's search is not run in this mode.

GROWING MODE (--growing TOTAL): real text documents (random words of a generated vocabulary, 150-400 words, plus a
share --dup-share of near-duplicates: an earlier document's text with a few words replaced) indexed into three indices
that grow together, chunk after chunk, alternating per chunk: plain indexing (no pipeline), through `simhash` only, and
through `simhash` + `near_duplicate_check` whose target is the index being written (the check's defaults: window,
batch_size 100, k 16). Reports docs/s per kind at every checkpoint (the median of the chunks since the previous one) and
the ratios to plain indexing; the trend is extrapolated to --extrapolate documents when TOTAL is smaller (labelled).

usage: bench/check_scale.py --url http://127.0.0.1:9700 --target bench10000000_fps --signed --floor [--docs 5000]
       bench/check_scale.py --url http://127.0.0.1:9450 --target bench10000000_fpk --keys-model --floor [--exact-option NAME]
         [--bulk 1000] [--rounds 3] [--planted 0.1] [--out FILE]
       bench/check_scale.py --url http://127.0.0.1:9700 --target bench10000000_fp [--floor-ms-per-probe 1.09] ...
       bench/check_scale.py --url http://127.0.0.1:9700 --growing 2000000 [--chunk 20000] [--checkpoints ...] [--out FILE]
"""
import argparse, json, os, random, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import nd_http  # noqa: E402  the project's one HTTP helper


def call(url, method, path, body=None, ndjson=False):
    return nd_http.call(url, method, path, body, ndjson=ndjson, timeout=600)


def bulk(url, index, sources, pipeline=None):
    lines = []
    for s in sources:
        lines.append(json.dumps({"index": {"_index": index}}))
        lines.append(json.dumps(s))
    path = "/_bulk" + ("?pipeline=" + pipeline if pipeline else "")
    r = call(url, "POST", path, "\n".join(lines) + "\n", ndjson=True)
    if r.get("errors"):
        sys.exit("bulk errors: " + json.dumps([i for i in r["items"] if "error" in next(iter(i.values()))][:3])[:1500])


def commit():
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout.strip()


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "?"


def status_counts(url, index, result_field="near_duplicate"):
    agg = call(url, "POST", "/" + index + "/_search", {"size": 0, "aggs": {"s": {"terms": {
        "field": result_field + ".status.keyword", "missing": "none"}}}})
    return {b["key"]: b["doc_count"] for b in agg["aggregations"]["s"]["buckets"]}


class Floor:
    """Bench --check-floor (src/bench/java) in a JVM of its own, asked for one measurement after every round."""

    def __init__(self, docs, batch, k, reps, keys_model=False):
        env = dict(os.environ)
        cmd = ("source scripts/env.sh && test_classpath >/dev/null && exec java -Xmx2g -cp \"$TEST_CLASSPATH\""
               " org.nearduplicate.bench.search.Bench --docs %d --check-floor %d,%d,%d%s"
               % (docs, batch, k, reps, " --reps fpk" if keys_model else ""))
        self.p = subprocess.Popen(["bash", "-c", cmd], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        ready = json.loads(self.p.stdout.readline())
        assert ready.get("ready"), ready

    def measure(self):
        self.p.stdin.write("\n")
        self.p.stdin.flush()
        return json.loads(self.p.stdout.readline())

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def model_docs(target_docs, count, planted, version, field, seed):
    """KeysCheckDocs' documents: [(planted, source)], from the KeysModel of the target."""
    cmd = ("source scripts/env.sh && test_classpath >/dev/null && exec java -Xmx1g -cp \"$TEST_CLASSPATH\""
           " org.nearduplicate.bench.KeysCheckDocs --target-docs %d --count %d --planted %s --version %d --field %s --seed %d"
           % (target_docs, count, planted, version, field, seed))
    out = subprocess.run(["bash", "-c", cmd], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [(d["planted"], d["source"]) for d in map(json.loads, out.splitlines())]


def hex_sig(rng):
    return "%064x" % rng.getrandbits(256)


def target_mode(a):
    target_docs = call(a.url, "GET", "/" + a.target + "/_count")["count"]
    field = a.field or ("fpk" if a.keys_model else "fps" if a.signed else "fp")
    mapping = call(a.url, "GET", "/" + a.target + "/_mapping")
    target_mapping = next(iter(mapping.values()))["mappings"]
    algorithm = None
    k = 16
    options = {"field": field, "index": a.target, "index_field": field, "on_duplicate": "tag", "on_unavailable": "tag",
               "timeout": "120s", "batch_size": a.batch}
    if a.window_size is not None:
        options["window_size"] = a.window_size
    for o in a.check_option or []:
        name, _, value = o.partition("=")
        options[name] = json.loads(value) if value[:1] in "0123456789-[{tfn\"" and value else value
    kinds = ("plain", "check") + (("check_exact",) if a.exact_option or a.exact_nokeys else ())
    pipelines = {"check": "check-scale"}
    call(a.url, "PUT", "/_ingest/pipeline/check-scale", {"processors": [{"near_duplicate_check": options}]})
    exact_refused = None
    if a.exact_nokeys:
        pipelines["check_exact"] = "check-scale-exact"
        call(a.url, "PUT", "/_ingest/pipeline/check-scale-exact",
             {"processors": [{"near_duplicate_check": dict(options, field=field + "_nokeys", index_field=field)}]})
    elif a.exact_option:
        status, answer = nd_http.request(a.url, "PUT", "/_ingest/pipeline/check-scale-exact",
                                         {"processors": [{"near_duplicate_check": dict(options, **{a.exact_option: True})}]})
        if status == 200:
            pipelines["check_exact"] = "check-scale-exact"
        else:  # a build without the option: the default check and plain indexing only, and the report says why
            exact_refused = answer.get("error", {}).get("reason", str(answer))
            kinds = ("plain", "check")
            print("the check refuses %s: %s" % (a.exact_option, exact_refused), flush=True)
    a.exact_refused = exact_refused
    if a.keys_model:
        a.signed = True  # signed documents: the refresh below, the outcomes by source
    if a.signed:
        # a live target refreshes (the loader disabled it): the window's gaps then close a second after each check, so a
        # document without a match is unique, not unchecked (with -1, any document the window let go of is a gap forever)
        call(a.url, "PUT", "/" + a.target + "/_settings", {"index": {"refresh_interval": "1s"}})
    rng = random.Random(26)
    floor = Floor(target_docs, a.batch, k, a.floor_reps, a.keys_model) if a.floor else None
    if a.signed:
        # the algorithm the loader wrote (the field's default, with its signature)
        one = call(a.url, "GET", "/" + a.target + "/_doc/0")["_source"][field]
        algorithm = one["algorithm"]
    field_mapping = target_mapping["properties"][field] if a.signed else {"type": "keyword"}
    pool = None
    if a.keys_model:
        version = 7 if "keys" in call(a.url, "GET", "/" + a.target + "/_doc/0")["_source"][field] else 6
        pool = iter(model_docs(target_docs, a.docs * a.rounds * len(kinds), a.planted, version, field, a.model_seed))
    rates = {kind: [] for kind in kinds}
    floors, splits, outcomes, sources = [], [], {}, {}
    planted_total = 0
    for rnd in range(a.rounds):
        for kind in kinds:
            index = "check-scale-%s-%d" % (kind, rnd)
            # --exact-nokeys: the check reads <field>_nokeys (the value without keys, kept unindexed: a v7 field refuses
            # it), the field itself is indexed as in the other rounds
            props = {field: field_mapping}
            if kind == "check_exact" and a.exact_nokeys:
                props[field + "_nokeys"] = {"type": "object", "enabled": False}
            call(a.url, "PUT", "/" + index, {"settings": {"number_of_shards": 1, "number_of_replicas": 0,
                "refresh_interval": "-1"}, "mappings": {"properties": props}})
            if pool is not None:
                docs, n_planted = [], 0
                for _ in range(a.docs):
                    p, source = next(pool)
                    if kind == "check_exact" and a.exact_nokeys:
                        source = dict(source, **{field + "_nokeys": {m: v for m, v in source[field].items() if m != "keys"}})
                    docs.append(source)
                    n_planted += p
                if kind != "plain":
                    planted_total += n_planted
            elif a.signed:
                docs = []
                planted = set(rng.sample(range(a.docs), int(a.docs * a.planted)))
                ids = [str(rng.randrange(target_docs)) for _ in planted]
                got = call(a.url, "POST", "/" + a.target + "/_mget", {"ids": ids})["docs"] if ids else []
                originals = iter(d["_source"][field] for d in got)
                for i in range(a.docs):
                    if i in planted:
                        o = next(originals)
                        fp = int(o["fingerprint"], 16)
                        for b in rng.sample(range(64), rng.randint(1, 10)):
                            fp ^= 1 << b
                        sig = bytearray.fromhex(o["signature"])
                        for s in rng.sample(range(len(sig)), rng.randint(0, 8)):
                            sig[s] = rng.randrange(256)
                        docs.append({field: {"fingerprint": "%016x" % fp, "signature": sig.hex(), "algorithm": o["algorithm"]}})
                    else:
                        docs.append({field: {"fingerprint": "%016x" % rng.getrandbits(64), "signature": hex_sig(rng),
                                             "algorithm": algorithm}})
                if kind != "plain":
                    planted_total += len(planted)
            else:
                docs = [{field: "%016x" % rng.getrandbits(64)} for _ in range(a.docs)]
            t0 = time.time()
            for i in range(0, len(docs), a.bulk):
                bulk(a.url, index, docs[i:i + a.bulk], pipelines.get(kind))
            call(a.url, "POST", "/" + index + "/_refresh")
            rates[kind].append(a.docs / (time.time() - t0))
            round_outcomes = status_counts(a.url, index) if kind != "plain" else {}
            if kind != "plain":
                for key, n in status_counts(a.url, index).items():
                    outcomes.setdefault(kind, {})[key] = outcomes.get(kind, {}).get(key, 0) + n
                if a.signed:
                    agg = call(a.url, "POST", "/" + index + "/_search", {"size": 0, "aggs": {"s": {"terms": {
                        "field": "near_duplicate.source.keyword"}}}})
                    for b in agg["aggregations"]["s"]["buckets"]:
                        sources.setdefault(kind, {})[b["key"]] = sources.get(kind, {}).get(b["key"], 0) + b["doc_count"]
                    if kind == "check" and not a.keys_model:
                        splits.append(split(a, field, algorithm, docs))
            call(a.url, "DELETE", "/" + index)
            print("round %d %s: %.0f docs/s (load %s)%s" % (rnd, kind, rates[kind][-1], loadavg(),
                  (" " + json.dumps(round_outcomes)) if round_outcomes else ""), flush=True)
        if floor:
            floors.append(floor.measure())
            print("round %d floor: %s" % (rnd, json.dumps(floors[-1])), flush=True)
    if floor:
        floor.close()
    report_target(a, target_docs, field, target_mapping, rates, floors, splits, outcomes, sources, planted_total)


def split(a, field, algorithm, docs):
    """The check's search for a batch sent directly, as the processor builds it (full), then without reading the hits'
    values (size as the check, `_source` false, no doc values: the ids only) and the query phase alone (size 0, every
    match counted, so the scan runs to the end)."""
    out = {"full": [], "ids": [], "query": [], "took_full": [], "took_ids": [], "took_query": [], "hits": []}
    for i in range(0, min(len(docs), a.batch * a.split_batches), a.batch):
        batch = [d[field] for d in docs[i:i + a.batch]]
        query = {"constant_score": {"filter": {"near_duplicate": {"field": field,
                 "fingerprints": [d["fingerprint"] for d in batch], "signatures": [d["signature"] for d in batch],
                 "algorithm": algorithm, "ignore_unmapped": True}}}}
        for kind, body in (("full", {"size": 10 * len(batch), "query": query, "docvalue_fields": [field],
                                     "_source": {"includes": [field]}, "track_total_hits": False}),
                           ("ids", {"size": 10 * len(batch), "query": query, "_source": False, "track_total_hits": False}),
                           ("query", {"size": 0, "query": query, "track_total_hits": True})):
            t0 = time.time()
            r = call(a.url, "POST", "/" + a.target + "/_search?request_cache=false", body)
            out[kind].append(1000 * (time.time() - t0))
            out["took_" + kind].append(r["took"])
            if kind == "full":
                out["hits"].append(len(r["hits"]["hits"]))
    return {k: statistics.median(v) for k, v in out.items()}


def report_target(a, target_docs, field, target_mapping, rates, floors, splits, outcomes, sources, planted_total):
    plain, check = statistics.median(rates["plain"]), statistics.median(rates["check"])
    exact = statistics.median(rates["check_exact"]) if rates.get("check_exact") else None
    md = []
    md.append("# near_duplicate_check against a %s-document target (%s)%s\n"
              % (format(target_docs, ","), "issue 40" if a.keys_model else "issue 26 item 3",
                 ": the KeysModel's documents" if a.keys_model else ": signed documents" if a.signed else ""))
    md.append("Command: `python3 bench/check_scale.py %s`" % " ".join(sys.argv[1:]))
    if a.keys_model:
        fm = target_mapping["properties"][field]
        md.append("(the target loaded by `bench/run.sh --docs %d --reps fpk --no-base --load-only`: one force-merged shard of"
                  " the KeysModel's documents (topics with common full min-wise values, 20 %% planted pairs; the in-process"
                  " KeysPathBench's data) in the `simhash` processor's object form, field `%s` mapped `%s`, `_source` kept)."
                  " Date %s; machine: 2 cores shared with other jobs (load average at the end %s), commit %s.\n"
                  % (target_docs, field, fm.get("algorithm", "?").split(":")[0], time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime()),
                     loadavg(), commit()))
        md.append("New documents: from the same model (`KeysCheckDocs`); %.0f %% of them (%d in the check rounds) edited copies"
                  " of random target documents that still match (0-8 of the 32 full min-wise values replaced, 1-10 fingerprint"
                  " bits flipped), the others fresh model documents. Bulk requests of %d into a fresh one-shard index mapping"
                  " `%s` as the target does (every kind), rounds alternating %s (`index: %s`, `window_size` %s, `batch_size`"
                  " %d per search, the field's k = 16%s; the target's `refresh_interval` set to 1s as a live index's).\n"
                  % (100 * a.planted, planted_total, a.bulk, field,
                     "plain indexing, the check" + (" and the check reading a copy of the value without its keys in"
                     " `%s_nokeys` (answered exactly; the copy is an unindexed object, `%s` is indexed as in the other"
                     " rounds)" % (field, field) if a.exact_nokeys else
                     " and the check with `%s: true`" % a.exact_option if a.exact_option else ""),
                     a.target, "default (10,000)" if a.window_size is None else a.window_size, a.batch,
                     (", options " + json.dumps(dict(o.partition("=")[::2] for o in a.check_option))) if a.check_option else ""))
    elif a.signed:
        md.append("(the target loaded by `bench/run.sh --docs %d --reps fps --no-base --load-only`: one force-merged shard of"
                  " random fingerprints with random 32-byte signatures, in the `simhash` processor's object form"
                  " {fingerprint, signature, algorithm}, default `simhash` field (k = 16, a match also needs"
                  " >= 12 of 32 signature slots to agree), `_source` kept). Date %s; machine: 2 cores shared with other"
                  " jobs (load average at the end %s), commit %s.\n"
                  % (target_docs, time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime()), loadavg(), commit()))
        md.append("New documents: signed like the target; %.0f %% of them (%d in the check rounds) near-duplicates of target"
                  " documents (1-10 fingerprint bits flipped, 0-8 signature slots replaced), the others random. Bulk"
                  " requests of %d, indexed into a fresh one-shard index mapping `%s` as `simhash` (both kinds), rounds"
                  " alternating plain indexing and indexing through `near_duplicate_check` (`index: %s`, `window_size` %s; every"
                  " document is looked up in the index, `batch_size` %d per search, the field's k = 16; the target's"
                  " `refresh_interval` set to 1s as a live index's).\n"
                  % (100 * a.planted, planted_total, a.bulk, field, a.target,
                     "default (10,000)" if a.window_size is None else a.window_size, a.batch))
    else:
        md.append("(the target loaded by `bench/run.sh --docs 10000000 --reps fp` with `BENCH_KEEP=1`, one force-merged shard of random"
                  " 64-bit fingerprints, default `simhash` field). Date %s; machine: 2 cores (shared), commit %s.\n"
                  % (time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime()), commit()))
        md.append("New documents: random fingerprints (bare hex in `fp`, so compared on the fingerprint alone), bulk requests of"
                  " %d, rounds alternating plain indexing and indexing through `near_duplicate_check` (`index: %s`, `window_size: 0`:"
                  " every document is looked up in the index, `batch_size` %d per search, the field's default k = 16).\n"
                  % (a.bulk, a.target, a.batch))
    md.append("| | docs/s (median) | rounds |\n|---|---|---|")
    md.append("| plain indexing | %.0f | %s |" % (plain, ", ".join("%.0f" % x for x in rates["plain"])))
    md.append("| through near_duplicate_check | %.0f | %s |" % (check, ", ".join("%.0f" % x for x in rates["check"])))
    exact_name = ("reading the value without its keys (the exact path)"
                  if a.exact_nokeys else "`%s: true`" % a.exact_option)
    if exact is not None:
        md.append("| through near_duplicate_check, %s | %.0f | %s |" % (
            exact_name, exact, ", ".join("%.0f" % x for x in rates["check_exact"])))
    md.append("")
    md.append("Check throughput = **%.1f %%** of plain indexing%s. Outcomes: %s%s." % (
        100 * check / plain,
        (" (exact, %s: %.1f %%; the default check is **%.2fx** the exact one)" % (exact_name, 100 * exact / plain, check / exact))
        if exact is not None else
        (" (the check refused `%s: true`: %s)" % (a.exact_option, a.exact_refused)) if a.exact_option else "",
        json.dumps(outcomes), (", matched in: " + json.dumps(sources)) if sources else ""))
    md.append("")
    if floors:
        naive = statistics.median(f["naive_ms"] for f in floors)
        blocked = statistics.median(f["blocked_ms"] for f in floors)
        best = min(naive, blocked)
        md.append("**Floor, same run** (`Bench --check-floor %d,16,%d`, one core of this machine, after every round):"
                  " a batch of %d probes against the target's %s fingerprints in a plain `long[]`, `Long.bitCount(v ^ q) <= 16`,"
                  " one pass per probe (naive) or blocks of 2,048 values against every probe (blocked)."
                  % (a.batch, a.floor_reps, a.batch, format(target_docs, ",")))
        md.append("")
        md.append("| floor, ms per batch of %d (median; rounds) | lookups/s | the check's docs/s as a share of it |\n|---|---|---|" % a.batch)
        md.append("| naive: %.0f (%s) | %.0f | **%.0f %%** |" % (naive, ", ".join("%.0f" % f["naive_ms"] for f in floors),
                                                                1000 * a.batch / naive, 100 * check / (1000 * a.batch / naive)))
        md.append("| blocked: %.0f (%s) | %.0f | **%.0f %%** |" % (blocked, ", ".join("%.0f" % f["blocked_ms"] for f in floors),
                                                                  1000 * a.batch / blocked, 100 * check / (1000 * a.batch / blocked)))
        md.append("")
        md.append("Against the faster of the two (%.0f lookups/s on one core) the check reaches **%.0f %%** (the node has 2 cores;"
                  " the searches of a bulk request run concurrently, up to `max_in_flight`)." % (1000 * a.batch / best, 100 * check * best / (1000 * a.batch)))
    else:
        fl = 1000.0 / a.floor_ms_per_probe
        md.append("The column scan's floor for the same batch (100 probes per pass, %s ms per probe at 10M documents in process,"
                  " bench/results/RESULTS-scan.md) is %.0f lookups/s on one core: the check reaches **%.0f %%** of it (the"
                  " node has 2 cores; searches of a bulk run concurrently)." % (a.floor_ms_per_probe, fl, 100 * check / fl))
    if splits:
        md.append("")
        md.append("**Where a batch's time goes** (the check's search for a batch of %d, sent directly to the target from this"
                  " client one at a time, %d batches per round, medians; `took` is the node's own time):" % (a.batch, a.split_batches))
        md.append("")
        md.append("| round | as the check sends it (size %d, doc values and `_source` of `%s`): round trip / took ms | ids only (same size, no `_source`, no doc values) | query phase alone (size 0, all matches counted) | hits per batch |\n|---|---|---|---|---|"
                  % (10 * a.batch, field))
        for i, s in enumerate(splits):
            md.append("| %d | %.1f / %.0f | %.1f / %.0f | %.1f / %.0f | %.0f |" % (
                i, s["full"], s["took_full"], s["ids"], s["took_ids"], s["query"], s["took_query"], s["hits"]))
        md.append("")
        f = statistics.median(s["full"] for s in splits)
        n = statistics.median(s["ids"] for s in splits)
        q = statistics.median(s["query"] for s in splits)
        md.append("Median round trips: %.1f ms per batch as the check sends it, %.1f with the ids only, %.1f for the query phase"
                  " alone: reading the hits' values costs %.1f ms (%.0f %%) of a batch; one search at a time answers %.0f lookups/s,"
                  " the check's ingest %.0f docs/s." % (f, n, q, f - n, 100 * (f - n) / f, 1000 * a.batch / f, check))
    text = "\n".join(md) + "\n"
    print(text)
    if a.out:
        with open(a.out, "w") as fh:
            fh.write(text)


# ------------------------------------------------------------------------------------------------ growing index


class Texts:
    """Unrelated texts: 150-400 words drawn from a generated vocabulary (Zipf-like weights), as scale_quality's fillers."""

    def __init__(self, rng, words=30000):
        letters = "abcdefghijklmnopqrstuvwxyz"
        self.words = ["".join(rng.choice(letters) for _ in range(rng.randint(2, 9))) for _ in range(words)]
        acc, self.cum = 0.0, []
        for i in range(words):
            acc += 1.0 / (i + 1)
            self.cum.append(acc)

    def text(self, rng):
        return " ".join(rng.choices(self.words, cum_weights=self.cum, k=rng.randint(150, 400)))

    def near(self, rng, text):
        tokens = text.split(" ")
        for _ in range(rng.randint(1, 5)):
            tokens[rng.randrange(len(tokens))] = rng.choice(self.words)
        return " ".join(tokens)


def growing_mode(a):
    rng = random.Random(26)
    texts = Texts(rng)
    kinds = ("plain", "simhash", "check")
    names = {k: "check-grow-" + k for k in kinds}
    call(a.url, "PUT", "/_ingest/pipeline/check-grow-simhash", {"processors": [{"simhash": {"field": "content"}}]})
    call(a.url, "PUT", "/_ingest/pipeline/check-grow-check", {"processors": [{"simhash": {"field": "content"}},
        {"near_duplicate_check": {"index": names["check"], "on_duplicate": "tag", "on_unavailable": "tag"}}]})
    for k in kinds:
        nd_http.request(a.url, "DELETE", "/" + names[k], timeout=600)  # a missing index answers 404
        props = {"content": {"type": "text"}}
        if k != "plain":
            props["simhash"] = {"type": "simhash"}
        call(a.url, "PUT", "/" + names[k], {"settings": {"number_of_shards": 1, "number_of_replicas": 0},
                                           "mappings": {"properties": props}})
    checkpoints = sorted(int(x) for x in a.checkpoints.split(",")) if a.checkpoints else []
    checkpoints = [c for c in checkpoints if c < a.growing] + [a.growing]
    recent, written, rows, chunk_rates = [], 0, [], {k: [] for k in kinds}
    dups = 0
    started = time.time()
    while written < a.growing:
        n = min(a.chunk, a.growing - written)
        docs = []
        for _ in range(n):
            if recent and rng.random() < a.dup_share:
                docs.append({"content": texts.near(rng, rng.choice(recent))})
                dups += 1
            else:
                t = texts.text(rng)
                docs.append({"content": t})
                if len(recent) < 2000:
                    recent.append(t)
                else:
                    recent[rng.randrange(len(recent))] = t
        order = list(kinds)
        rng.shuffle(order)  # no kind always first after a chunk's generation
        for k in order:
            t0 = time.time()
            for i in range(0, n, a.bulk):
                bulk(a.url, names[k], docs[i:i + a.bulk], {"plain": None, "simhash": "check-grow-simhash", "check": "check-grow-check"}[k])
            chunk_rates[k].append(n / (time.time() - t0))
        written += n
        if written >= checkpoints[len(rows)]:
            for k in kinds:
                call(a.url, "POST", "/" + names[k] + "/_refresh")
            st = status_counts(a.url, names["check"])
            segs = call(a.url, "GET", "/" + names["check"] + "/_stats/segments")["_all"]["primaries"]["segments"]["count"]
            row = {"docs": written, "elapsed_s": time.time() - started, "load": loadavg(), "outcomes": st, "segments": segs}
            for k in kinds:
                row[k] = statistics.median(chunk_rates[k])
                row[k + "_chunks"] = len(chunk_rates[k])
                chunk_rates[k] = []
            rows.append(row)
            print(json.dumps(row), flush=True)
            report_growing(a, rows, dups, final=written >= a.growing)  # rewritten at every checkpoint: a stopped run keeps its rows


def report_growing(a, rows, dups, final=True):
    md = ["# Ingest through `simhash` + `near_duplicate_check` into a growing index (issue 26 item 3)\n"]
    if not final:
        md.append("*Run in progress or stopped: rows up to %s of %s documents.*\n" % (format(rows[-1]["docs"], ","), format(a.growing, ",")))
    md.append("Command: `python3 bench/check_scale.py %s`. Date %s; machine: 2 cores shared with other jobs, commit %s.\n"
              % (" ".join(sys.argv[1:]), time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime()), commit()))
    md.append("Three one-shard indices (default settings: refresh every second, no replica) grow together: the same"
              " documents, chunk of %d after chunk, go into each, in a shuffled order per chunk, in bulk requests of %d:"
              " **plain** (no pipeline, `content` mapped `text`), **simhash** (pipeline `simhash` on `content`, the field"
              " `simhash` mapped by default) and **check** (`simhash` then `near_duplicate_check` with `index` = the index"
              " being written and every other option at its default: window 10,000, `batch_size` 100, k = 16). Documents:"
              " 150-400 random words of a 30,000-word vocabulary (Zipf weights), %.0f %% of them (%d) near-duplicates of a"
              " recent earlier one (1-5 words replaced). Rates are the median of the chunks since the previous checkpoint.\n"
              % (a.chunk, a.bulk, 100 * a.dup_share, dups))
    md.append("| documents in each index | plain docs/s | simhash docs/s (% of plain) | simhash + check docs/s (% of plain) | check / simhash | check outcomes so far | segments (check index) | load average |")
    md.append("|---|---|---|---|---|---|---|---|")
    for r in rows:
        md.append("| %s | %.0f | %.0f (%.0f %%) | %.0f (**%.0f %%**) | %.0f %% | %s | %d | %s |" % (
            format(r["docs"], ","), r["plain"], r["simhash"], 100 * r["simhash"] / r["plain"], r["check"],
            100 * r["check"] / r["plain"], 100 * r["check"] / r["simhash"], json.dumps(r["outcomes"]), r["segments"], r["load"]))
    md.append("")
    if rows[-1]["docs"] < a.extrapolate and len(rows) >= 2:
        # plain and simhash-only cost per document do not depend on the index's size (medians over the checkpoints); the
        # check adds a search cost per document that grows with the index it scans (k = 16 takes the column scan):
        # its extra seconds per document over simhash-only, fitted linearly in the documents (slope >= 0)
        sel = rows[1:] if len(rows) > 2 else rows
        xs = [r["docs"] for r in sel]
        ys = [1.0 / r["check"] - 1.0 / r["simhash"] for r in sel]
        mx, my = statistics.mean(xs), statistics.mean(ys)
        slope = max(0.0, sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / max(1e-9, sum((x - mx) ** 2 for x in xs)))
        at = a.extrapolate
        plain = statistics.median(r["plain"] for r in sel)
        simhash = statistics.median(r["simhash"] for r in sel)
        extra = max(0.0, my + slope * (at - mx))
        check = 1.0 / (1.0 / simhash + extra)
        md.append("*Extrapolated* to %s documents (not measured): plain and simhash-only rates do not depend on the index's"
                  " size (medians of the checkpoints%s: %.0f and %.0f docs/s); the check's extra seconds per document over"
                  " simhash-only, %.3g ms at %s documents, fitted as a line in the index's size (%.3g ms per million documents)"
                  " give %.3g ms at %s, i.e. simhash + check ~%.0f docs/s, **~%.0f %% of plain indexing**." % (
                      format(at, ","), " after the first" if len(rows) > 2 else "", plain, simhash, 1000 * ys[-1],
                      format(xs[-1], ","), 1e9 * slope, 1000 * extra, format(at, ","), check, 100 * check / plain))
    text = "\n".join(md) + "\n"
    if final:
        print(text)
    if a.out:
        with open(a.out, "w") as fh:
            fh.write(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", default="http://127.0.0.1:9400")
    ap.add_argument("--target", default="bench10000000_fp")
    ap.add_argument("--field", help="the target's field (default fp, fps with --signed)")
    ap.add_argument("--signed", action="store_true", help="signed documents (objects of the default algorithm), some planted duplicates")
    ap.add_argument("--planted", type=float, default=0.1, help="share of new documents that are near-duplicates (--signed)")
    ap.add_argument("--docs", type=int, default=5000)
    ap.add_argument("--bulk", type=int, default=1000)
    ap.add_argument("--batch", type=int, default=100, help="the check's batch_size")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--window-size", type=int, help="the check's window_size (default: the processor's)")
    ap.add_argument("--floor", action="store_true", help="measure the long[] floor in the same run (Bench --check-floor)")
    ap.add_argument("--floor-reps", type=int, default=1, help="batches per floor measurement (median)")
    ap.add_argument("--floor-ms-per-probe", type=float, default=1.09)
    ap.add_argument("--split-batches", type=int, default=5, help="batches whose search is timed directly per round (--signed)")
    ap.add_argument("--keys-model", action="store_true",
                    help="target and new documents from the KeysModel (bench/run.sh --reps fpk; issue 40)")
    ap.add_argument("--check-option", action="append", help="NAME=VALUE: an option of the check processor (repeatable)")
    ap.add_argument("--exact-option", help="NAME: also rounds through the check with NAME: true (forced exact)")
    ap.add_argument("--model-seed", type=int, default=26,
                    help="--keys-model: the new documents' seed (another one for a re-run: the node's windows remember the last)")
    ap.add_argument("--exact-nokeys", action="store_true",
                    help="--keys-model: also rounds through the check of the same documents without their keys (exact path)")
    ap.add_argument("--growing", type=int, help="growing mode: documents per index")
    ap.add_argument("--chunk", type=int, default=20000)
    ap.add_argument("--checkpoints", help="comma-separated sizes at which to report (growing mode)")
    ap.add_argument("--dup-share", type=float, default=0.1)
    ap.add_argument("--extrapolate", type=int, default=10_000_000)
    ap.add_argument("--out")
    a = ap.parse_args()
    if a.growing:
        growing_mode(a)
    else:
        target_mode(a)


if __name__ == "__main__":
    main()
