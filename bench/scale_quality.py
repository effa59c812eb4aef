#!/usr/bin/env python3
"""Chance matches at scale on a real node (issue 25, "targets"): the labelled public corpus plus F filler texts that
share its vocabulary but none of its text, indexed through the README's `simhash` pipeline into a default `simhash`
field, then measured at the field's default k:

  (a) `_near_duplicates` (default mode, and `mode: components` for comparison): groups, groups with a filler, groups
      that mix different base documents of the labelled corpus, the largest group against the largest labelled group;
  (b) N `near_duplicate` queries `like` a random corpus document: false hits per query (a hit of an unrelated
      document: another base document, a heavy-edit negative counting with the base it was made from; every filler is
      false), the hits of labelled hard negatives (heavy edits of the probe's own base) apart, and recall of the
      probes' labelled positive pairs;
  (c) M new filler texts through `simhash` + `near_duplicate_check` (`on_duplicate: tag`) against the index: how many
      are tagged `duplicate`.

    bench/scale_quality.sh [--fillers 100000] [--seed 25] [--corpus DIR] [--port 9300] [--algorithm ID]
                           [--max-distance K] [--out bench/results/RESULTS-scale-node.md]

The wrapper starts a node (scripts/node.sh, NODE_PORT default 9300, NODE_DIR target/scale-node) and builds the plugin
zip first if target/ has none; `python3 bench/scale_quality.py --port P` alone runs against a node that is already up
(its indices `scale-quality*` are replaced). Standard library only.

Fillers: per language, a unigram table of the corpus documents of that language (tags, scripts and styles stripped;
English: words; Chinese: CJK characters, plus the Latin words of the Chinese pages), each filler 150-700 tokens drawn
independently from its language's table, cut into sentences and paragraphs; the languages in the corpus's proportion.
A corpus document's base is its `group` (a heavy-edit negative is its own base, as its label says); its family is the
base it derives from (`derived_from`, else `group`), as the offline quality tools define unrelated pairs
(Corpus.groups): documents of different families are unrelated, a heavy-edit negative and the pages of its base are a
labelled hard negative, not a chance match. Until 2026-11-25 a query's false hits counted the hard negatives too.

`--algorithm ID` pins the `simhash` processors (its `version` and options, parsed from the id) and the field's
`algorithm` mapping parameter to an explicit id, e.g. `simhash-v3` or the full id the field reports; without it both
take the plugin's defaults. `--max-distance K` passes k to the groups, the queries and the check; without it each takes
the field's default. A missing corpus directory is a skip (exit 0), not a failure.
"""
import argparse
import collections
import concurrent.futures
import datetime
import gzip
import html
import json
import math
import os
import platform
import random
import re
import shlex
import subprocess
import sys
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import nd_http  # noqa: E402

INDEX = "scale-quality"
CHECK_INDEX = "scale-quality-checked"
PIPELINE = "scale-quality-simhash"
CHECK_PIPELINE = "scale-quality-check"
TAGS = re.compile(r"<(script|style)\b.*?</\1\s*>|<!--.*?-->|<[^>]+>", re.S | re.I)
EN_TOKEN = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")
ZH_TOKEN = re.compile(r"[\u4e00-\u9fff]|[A-Za-z]+")


def log(message):
    print(f"[scale-quality] {message}", flush=True)


# ---------------------------------------------------------------------------------------------------------- corpus


def open_maybe_gz(directory, name):
    for candidate in (name + ".gz", name):
        path = os.path.join(directory, candidate)
        if os.path.exists(path):
            return gzip.open(path, "rt", encoding="utf-8") if candidate.endswith(".gz") else open(path, encoding="utf-8")
    return None


