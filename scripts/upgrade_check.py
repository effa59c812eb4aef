#!/usr/bin/env python3
"""Real-node upgrade check (README "Upgrades"): an index written by the previous release of the plugin keeps
working after the node is upgraded to this build.

1. Builds the previous release's plugin zip from a git worktree of its commit (into /tmp, reused on later runs).
2. Starts a node with that zip (OpenSearch 3.6.0, the version it was released for), creates a simhash pipeline and an
   index with the release's default simhash mapping, indexes pages through the pipeline and synthetic fingerprints
   with planted neighbours, and records every stored fingerprint, near_duplicate answers for k = 0..3 (by
   fingerprint and by `like`) and the groups.
3. Stops the node, installs this build's zip for the same OpenSearch version on the same data directory
   (scripts/node.sh upgrade) and requires: the same documents and fingerprints, identical answers and groups, k
   above the old index's max_distance refused with a 400 that names the reindex, new pages through the old
   pipeline get the same fingerprints as before and are found, and a reindex into an index with today's default
   mapping answers k <= 3 identically and serves k = 8.
4. With --then-opensearch VERSION, upgrades OpenSearch too (this build's zip for VERSION, same data) and repeats the
   comparison.

Exit code 1 on any difference. Needs Maven Central (or a filled ~/.m2) and git; takes a few minutes.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import urllib.error
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
URL = f"http://127.0.0.1:{os.environ.get('NODE_PORT', '9200')}"
NODE_DIR = os.path.join(ROOT, "target", "upgrade-node")
# The previous release: 0.1.0, the last commit before the any-k layout (default simhash mapping: 4 blocks,
# max_distance 3, 16 check bits), built for OpenSearch 3.6.0.
PREVIOUS_RELEASE = {"version": "0.1.0", "commit": "de3b2e0a99b0cab46a3dec8a7246ffb51f02b472", "opensearch": "3.6.0"}
INDEX = "upgrade-check"
PIPELINE = "upgrade-check"
MINHASH_INDEX = "upgrade-check-mh"
MINHASH_PIPELINE = "upgrade-check-mh"
OLD_MAX_DISTANCE = 3


def log(message):
    print(f"[upgrade-check] {message}", flush=True)


def fail(message):
    log("FAILED: " + message)
    sys.exit(1)


def request(method, path, body=None, ndjson=False):
    """Returns (status, parsed body); HTTP errors are answers here, not exceptions."""
    data = None
    headers = {}
    if body is not None:
        data = body.encode("utf-8") if ndjson else json.dumps(body).encode("utf-8")
        headers["Content-Type"] = "application/x-ndjson" if ndjson else "application/json"
    req = urllib.request.Request(URL + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=120) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def call(method, path, body=None, ndjson=False):
    status, answer = request(method, path, body, ndjson)
    if status >= 300:
        fail(f"{method} {path} -> HTTP {status}: {json.dumps(answer)[:800]}")
    return answer


def shell(command, env=None, cwd=ROOT):
    """Runs a bash command with the project's JDK and Maven settings (scripts/env.sh)."""
    full = f"source {ROOT}/scripts/env.sh && {command}"
    subprocess.run(["bash", "-c", full], check=True, cwd=cwd, env={**os.environ, **(env or {})})


def previous_release_zip():
    release = PREVIOUS_RELEASE
    out_dir = f"/tmp/near-duplicate-releases/{release['version']}"
    zip_path = os.path.join(out_dir, f"near-duplicate-{release['version']}.zip")
    if os.path.isfile(zip_path):
        log(f"previous release {release['version']}: {zip_path} (built before)")
        return zip_path
    source = f"/tmp/near-duplicate-{release['version']}-src"
    log(f"building the previous release {release['version']} ({release['commit'][:7]}) in a worktree at {source}")
    if not os.path.isdir(source):
        subprocess.run(["git", "worktree", "add", "--detach", source, release["commit"]], check=True, cwd=ROOT)
    shell("$MVN -q -DskipTests -Dskip.node=true package", cwd=source)
    os.makedirs(out_dir, exist_ok=True)
    shutil.copy(os.path.join(source, "target", f"near-duplicate-{release['version']}.zip"), zip_path)
    subprocess.run(["git", "worktree", "remove", "--force", source], check=True, cwd=ROOT)
    return zip_path