def load_corpus(directory):
    """docs: id -> {lang, base, heavy_of}; texts per language for the unigram tables; positive pairs."""
    docs, order = {}, []
    tables = {"en": collections.Counter(), "zh": collections.Counter()}
    bodies = []
    with open_maybe_gz(directory, "docs.jsonl") as f:
        for line in f:
            d = json.loads(line)
            lang = d["lang"]
            docs[d["id"]] = {"lang": lang, "format": d["format"], "base": d.get("group") or d["id"],
                             "derived_from": d.get("derived_from"),
                             "family": d.get("derived_from") or d.get("group") or d["id"]}
            order.append(d["id"])
            bodies.append((d["id"], lang, d["format"], d["content"]))
            text = d["content"]
            if d["format"] == "html" or "<" in text:
                text = html.unescape(TAGS.sub(" ", text))
            tables.setdefault(lang, collections.Counter()).update((EN_TOKEN if lang == "en" else ZH_TOKEN).findall(text))
    positives = collections.defaultdict(set)
    f = open_maybe_gz(directory, "pairs.tsv")
    if f is not None:
        with f:
            next(f)
            for line in f:
                cells = line.rstrip("\n").split("\t")
                a, b, label = cells[:3]
                if label == "1":
                    positives[a].add(b)
                    positives[b].add(a)
                elif len(cells) > 3 and cells[3] == "translation" and a in docs and b in docs:
                    # the English and the Chinese versions of one page: a labelled hard negative, between families
                    TRANSLATIONS.add(frozenset((docs[a]["family"], docs[b]["family"])))
    return docs, order, bodies, tables, positives


# pairs of families labelled as translations of one page (pairs.tsv, kind "translation")
TRANSLATIONS = set()


class Fillers:
    """Texts drawn token by token from the corpus's unigram tables, per language, in the corpus's language mix."""

    def __init__(self, tables, lang_counts):
        self.langs = sorted(lang_counts)
        total = sum(lang_counts.values())
        self.lang_cum = []
        acc = 0
        for lang in self.langs:
            acc += lang_counts[lang] / total
            self.lang_cum.append(acc)
        self.vocab = {}
        for lang, counter in tables.items():
            words, cum, acc = [], [], 0
            for word, count in counter.items():
                words.append(word)
                acc += count
                cum.append(acc)
            self.vocab[lang] = (words, cum)

    def lang(self, rng):
        r = rng.random()
        for lang, cum in zip(self.langs, self.lang_cum):
            if r < cum:
                return lang
        return self.langs[-1]

    def text(self, rng, lang):
        words, cum = self.vocab[lang]
        tokens = rng.choices(words, cum_weights=cum, k=rng.randint(150, 700))
        paragraphs, sentences, i = [], [], 0
        while i < len(tokens):
            n = rng.randint(8, 20) if lang == "en" else rng.randint(10, 30)
            sentence = tokens[i:i + n]
            i += n
            if lang == "en":
                sentences.append(" ".join([sentence[0][:1].upper() + sentence[0][1:]] + sentence[1:]) + ".")
            else:
                sentences.append("".join(f" {t} " if t.isascii() else t for t in sentence).strip() + "。")
            if len(sentences) >= rng.randint(3, 6) or i >= len(tokens):
                paragraphs.append((" " if lang == "en" else "").join(sentences))
                sentences = []
        return "\n\n".join(paragraphs)


# ------------------------------------------------------------------------------------------------------------ node


class Node:
    def __init__(self, port):
        self.url = f"http://127.0.0.1:{port}"

    def request(self, method, path, body=None, ndjson=False, timeout=1800):
        return nd_http.request(self.url, method, path, body, ndjson, timeout)

    def call(self, method, path, body=None, ndjson=False, timeout=1800):
        return nd_http.call(self.url, method, path, body, ndjson, timeout)


def processor_options(algorithm):
    """The simhash processor's options for an algorithm id: `simhash-v3` -> {version: 3}; a full id also sets every
    option it names (`idf=none` is the absence of an IDF table)."""
    if not algorithm:
        return {}
    m = re.fullmatch(r"simhash-v(\d+)(?::(.*))?", algorithm)
    if not m:
        sys.exit(f"error: --algorithm {algorithm}: expected simhash-v<N>[:key=value,...]")
    options = {"version": int(m.group(1))}
    for item in filter(None, (m.group(2) or "").split(",")):
        key, _, value = item.partition("=")
        if key == "idf" and value == "none":
            continue
        options[key] = int(value) if value.isdigit() else {"true": True, "false": False}.get(value, value)
    return options


def resolve_algorithm(node, algorithm):
    """(processor options, the field's `algorithm` mapping value or None for the default)."""
    options = processor_options(algorithm)
    if not algorithm:
        return options, None
    # the node says which id these options make (a bare `simhash-v4` becomes its full id)
    answer = node.call("POST", "/_simhash", {"text": "scale quality probe text", "settings": options})
    full = answer["algorithm"]
    if ":" in algorithm and full != algorithm:
        sys.exit(f"error: --algorithm {algorithm}: the processor options {options} make {full}")
    return options, full


def bulk(node, index, items):
    """Sends one bulk request; returns (indexed, {error type: count}, [first errors])."""
    lines = []
    for doc_id, source in items:
        lines.append(json.dumps({"index": {"_index": index, "_id": doc_id}}))
        lines.append(json.dumps(source, ensure_ascii=False))
    body = node.call("POST", "/_bulk", "\n".join(lines) + "\n", ndjson=True)
    ok, errors, first = 0, collections.Counter(), []
    for item in body["items"]:
        result = item["index"]
        if 200 <= result["status"] < 300:
            ok += 1
        else:
            error = result.get("error", {})
            reason = error.get("caused_by", {}).get("reason") or error.get("reason", "")
            errors[error.get("type", str(result["status"]))] += 1
            if len(first) < 5:
                first.append(f"{result['_id']}: {reason[:200]}")
    return ok, errors, first


# ------------------------------------------------------------------------------------------------------- phases


def load(node, args, bodies, fillers):
    """Indexes the corpus and the fillers with several client threads; returns stats."""
    stats = {"indexed": 0, "errors": collections.Counter(), "first_errors": [], "generate_s": 0.0}
    lock = threading.Lock()
    in_flight = threading.Semaphore(args.threads * 2)

    def send(items):
        try:
            ok, errors, first = bulk(node, INDEX, items)
            with lock:
                stats["indexed"] += ok
                stats["errors"].update(errors)
                stats["first_errors"] += first[:5 - len(stats["first_errors"])]
        finally:
            in_flight.release()

    def batches():
        batch, size = [], 0
        for doc_id, lang, fmt, content in bodies:
            batch.append((doc_id, {"content": content, "lang": lang, "kind": "corpus"}))
            size += len(content)
            if len(batch) >= args.batch or size > 4_000_000:
                yield batch
                batch, size = [], 0
        rng = random.Random(f"{args.seed}:fillers")
        for i in range(args.fillers):
            started = time.perf_counter()
            lang = fillers.lang(rng)
            batch.append((f"f{i:07d}", {"content": fillers.text(rng, lang), "lang": lang, "kind": "filler"}))
            stats["generate_s"] += time.perf_counter() - started
            if len(batch) >= args.batch:
                yield batch
                batch = []
        if batch:
            yield batch

    sent = 0
    with concurrent.futures.ThreadPoolExecutor(args.threads) as pool:
        futures = []
        for batch in batches():
            in_flight.acquire()
            futures.append(pool.submit(send, batch))
            sent += len(batch)
            if len(futures) % 50 == 0:
                log(f"  {sent:,} documents sent")
        for f in futures:
            f.result()
    return stats


def groups(node, field_body, mode=None):
    """Every group of the index (paged), as (representative, size, [member ids]); the first page's counts and plan."""
    body = dict(field_body, size=10000, max_members=10000)
    if mode:
        body["mode"] = mode
    result, first, after = [], None, None
    tooks = []
    while True:
        page = node.call("POST", f"/{INDEX}/_near_duplicates", dict(body, **({"after": after} if after else {})))
        first = first or page
        tooks.append(page["took"] / 1000)
        for g in page["groups"]:
            result.append((g["representative"], g["size"], [m["_id"] for m in g["members"]]))
        after = page.get("next_after")
        if not after or not page["groups"]:
            break
    first["pages_took"] = tooks  # every page recomputes the groups: one request's time each
    return result, first


def pages(first):
    n = len(first["pages_took"])
    return f"{n} page{'s' if n != 1 else ''}"