def current_zip(opensearch_version):
    """This build's plugin zip for an OpenSearch version, built if target/ has none."""
    def find():
        found = sorted(f for f in os.listdir(os.path.join(ROOT, "target"))
                       if f.startswith("near-duplicate-") and f.endswith(f"-os{opensearch_version}.zip"))
        return os.path.join(ROOT, "target", found[-1]) if found else None
    os.makedirs(os.path.join(ROOT, "target"), exist_ok=True)
    if find() is None:
        log(f"building this plugin for OpenSearch {opensearch_version}")
        shell(f"$MVN -q -DskipTests -Dskip.node=true -Dopensearch.version={opensearch_version} package")
    zip_path = find()
    if zip_path is None:
        fail(f"no plugin zip for OpenSearch {opensearch_version} in target/")
    return zip_path


def node(command, opensearch_version, plugin_zip=None):
    env = {"NODE_DIR": NODE_DIR, "OPENSEARCH_VERSION": opensearch_version}
    if plugin_zip:
        env["PLUGIN_ZIP"] = plugin_zip
    subprocess.run([os.path.join(ROOT, "scripts", "node.sh"), command], check=True, env={**os.environ, **env})


def demo_pages():
    with open(os.path.join(ROOT, "demo", "pages.json"), encoding="utf-8") as f:
        pages = json.load(f)
    for page in pages:
        with open(os.path.join(ROOT, "demo", "pages", page["file"]), encoding="utf-8") as f:
            yield page["id"], f.read()


def bulk(lines):
    result = call("POST", "/_bulk?refresh=true", "\n".join(lines) + "\n", ndjson=True)
    if result["errors"]:
        fail("bulk errors: " + json.dumps([i for i in result["items"] if i["index"].get("error")][:3]))


def fingerprints(index):
    found = {}
    response = call("POST", f"/{index}/_search?scroll=1m", {"size": 1000, "_source": ["fp"], "sort": ["_doc"]})
    while response["hits"]["hits"]:
        for hit in response["hits"]["hits"]:
            fp = hit["_source"]["fp"]
            found[hit["_id"]] = fp["fingerprint"] if isinstance(fp, dict) else fp
        response = call("POST", "/_search/scroll", {"scroll": "1m", "scroll_id": response["_scroll_id"]})
    return found


def answers(index, probes, likes):
    """near_duplicate hits (id, distance) for every probe and k = 0..3, by fingerprint and by `like`."""
    result = []
    queries = [{"fingerprint": p} for p in probes] + [{"like": {"_index": INDEX, "_id": i}} for i in likes]
    for probe in queries:
        for k in range(OLD_MAX_DISTANCE + 1):
            response = call("POST", f"/{index}/_search", {
                "size": 100, "track_total_hits": True, "_source": False,
                "query": {"near_duplicate": {"field": "fp", "max_distance": k, **probe}}})
            result.append((response["hits"]["total"]["value"],
                           sorted((h["_id"], h["fields"]["_near_duplicate_distance"][0])
                                  for h in response["hits"]["hits"])))
    return result


def sources(index):
    found = {}
    response = call("POST", f"/{index}/_search?scroll=1m", {"size": 1000, "sort": ["_doc"]})
    while response["hits"]["hits"]:
        for hit in response["hits"]["hits"]:
            found[hit["_id"]] = hit["_source"]
        response = call("POST", "/_search/scroll", {"scroll": "1m", "scroll_id": response["_scroll_id"]})
    return found


def minhash_answers():
    """minhash_similar hits (id, score) for the demo pages' texts, and I-Match key lookups."""
    result = []
    for page_id, content in list(demo_pages())[:12]:
        response = call("POST", f"/{MINHASH_INDEX}/_search", {"size": 50, "_source": False, "query": {
            "minhash_similar": {"field": "mh", "text": content, "min_similarity": 0.4}}})
        result.append(sorted((h["_id"], round(h["_score"], 5)) for h in response["hits"]["hits"]))
    for source in list(sources(MINHASH_INDEX).values())[:12]:
        response = call("POST", f"/{MINHASH_INDEX}/_search", {"size": 50, "_source": False, "query": {
            "term": {"exact.imatch": source["exact"]["imatch"]}}})
        result.append(sorted(h["_id"] for h in response["hits"]["hits"]))
    return result


def snapshot(probes, likes):
    groups = call("POST", f"/{INDEX}/_near_duplicates", {"field": "fp", "max_distance": OLD_MAX_DISTANCE, "size": 1000})
    return {"count": call("GET", f"/{INDEX}/_count")["count"], "fingerprints": fingerprints(INDEX),
            "answers": answers(INDEX, probes, likes), "groups": groups["groups"],
            "minhash_sources": sources(MINHASH_INDEX), "minhash_answers": minhash_answers()}