def describe_groups(found, docs):
    with_filler = only_filler = mixed = heavy_only = pure = 0
    mixed_examples = []
    for rep, size, members in found:
        corpus = [m for m in members if m in docs]
        fill = len(members) - len(corpus)
        bases = {docs[m]["base"] for m in corpus}
        if fill:
            with_filler += 1
        if not corpus:
            only_filler += 1
        if len(bases) > 1:
            mixed += 1
            # a heavy-edit negative counted as a document of the base it was made from
            if len({docs[m]["derived_from"] or docs[m]["base"] for m in corpus}) == 1:
                heavy_only += 1
            if len(mixed_examples) < 3:
                mixed_examples.append(f"{rep} ({size} members, {len(bases)} bases)")
        if fill == 0 and len(bases) == 1 and len(members) == size:
            pure += 1
    largest = max(found, key=lambda g: g[1]) if found else ("-", 0, [])
    return {"with_filler": with_filler, "only_filler": only_filler, "mixed": mixed, "heavy_only": heavy_only, "pure": pure,
            "largest": largest, "mixed_examples": mixed_examples,
            "members_truncated": sum(1 for _, size, members in found if len(members) < size)}


def queries(node, args, docs, indexed_corpus, positives, k_body):
    rng = random.Random(f"{args.seed}:probes")
    probes = rng.sample(indexed_corpus, min(args.queries, len(indexed_corpus)))
    per_lang = collections.defaultdict(lambda: [0, 0, 0])  # probes, false hits, probes with a false hit
    false_filler = false_corpus = false_heavy = false_translation = 0
    with_false = truncated = 0
    positives_total = positives_found = 0
    latencies = []
    indexed = set(indexed_corpus)
    for pid in probes:
        query = {"near_duplicate": dict({"field": "simhash", "like": {"_index": INDEX, "_id": pid}}, **k_body)}
        started = time.perf_counter()
        answer = node.call("POST", f"/{INDEX}/_search?request_cache=false",
                           {"size": 1000, "track_total_hits": True, "_source": False, "query": query})
        latencies.append(time.perf_counter() - started)
        hits = {h["_id"] for h in answer["hits"]["hits"]} - {pid}
        if answer["hits"]["total"]["value"] > len(answer["hits"]["hits"]):
            truncated += 1
        base, family = docs[pid]["base"], docs[pid]["family"]
        # false: unrelated (another family; fillers); hard negatives (same family, another labelled base; a labelled
        # translation of the probe's page) apart
        translated = [h for h in hits if h in docs and frozenset((family, docs[h]["family"])) in TRANSLATIONS]
        false_translation += len(translated)
        false = [h for h in hits if (h not in docs or docs[h]["family"] != family) and h not in translated]
        fill = sum(1 for h in false if h not in docs)
        heavy = sum(1 for h in hits if h in docs and docs[h]["family"] == family and docs[h]["base"] != base)
        false_filler += fill
        false_corpus += len(false) - fill
        false_heavy += heavy
        with_false += bool(false)
        lang = docs[pid]["lang"]
        per_lang[lang][0] += 1
        per_lang[lang][1] += len(false)
        per_lang[lang][2] += bool(false)
        partners = positives.get(pid, set()) & indexed
        positives_total += len(partners)
        positives_found += len(partners & hits)
    latencies.sort()
    n = len(probes)
    return {"probes": n, "false_mean": (false_filler + false_corpus) / n, "false_filler": false_filler / n,
            "false_corpus": false_corpus / n, "false_corpus_hits": false_corpus, "false_heavy": false_heavy,
            "false_translation": false_translation,
            "with_false": with_false,
            "recall": positives_found / positives_total if positives_total else float("nan"),
            "positives_total": positives_total, "positives_found": positives_found, "truncated": truncated,
            "per_lang": dict(per_lang), "p50_ms": 1000 * latencies[n // 2], "p95_ms": 1000 * latencies[int(n * 0.95)]}


def check(node, args, fillers, options, algorithm, k_body):
    check_options = dict({"index": INDEX, "on_duplicate": "tag"}, **k_body)
    node.call("PUT", f"/_ingest/pipeline/{CHECK_PIPELINE}", {"processors": [
        {"simhash": dict({"field": "content"}, **options)}, {"near_duplicate_check": check_options}]})
    field = {"type": "simhash", **({"algorithm": algorithm} if algorithm else {})}
    node.request("DELETE", f"/{CHECK_INDEX}")
    node.call("PUT", f"/{CHECK_INDEX}", {
        "settings": {"number_of_shards": 1, "number_of_replicas": 0, "default_pipeline": CHECK_PIPELINE},
        "mappings": {"properties": {"content": {"type": "text"}, "simhash": field}}})
    rng = random.Random(f"{args.seed}:new-fillers")
    new = []
    for i in range(args.checks):
        lang = fillers.lang(rng)
        new.append((f"n{i:06d}", {"content": fillers.text(rng, lang), "lang": lang, "kind": "new"}))
    errors, first = collections.Counter(), []
    for start in range(0, len(new), 100):  # one bulk request per 100 documents, as a crawler sends them
        _, e, f = bulk(node, CHECK_INDEX, new[start:start + 100])
        errors.update(e)
        first += f
    node.call("POST", f"/{CHECK_INDEX}/_refresh")
    answer = node.call("POST", f"/{CHECK_INDEX}/_search",
                       {"size": len(new), "_source": ["near_duplicate", "lang"], "query": {"match_all": {}}})
    status = collections.Counter()
    sources = collections.Counter()
    matched = collections.Counter()
    reasons = collections.Counter()
    distances = []
    for hit in answer["hits"]["hits"]:
        result = hit["_source"].get("near_duplicate", {})
        status[result.get("status", "missing")] += 1
        if result.get("status") == "duplicate":
            sources[result.get("source")] += 1
            matched["filler" if str(result.get("_id", "")).startswith(("f", "n")) else "corpus"] += 1
            distances.append(result.get("distance"))
        if result.get("status") == "unchecked":
            reasons[result.get("reason", "")[:80]] += 1
    return {"sent": len(new), "status": status, "sources": sources, "matched": matched, "errors": errors,
            "first_errors": first[:5], "reasons": reasons,
            "median_distance": sorted(distances)[len(distances) // 2] if distances else None}


def random_pair_rate(k):
    return sum(math.comb(64, i) for i in range(k + 1)) / 2 ** 64


# ---------------------------------------------------------------------------------------------------------- main


def machine():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "?")
        with open("/proc/meminfo") as f:
            mem_gb = int(f.readline().split()[1]) / 2 ** 20
    except OSError:
        mem_gb = 0
    return f"{os.cpu_count()} cores (`nproc`), {mem_gb:.0f} GB RAM, {cpu}, {platform.system()} {platform.release()}"


def load_average():
    try:
        with open("/proc/loadavg") as f:
            return " / ".join(f.read().split()[:3])
    except OSError:
        return "?"


def git(*args):
    try:
        return subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def node_script(command, port):
    env = dict(os.environ, NODE_PORT=str(port))
    env.setdefault("NODE_DIR", os.path.join(ROOT, "target", "scale-node"))
    env.setdefault("NODE_HEAP", "2g")
    subprocess.run([os.path.join(ROOT, "scripts", "node.sh"), command], check=True, env=env)


def ensure_zip():
    target = os.path.join(ROOT, "target")
    if os.path.isdir(target) and any(n.startswith("near-duplicate-") and n.endswith(".zip") for n in os.listdir(target)):
        return
    log("no plugin zip in target/: building it (mvn package, tests skipped)")
    subprocess.run(["bash", "-c", 'source scripts/env.sh && package_plugin'], cwd=ROOT, check=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fillers", type=int, default=100_000, help="filler texts indexed with the corpus (default 100000)")
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "eval", "public"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("NODE_PORT", 9300)))
    parser.add_argument("--algorithm", help="pin the processors and the field to this algorithm id (default: the plugin's)")
    parser.add_argument("--max-distance", type=int, help="k for groups, queries and the check (default: the field's)")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--checks", type=int, default=500)
    parser.add_argument("--threads", type=int, default=3, help="client threads for the bulk load")
    parser.add_argument("--batch", type=int, default=1000, help="documents per bulk request")
    parser.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "RESULTS-scale-node.md"))
    parser.add_argument("--node", action="store_true",
                        help="build the zip if missing, start a node (scripts/node.sh) on --port and stop it at the end")
    args = parser.parse_args()
    command = os.environ.get("SCALE_QUALITY_COMMAND") or "python3 " + " ".join(shlex.quote(a) for a in sys.argv)

    corpus = os.path.abspath(args.corpus)
    if open_maybe_gz(corpus, "docs.jsonl") is None:
        print(f"skipped: no corpus (no docs.jsonl[.gz] in {corpus})", flush=True)
        return 0

    timings = []
    run_started = time.time()
    args.load_before = load_average()
    if args.node:
        ensure_zip()
        started = time.time()
        node_script("start", args.port)
        timings.append(("node start", time.time() - started))
    try:
        return run(args, command, corpus, timings, run_started)
    finally:
        if args.node:
            node_script("stop", args.port)


def run(args, command, corpus, timings, run_started):
    node = Node(args.port)

    def phase(name, started):
        seconds = time.time() - started
        timings.append((name, seconds))
        log(f"{name}: {seconds:.1f} s")

    started = time.time()
    docs, order, bodies, tables, positives = load_corpus(corpus)
    lang_counts = collections.Counter(d["lang"] for d in docs.values())
    fillers = Fillers(tables, lang_counts)
    phase("read corpus, unigram tables", started)
    log(f"corpus {corpus}: {len(docs):,} documents ({', '.join(f'{l} {n:,}' for l, n in sorted(lang_counts.items()))}), "
        f"{sum(len(v) for v in positives.values()) // 2:,} positive pairs; vocabulary "
        + ", ".join(f"{lang} {len(t):,} tokens" for lang, t in tables.items()))

    root = node.call("GET", "/")
    plugins = node.call("GET", "/_cat/plugins?format=json")
    plugin_version = next((p["version"] for p in plugins if p["component"] == "near-duplicate"), "?")
    jvm = next(iter(node.call("GET", "/_nodes/jvm")["nodes"].values()))["jvm"]

    options, algorithm = resolve_algorithm(node, args.algorithm)
    k_body = {} if args.max_distance is None else {"max_distance": args.max_distance}
    for index in (INDEX, CHECK_INDEX):
        node.request("DELETE", f"/{index}")
    node.call("PUT", f"/_ingest/pipeline/{PIPELINE}",
              {"processors": [{"simhash": dict({"field": "content", "target_field": "simhash"}, **options)}]})
    field = {"type": "simhash", **({"algorithm": algorithm} if algorithm else {})}
    node.call("PUT", f"/{INDEX}", {
        "settings": {"number_of_shards": 1, "number_of_replicas": 0, "refresh_interval": "-1",
                     "default_pipeline": PIPELINE},
        "mappings": {"properties": {"content": {"type": "text"}, "simhash": field,
                                    "lang": {"type": "keyword"}, "kind": {"type": "keyword"}}}})
    mapping = node.call("GET", f"/{INDEX}/_mapping")[INDEX]["mappings"]["properties"]["simhash"]
    field_algorithm = mapping.get("algorithm", "?")
    log(f"index [{INDEX}] field simhash: {json.dumps(mapping)}")

    started = time.time()
    loaded = load(node, args, bodies, fillers)
    node.call("POST", f"/{INDEX}/_refresh", timeout=1800)
    phase(f"index {len(docs):,} corpus documents + {args.fillers:,} fillers (_bulk of {args.batch}, "
          f"{args.threads} client threads; generating the fillers: {loaded['generate_s']:.0f} s of it) and refresh", started)
    count = node.call("GET", f"/{INDEX}/_count")["count"]
    corpus_count = node.call("GET", f"/{INDEX}/_count", {"query": {"term": {"kind": "corpus"}}})["count"]
    indexed_ids = set()
    # the corpus documents that failed their fingerprint are not in the index: find them by id
    for start in range(0, len(order), 5000):
        chunk = order[start:start + 5000]
        answer = node.call("POST", f"/{INDEX}/_search", {"size": len(chunk), "_source": False,
                                                          "query": {"ids": {"values": chunk}}})
        indexed_ids.update(h["_id"] for h in answer["hits"]["hits"])
    indexed_corpus = [i for i in order if i in indexed_ids]
    log(f"indexed {count:,} documents ({corpus_count:,} corpus); bulk errors {dict(loaded['errors'])}")

    base_sizes = collections.Counter(docs[i]["base"] for i in indexed_corpus)
    largest_labelled = base_sizes.most_common(1)[0]

    started = time.time()
    found, first = groups(node, dict({"field": "simhash"}, **k_body))
    phase(f"_near_duplicates (default mode): {pages(first)} of up to 10,000 groups, server took "
          + " / ".join(f"{t:.1f}" for t in first["pages_took"]) + " s", started)
    k = first["max_distance"]
    described = describe_groups(found, docs)
    started = time.time()
    found_c, first_c = groups(node, dict({"field": "simhash"}, **k_body), mode="components")
    phase(f"_near_duplicates (mode components): {pages(first_c)} of up to 10,000 groups, server took "
          + " / ".join(f"{t:.1f}" for t in first_c["pages_took"]) + " s", started)
    described_c = describe_groups(found_c, docs)

    started = time.time()
    q = queries(node, args, docs, indexed_corpus, positives, k_body)
    phase(f"{q['probes']} near_duplicate queries", started)

    started = time.time()
    c = check(node, args, fillers, options, algorithm, k_body)
    phase(f"{c['sent']} new fillers through simhash + near_duplicate_check", started)
    total_s = time.time() - run_started

    # ------------------------------------------------------------------------------------------------- report
    fillers_indexed = count - corpus_count
    rate = random_pair_rate(k)
    lines = []
    w = lines.append
    w(f"# Chance matches at scale on a real node: {field_algorithm.split(':')[0]}, {fillers_indexed:,} fillers")
    w("")
    w("Generated by `bench/scale_quality.py` (issue 25, targets); do not edit by hand.")
    w("")
    w("```sh")
    w(command)
    w("```")
    w("")
    w("| | |")
    w("| --- | --- |")
    w(f"| date | {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%MZ')} |")
    w(f"| machine | {machine()}; load average (1 / 5 / 15 min) {args.load_before} at the start, {load_average()} at the end "
      "(the machine is shared: timings are indicative) |")
    w(f"| node | OpenSearch {root['version']['number']}, plugin near-duplicate {plugin_version}, "
      f"{jvm.get('vm_vendor', '')} {jvm.get('version', '')}, heap {jvm['mem']['heap_max_in_bytes'] >> 20} MB, "
      f"port {args.port}, 1 shard, 0 replicas |")
    dirty = " (with uncommitted changes)" if git("status", "--porcelain", "--", "src", "pom.xml") not in ("", "?") else ""
    w(f"| plugin commit | {git('rev-parse', '--short', 'HEAD')} on branch `{git('rev-parse', '--abbrev-ref', 'HEAD')}`{dirty} |")
    w(f"| field | `{json.dumps(mapping)}` |")
    w(f"| algorithm | `{field_algorithm}`{' (pinned by --algorithm)' if args.algorithm else ' (the default)'} |")
    w(f"| k | {k} ({'--max-distance' if args.max_distance is not None else 'the field default: no max_distance given'}) |")
    indexed_note = ("all indexed" if corpus_count == len(docs)
                    else f"{corpus_count:,} indexed (the others failed: {dict(loaded['errors'])})")
    w(f"| corpus | `{corpus}`: {len(docs):,} documents ({', '.join(f'{l} {n:,}' for l, n in sorted(lang_counts.items()))}), "
      f"{indexed_note}, {len(base_sizes):,} base documents, largest labelled group {largest_labelled[1]} (`{largest_labelled[0]}`) |")
    w(f"| fillers | {fillers_indexed:,} indexed of {args.fillers:,} (seed {args.seed}): 150-700 tokens each drawn from the "
      f"corpus's unigram tables per language (" + ", ".join(f"{l}: {len(t):,} distinct tokens" for l, t in tables.items())
      + "), languages in the corpus's mix |")
    w(f"| index | {count:,} documents through the `simhash` pipeline (`{json.dumps(options) if options else 'processor defaults'}`) |")
    w(f"| run time | {total_s / 60:.1f} min wall in all |")
    w("")
    w("## Results")
    w("")
    w("| measure | value |")
    w("| --- | --- |")
    for label, d, f in (("default mode", described, first), ("`mode: components`", described_c, first_c)):
        largest = d["largest"]
        w(f"| `_near_duplicates` {label}: groups / documents in groups | {f['counts']['groups']:,} / {f['counts']['docs_in_groups']:,} "
          f"(verified pairs {f['counts']['verified_pairs']:,}) |")
        w(f"| {label}: groups with a filler (of them fillers only) | {d['with_filler']:,} ({d['only_filler']:,}) |")
        w(f"| {label}: groups mixing different labelled base documents | {d['mixed']:,}, of them {d['heavy_only']:,} only through "
          "a heavy-edit negative of a member's base" + (f" (e.g. {'; '.join(d['mixed_examples'])})" if d["mixed_examples"] else "")
          + " |")
        w(f"| {label}: pure groups (one base document, no filler) | {d['pure']:,} |")
        w(f"| {label}: largest group vs largest labelled group | {largest[1]:,} (`{largest[0]}`) vs {largest_labelled[1]} |")
    w(f"| `near_duplicate` queries (`like` a random corpus document, k {k}) | {q['probes']} probes, p50 {q['p50_ms']:.1f} ms, "
      f"p95 {q['p95_ms']:.1f} ms |")
    w(f"| false hits per query (mean) | **{q['false_mean']:.3f}**: {q['false_filler']:.3f} fillers + {q['false_corpus']:.3f} "
      f"corpus documents of another base document ({q['false_corpus_hits']} hits in all) |")
    w(f"| hits of labelled hard negatives (heavy-edit negatives of the probe's base, or the base's pages when the probe "
      f"is one; not false hits) | {q['false_heavy']} in all, {q['false_heavy'] / q['probes']:.3f} per query |")
    w(f"| hits of labelled translations (the probe's page in the other language, pairs.tsv kind `translation`; not false "
      f"hits) | {q['false_translation']} in all |")
    w(f"| probes with at least one false hit | {q['with_false']} of {q['probes']} |")
    for lang, (n, false, with_false) in sorted(q["per_lang"].items()):
        w(f"| false hits per query, {lang} probes | {false / n:.2f} ({with_false} of {n} probes with one) |")
    w(f"| recall of the probes' labelled positive pairs | {q['recall']:.3f} ({q['positives_found']:,} of {q['positives_total']:,}) |")
    if q["truncated"]:
        w(f"| queries with more than 1,000 hits (truncated) | {q['truncated']} |")
    status = c["status"]
    w(f"| `near_duplicate_check` ({c['sent']} new fillers, k {k}): tagged duplicate | **{status.get('duplicate', 0)} of {c['sent']}** "
      f"(found in the index: {c['sources'].get('index', 0)}, among the new texts themselves: {c['sources'].get('recent', 0)}; "
      f"matched a filler: {c['matched'].get('filler', 0)}, a corpus document: {c['matched'].get('corpus', 0)}; median distance "
      f"{c['median_distance']}) |")
    w(f"| `near_duplicate_check`: unique / unchecked / failed | {status.get('unique', 0)} / {status.get('unchecked', 0)} / "
      f"{sum(c['errors'].values())}" + (f" ({dict(c['reasons'])})" if c["reasons"] else "")
      + (f" ({'; '.join(c['first_errors'])})" if c["first_errors"] else "") + " |")
    w("")
    w(f"For scale: two independent uniformly random 64-bit fingerprints are within k = {k} with probability {rate:.2g}, "
      f"i.e. {rate * count:.2f} expected hits per query against {count:,} random fingerprints.")
    w("")
    w("## Timings")
    w("")
    w("| phase | seconds |")
    w("| --- | --- |")
    for name, seconds in timings:
        w(f"| {name} | {seconds:.1f} |")
    w(f"| whole run | {total_s:.1f} |")
    w("")
    w("Definitions: a corpus document's base is its `group` in docs.jsonl (a heavy-edit negative is its own base, as its "
      "label says), its family the base it derives from (`derived_from`, else `group`); a hit is false when its family "
      "differs from the probe's (an unrelated document: the offline tools' definition of unrelated pairs), and every "
      "filler hit is false; hits of the probe's family under another base (heavy-edit negatives) and of a family the "
      "corpus labels as the probe's page in the other language (pairs.tsv kind `translation`, since 2026-11-28) are "
      "labelled hard negatives, counted apart; the probe itself is not counted. Recall counts the labelled positive pairs of the probes whose other document is indexed. "
      "A group mixes base documents when its listed members include corpus documents of two or more bases "
      f"(at most 10,000 members are listed per group; groups listed partly: default mode {described['members_truncated']}, "
      f"components {described_c['members_truncated']}). The check's new fillers go to their own index "
      f"(`{CHECK_INDEX}`) through `simhash` + `near_duplicate_check` (`index: {INDEX}`, `on_duplicate: tag`, other options "
      "default), in bulk requests of 100.")
    report = "\n".join(lines) + "\n"
    print(report)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(report)
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