def compare(before, after, when):
    for key in ("count", "fingerprints", "answers", "groups", "minhash_sources", "minhash_answers"):
        if before[key] != after[key]:
            fail(f"{key} differ {when}")
    log(f"identical {when}: {after['count']} documents, every fingerprint, {len(after['answers'])} near_duplicate "
        f"answers (k = 0..{OLD_MAX_DISTANCE}, by fingerprint and like) and {len(after['groups'])} groups; "
        f"{len(after['minhash_sources'])} MinHash/I-Match documents and {len(after['minhash_answers'])} "
        f"minhash_similar and I-Match answers")


def check_larger_k_names_reindex():
    status, answer = request("POST", f"/{INDEX}/_search", {
        "query": {"near_duplicate": {"field": "fp", "fingerprint": "0123456789abcdef", "max_distance": 8}}})
    reason = json.dumps(answer.get("error", {}))
    if status != 400 or "reindex" not in reason:
        fail(f"k = 8 on the {PREVIOUS_RELEASE['version']} index: expected a 400 that names the reindex, got HTTP "
             f"{status}: {reason[:500]}")
    log(f"k = 8 on the old index: HTTP 400: {answer['error']['root_cause'][0]['reason']}")


def check_new_pages_through_old_pipeline(before):
    """The old pipeline still fingerprints as before, into the old index, and the new documents are found."""
    lines = []
    for page_id, content in demo_pages():
        lines += [json.dumps({"index": {"_index": INDEX, "_id": f"again-{page_id}", "pipeline": PIPELINE}}),
                  json.dumps({"content": content}, ensure_ascii=False)]
    bulk(lines)
    now = fingerprints(INDEX)
    for page_id, _ in demo_pages():
        if now[f"again-{page_id}"] != before["fingerprints"][page_id]:
            fail(f"page {page_id}: fingerprint through the old pipeline changed: "
                 f"{before['fingerprints'][page_id]} -> {now[f'again-{page_id}']}")
        hits = call("POST", f"/{INDEX}/_search", {"size": 100, "_source": False, "query": {"near_duplicate": {
            "field": "fp", "max_distance": 0, "like": {"_index": INDEX, "_id": page_id}}}})["hits"]["hits"]
        if f"again-{page_id}" not in {h["_id"] for h in hits}:
            fail(f"page {page_id}: the re-indexed copy is not found at distance 0")
    call("POST", f"/{INDEX}/_delete_by_query?refresh=true",
         {"query": {"ids": {"values": [f"again-{page_id}" for page_id, _ in demo_pages()]}}})
    lines = []
    for page_id, content in demo_pages():
        lines += [json.dumps({"index": {"_index": MINHASH_INDEX, "_id": f"again-{page_id}", "pipeline": MINHASH_PIPELINE}}),
                  json.dumps({"content": content}, ensure_ascii=False)]
    bulk(lines)
    now = sources(MINHASH_INDEX)
    for page_id, _ in demo_pages():
        if now[f"again-{page_id}"] != before["minhash_sources"][page_id]:
            fail(f"page {page_id}: MinHash/I-Match values through the old pipeline changed")
    call("POST", f"/{MINHASH_INDEX}/_delete_by_query?refresh=true",
         {"query": {"ids": {"values": [f"again-{page_id}" for page_id, _ in demo_pages()]}}})
    log("new pages through the old pipelines: same SimHash, MinHash and I-Match values as the old release wrote, "
        "found by near_duplicate")


def check_reindex(before, probes):
    target = INDEX + "-reindexed"
    call("PUT", f"/{target}", {"settings": {"number_of_shards": 2, "number_of_replicas": 0},
                               "mappings": {"properties": {"fp": {"type": "simhash"}}}})
    call("POST", "/_reindex?refresh=true", {"source": {"index": INDEX}, "dest": {"index": target}})
    mapping = call("GET", f"/{target}/_mapping")[target]["mappings"]["properties"]["fp"]
    if fingerprints(target) != before["fingerprints"]:
        fail("the reindexed fingerprints differ")
    if answers(target, probes, []) != before["answers"][:len(probes) * (OLD_MAX_DISTANCE + 1)]:
        fail("the reindexed index answers k <= 3 differently")
    wide = call("POST", f"/{target}/_search", {"size": 0, "track_total_hits": True, "query": {"near_duplicate": {
        "field": "fp", "fingerprint": probes[0], "max_distance": 8}}})
    log(f"reindexed into today's default mapping (max_distance {mapping.get('max_distance')}): same fingerprints, "
        f"same k <= 3 answers, k = 8 served ({wide['hits']['total']['value']} hits for the first probe)")
    call("DELETE", f"/{target}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--then-opensearch", metavar="VERSION",
                        help="afterwards also upgrade OpenSearch to VERSION (e.g. 3.8.0) on the same data")
    args = parser.parse_args()
    old_os = PREVIOUS_RELEASE["opensearch"]
    old_zip = previous_release_zip()
    new_zip = current_zip(old_os)
    later_zip = current_zip(args.then_opensearch) if args.then_opensearch else None
    rng = random.Random(16)

    log(f"node with near-duplicate {PREVIOUS_RELEASE['version']} on OpenSearch {old_os}")
    node("start", old_os, old_zip)
    try:
        call("PUT", f"/_ingest/pipeline/{PIPELINE}",
             {"processors": [{"simhash": {"field": "content", "target_field": "fp"}}]})
        call("PUT", f"/{INDEX}", {"settings": {"number_of_shards": 2, "number_of_replicas": 0},
                                  "mappings": {"properties": {"fp": {"type": "simhash"}}}})
        call("PUT", f"/_ingest/pipeline/{MINHASH_PIPELINE}", {"processors": [
            {"minhash": {"field": "content", "target_field": "mh"}},
            {"imatch": {"field": "content", "target_field": "exact"}}]})
        call("PUT", f"/{MINHASH_INDEX}", {"settings": {"number_of_shards": 2, "number_of_replicas": 0},
                                          "mappings": {"properties": {"mh": {"type": "minhash"},
                                                                      "exact.imatch": {"type": "keyword"},
                                                                      "exact.text": {"type": "keyword"}}}})
        mapping = call("GET", f"/{INDEX}/_mapping")[INDEX]["mappings"]["properties"]["fp"]
        log(f"the old release's mapping: {json.dumps(mapping)}")
        lines = []
        for page_id, content in demo_pages():
            lines += [json.dumps({"index": {"_index": INDEX, "_id": page_id, "pipeline": PIPELINE}}),
                      json.dumps({"content": content}, ensure_ascii=False)]
        bulk([line for page_id, content in demo_pages() for line in (
            json.dumps({"index": {"_index": MINHASH_INDEX, "_id": page_id, "pipeline": MINHASH_PIPELINE}}),
            json.dumps({"content": content}, ensure_ascii=False))])
        probes = []
        for i in range(200):
            base = rng.getrandbits(64)
            probes.append(f"{base:016x}")
            for j in range(6):  # planted neighbours at distances 0..5
                fp = base
                for bit in rng.sample(range(64), j):
                    fp ^= 1 << bit
                lines += [json.dumps({"index": {"_index": INDEX, "_id": f"s{i}-{j}"}}), json.dumps({"fp": f"{fp:016x}"})]
        bulk(lines)
        probes = rng.sample(probes, 25) + [f"{rng.getrandbits(64):016x}" for _ in range(5)]
        likes = [page_id for page_id, _ in demo_pages()][:10] + ["s0-3", "s1-5"]
        before = snapshot(probes, likes)
        # every text probe finds at least its own page and every I-Match key its own document: nothing compared is empty
        if not all(before["minhash_answers"]) or not all(total for total, _ in before["answers"][:4 * 25]):
            fail("the old release's answers are empty where a hit was planted; nothing to compare")
        log(f"recorded {before['count']} documents, {len(before['answers'])} answers, {len(before['groups'])} groups")

        log(f"upgrading the plugin to {os.path.basename(new_zip)} on the same data")
        node("upgrade", old_os, new_zip)
        plugins = call("GET", "/_cat/plugins?format=json")
        log(f"running: {[(p['component'], p['version']) for p in plugins]}")
        compare(before, snapshot(probes, likes), f"after the plugin upgrade to {os.path.basename(new_zip)}")
        check_larger_k_names_reindex()
        check_new_pages_through_old_pipeline(before)
        check_reindex(before, probes)

        if later_zip:
            log(f"upgrading OpenSearch to {args.then_opensearch} with {os.path.basename(later_zip)} on the same data")
            node("upgrade", args.then_opensearch, later_zip)
            compare(before, snapshot(probes, likes), f"after the OpenSearch upgrade to {args.then_opensearch}")
            check_larger_k_names_reindex()
        log("passed")
    finally:
        node("stop", args.then_opensearch or old_os)


if __name__ == "__main__":
    main()
