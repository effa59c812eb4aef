#!/usr/bin/env python3
"""Real-node upgrade check (README "Upgrades"): indices written by the previous releases of the plugin keep working
after the node is upgraded to this build, or fail with a message that names the way out.

For each previous release (0.1.0 to 0.8.0; --from picks one), on a fresh node:
1. Builds the release's plugin zip from a git worktree of its commit in /tmp (kept in /tmp/near-duplicate-releases
   for later runs; never inside this repository).
2. Starts the OpenSearch version the release was built for (3.6.0 for 0.1.0 and 0.2.0, 3.8.0 from 0.3.0 on) with it,
   creates a simhash pipeline, a MinHash and I-Match pipeline and indices with the release's default mappings, indexes
   the demo pages through the pipelines and synthetic fingerprints with planted neighbours (from 0.6.0 on also signed
   neighbours agreeing on 10-14 of 32 signature slots, which the default min_similarity sorts into matches and misses),
   and records every stored value and the answers of near_duplicate
   (by fingerprint, by `like` and, from 0.2.0 on, by `text`; for every k the mapping promises), of the groups API and
   of minhash_similar and I-Match lookups.
3. Stops the node and installs this build's zip for the same OpenSearch version on the same data directory
   (scripts/node.sh upgrade), then requires:
   - the same documents and values, identical answers and groups;
   - k above the index's max_distance answered without allow_scan by the column scan (near_duplicate.scan_cache.size is
     on by default), exactly as the same query with allow_scan;
   - the old simhash and MinHash pipelines (no `version`) now make today's defaults, per method: simhash-v7,
     minhash-v6 and imatch-v6. Where that is a version the old field does not take (SimHash before 0.8.0, MinHash
     before 0.8.0), refused with a 400 that names the processor's [version] and the reindex, and with that version
     they write exactly what the old release wrote (SimHash, MinHash, I-Match). Into 0.8.0's simhash-v6 field the
     unversioned pipeline's simhash-v7 values are accepted (v6 and v7 cross): indexed with exactly the fingerprints
     and signatures 0.8.0 wrote, found at distance 0 by 0.8.0's copies and finding them; with [version] 6 it writes
     exactly 0.8.0's values. Where the default did not change (MinHash and I-Match of 0.8.0), they write exactly
     what the release wrote as they are; new pages are found;
   - a reindex into today's layout with the old algorithm keeps the fingerprints and answers and serves k up to 16; a
     reindex through today's default pipeline into today's default mapping (simhash-v7) finds every page by itself,
     through the candidate keys (`candidate_keys` in the profiled query's description, and
     queries.candidate_keys.segments of _near_duplicate/stats growing by at least one segment per query).
4. With --then-opensearch VERSION, upgrades OpenSearch too (this build's zip for VERSION, same data) and compares again.

Exit code 1 on any difference. Needs git and Maven (the releases build offline once ~/.m2 holds their dependencies);
a few minutes per release. NODE_PORT picks the node's HTTP port (default 9200; transport NODE_PORT + 100).
  python3 scripts/upgrade_check.py                                  # 0.1.0 to 0.8.0 -> this build
  NODE_PORT=9480 python3 scripts/upgrade_check.py --from 0.8.0
  python3 scripts/upgrade_check.py --from 0.2.0 --then-opensearch 3.8.0
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys

import nd_http

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
URL = f"http://127.0.0.1:{os.environ.get('NODE_PORT', '9200')}"
NODE_DIR = os.path.join(ROOT, "target", "upgrade-node")
# The previous releases, both built for OpenSearch 3.6.0. 0.1.0: the last commit before the any-k layout (default
# simhash mapping: 4 blocks, max_distance 3); no text probes. 0.2.0: the any-k layout (max_distance 16), text probes;
# both fingerprint with simhash-v1, pinned into their mappings.
# 0.3.0: simhash-v2, minhash-v2 and imatch-v2 became the defaults, built for OpenSearch 3.8.0. 0.4.0: the same
# algorithms, faster. 0.5.0 made version 3 the default: the unversioned pipelines of 0.3.0 and 0.4.0 are refused by
# their fields with the fix in the message, and with [version] 2 write exactly what they wrote.
# 0.6.0: simhash-v4, the verified match (a 32-byte signature with every fingerprint, default min_similarity 0.35) and
# groups around a representative. 0.7.0: simhash-v5 (template regions dropped), verified at 0.35 as well. 0.8.0:
# version 6 (Chinese cut by HanLP's dictionary), simhash-v6 verified at 0.40; the parent of 293080c, which opened
# "Unreleased". Each is the last commit of its release (the last with its pom version and its default algorithm).
RELEASES = {
    "0.1.0": {"commit": "de3b2e0a99b0cab46a3dec8a7246ffb51f02b472", "opensearch": "3.6.0", "text_probes": False,
              "algorithm_version": 1},
    "0.2.0": {"commit": "5df5ee988fd0f7e2192997959a7a09f97e7ce677", "opensearch": "3.6.0", "text_probes": True,
              "algorithm_version": 1},
    "0.3.0": {"commit": "b5fa9dcc187f8453a82d7e75ccfeadb18f1295aa", "opensearch": "3.8.0", "text_probes": True,
              "algorithm_version": 2},
    "0.4.0": {"commit": "e39a1492a44a2641de62a894849574af2511b1db", "opensearch": "3.8.0", "text_probes": True,
              "algorithm_version": 2},
    "0.5.0": {"commit": "819270bf023cefb801817240e66d1eb24d4988a2", "opensearch": "3.8.0", "text_probes": True,
              "algorithm_version": 3},
    "0.6.0": {"commit": "cad4a81ba0499f1562069ded0b72799d622beb65", "opensearch": "3.8.0", "text_probes": True,
              "algorithm_version": 4},
    "0.7.0": {"commit": "5db79f990b33119d6e7a127c28f834f75bd945e4", "opensearch": "3.8.0", "text_probes": True,
              "algorithm_version": 5},
    "0.8.0": {"commit": "82120aa00ccf052ba6572db91e4b31be43bffe75", "opensearch": "3.8.0", "text_probes": True,
              "algorithm_version": 6},
}
# the algorithm versions today's processors make when the pipeline names none: SimHash's own version 7 (0.9.0 on:
# version 6's fingerprint and signature plus candidate keys), the feature pipeline's 6 for MinHash and I-Match
DEFAULT_SIMHASH_VERSION = 7
DEFAULT_MINHASH_VERSION = 6
# SimHash versions that make the same fingerprint and signature, so that their fields take each other's values (no 400)
CROSSING_SIMHASH_VERSIONS = {6, 7}
# the first algorithm version whose values carry a verification signature (32 one-byte slots)
FIRST_SIGNATURE_VERSION = 4
SIGNATURE_SLOTS = 32
KS = (0, 1, 2, 3, 5, 8, 12, 16)
INDEX = "upgrade-check"
PIPELINE = "upgrade-check"
MINHASH_INDEX = "upgrade-check-mh"
MINHASH_PIPELINE = "upgrade-check-mh"


def log(message):
    print(f"[upgrade-check] {message}", flush=True)


def fail(message):
    log("FAILED: " + message)
    sys.exit(1)


def request(method, path, body=None, ndjson=False):
    """Returns (status, parsed body); HTTP errors are answers here, not exceptions."""
    return nd_http.request(URL, method, path, body, ndjson, timeout=120)


def call(method, path, body=None, ndjson=False):
    status, answer = request(method, path, body, ndjson)
    if status >= 300:
        fail(f"{method} {path} -> HTTP {status}: {json.dumps(answer)[:800]}")
    return answer


def shell(command, cwd=ROOT):
    """Runs a bash command with the project's JDK and Maven settings (scripts/env.sh)."""
    subprocess.run(["bash", "-c", f"source {ROOT}/scripts/env.sh && {command}"], check=True, cwd=cwd)


def release_zip(version):
    """The zip of a previous release, built from its commit in a worktree outside this repository."""
    release = RELEASES[version]
    out_dir = f"/tmp/near-duplicate-releases/{version}"
    zip_path = os.path.join(out_dir, f"near-duplicate-{version}.zip")
    if os.path.isfile(zip_path):
        log(f"release {version}: {zip_path} (built before)")
        return zip_path
    source = f"/tmp/near-duplicate-{version}-src-{os.getpid()}"
    log(f"building release {version} ({release['commit'][:7]}) in a worktree at {source}")
    subprocess.run(["git", "worktree", "add", "--detach", source, release["commit"]], check=True, cwd=ROOT)
    try:
        build = "$MVN -q -DskipTests -Dskip.node=true package"
        shell(f"{build} -o || {build}", cwd=source)  # offline when ~/.m2 has everything
        os.makedirs(out_dir, exist_ok=True)
        # 0.1.0 and 0.2.0 named it near-duplicate-<version>.zip, 0.3.0 on near-duplicate-<version>-os<opensearch>.zip
        built = [f for f in os.listdir(os.path.join(source, "target"))
                 if f.startswith(f"near-duplicate-{version}") and f.endswith(".zip")]
        if len(built) != 1:
            fail(f"release {version}: expected one plugin zip in {source}/target, found {built}")
        shutil.copy(os.path.join(source, "target", built[0]), zip_path)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", source], check=True, cwd=ROOT)
    return zip_path


def default_opensearch_version():
    out = subprocess.run(["bash", "-c", f"source {ROOT}/scripts/env.sh && opensearch_version_default"],
                         check=True, capture_output=True, text=True)
    return out.stdout.strip()


def current_zip(opensearch_version):
    """This build's plugin zip for an OpenSearch version: the default version's in target/, others in
    target/os-<version>/ (so that the default build stays as it is); packaged (incrementally) on every run."""
    if opensearch_version == default_opensearch_version():
        build_dir = os.path.join(ROOT, "target")
        extra = ""
    else:
        build_dir = os.path.join(ROOT, "target", f"os-{opensearch_version}")
        extra = f" -Dbuild.dir={build_dir}"
    log(f"packaging this build for OpenSearch {opensearch_version} into {os.path.relpath(build_dir, ROOT)}/")
    build = f"$MVN -q -DskipTests -Dskip.node=true -Dopensearch.version={opensearch_version}{extra} package"
    shell(f"{build} -o || {build}")  # offline when ~/.m2 has everything
    found = sorted(f for f in os.listdir(build_dir)
                   if f.startswith("near-duplicate-") and f.endswith(f"-os{opensearch_version}.zip"))
    if not found:
        fail(f"no plugin zip for OpenSearch {opensearch_version} in {build_dir}")
    return os.path.join(build_dir, found[-1])


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


def scroll(index, body):
    found = {}
    response = call("POST", f"/{index}/_search?scroll=1m", {"size": 1000, "sort": ["_doc"], **body})
    while response["hits"]["hits"]:
        for hit in response["hits"]["hits"]:
            found[hit["_id"]] = hit["_source"]
        response = call("POST", "/_search/scroll", {"scroll": "1m", "scroll_id": response["_scroll_id"]})
    return found


def fingerprints(index):
    """id -> the stored fingerprint object or hex string, as written."""
    return {i: source["fp"] for i, source in scroll(index, {"_source": ["fp"]}).items()}


def candidate_keys_segments():
    """The segments near_duplicate answered from candidate keys on all nodes (_near_duplicate/stats, total)."""
    return call("GET", "/_plugins/_near_duplicate/stats")["total"]["queries"]["candidate_keys"]["segments"]


class Upgrade:
    def __init__(self, version, then_opensearch):
        self.version = version
        self.release = RELEASES[version]
        self.then_opensearch = then_opensearch
        self.rng = random.Random(16)

    def ks(self):
        return [k for k in KS if k <= self.max_distance]

    def probes(self):
        """Every near_duplicate probe the release understood: fingerprints, `like` and (0.2.0 on) `text`."""
        queries = [{"fingerprint": p} for p in self.fingerprint_probes]
        queries += [{"like": {"_index": INDEX, "_id": i}} for i in self.likes]
        if self.release["text_probes"]:
            queries += [{"text": content} for _, content in list(demo_pages())[:8]]
        return queries

    def answers(self, index, queries):
        """near_duplicate hits (id, distance) for every probe and every k the mapping promises."""
        result = []
        for probe in queries:
            for k in self.ks():
                response = call("POST", f"/{index}/_search", {
                    "size": 200, "track_total_hits": True, "_source": False,
                    "query": {"near_duplicate": {"field": "fp", "max_distance": k, **probe}}})
                result.append((response["hits"]["total"]["value"],
                               sorted((h["_id"], h["fields"]["_near_duplicate_distance"][0])
                                      for h in response["hits"]["hits"])))
        return result

    def minhash_answers(self):
        """minhash_similar hits (id, score) for the demo pages' texts, and I-Match key lookups."""
        result = []
        for _, content in list(demo_pages())[:12]:
            response = call("POST", f"/{MINHASH_INDEX}/_search", {"size": 50, "_source": False, "query": {
                "minhash_similar": {"field": "mh", "text": content, "min_similarity": 0.4}}})
            result.append(sorted((h["_id"], round(h["_score"], 5)) for h in response["hits"]["hits"]))
        for source in list(scroll(MINHASH_INDEX, {}).values())[:12]:
            response = call("POST", f"/{MINHASH_INDEX}/_search", {"size": 50, "_source": False, "query": {
                "term": {"exact.imatch": source["exact"]["imatch"]}}})
            result.append(sorted(h["_id"] for h in response["hits"]["hits"]))
        return result

    def snapshot(self):
        body = {"field": "fp", "max_distance": min(3, self.max_distance), "size": 1000}
        # releases up to 0.5.0 group by connected components and know no "mode"; this build's default differs
        status, groups = request("POST", f"/{INDEX}/_near_duplicates", {**body, "mode": "components"})
        if status == 400 and "mode" in json.dumps(groups):
            groups = call("POST", f"/{INDEX}/_near_duplicates", body)
        elif status >= 300:
            fail(f"POST /{INDEX}/_near_duplicates -> HTTP {status}: {json.dumps(groups)[:800]}")
        return {"count": call("GET", f"/{INDEX}/_count")["count"], "fingerprints": fingerprints(INDEX),
                "answers": self.answers(INDEX, self.probes()), "groups": groups["groups"],
                "minhash_sources": scroll(MINHASH_INDEX, {}), "minhash_answers": self.minhash_answers()}

    def compare(self, after, when):
        for key in ("count", "fingerprints", "answers", "groups", "minhash_sources", "minhash_answers"):
            if self.before[key] != after[key]:
                fail(f"{self.version}: {key} differ {when}")
        log(f"identical {when}: {after['count']} documents and their fingerprints, {len(after['answers'])} "
            f"near_duplicate answers (k in {self.ks()}, by fingerprint, like{', text' if self.release['text_probes'] else ''}),"
            f" {len(after['groups'])} groups, {len(after['minhash_sources'])} MinHash/I-Match documents and "
            f"{len(after['minhash_answers'])} minhash_similar and I-Match answers")

    def fill(self):
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
        self.mapping = call("GET", f"/{INDEX}/_mapping")[INDEX]["mappings"]["properties"]["fp"]
        self.max_distance = int(self.mapping["max_distance"])
        log(f"{self.version}'s default mapping: {json.dumps(self.mapping)}")
        lines = []
        for page_id, content in demo_pages():
            lines += [json.dumps({"index": {"_index": INDEX, "_id": page_id, "pipeline": PIPELINE}}),
                      json.dumps({"content": content}, ensure_ascii=False)]
        bulk([line for page_id, content in demo_pages() for line in (
            json.dumps({"index": {"_index": MINHASH_INDEX, "_id": page_id, "pipeline": MINHASH_PIPELINE}}),
            json.dumps({"content": content}, ensure_ascii=False))])
        probes = []
        for i in range(200):
            base = self.rng.getrandbits(64)
            probes.append(f"{base:016x}")
            for j in (0, 1, 2, 3, 4, 6, 9, 13):  # planted neighbours on both sides of every k checked
                fp = base
                for bit in self.rng.sample(range(64), j):
                    fp ^= 1 << bit
                lines += [json.dumps({"index": {"_index": INDEX, "_id": f"s{i}-{j}"}}), json.dumps({"fp": f"{fp:016x}"})]
        signed_likes = []
        if self.release["algorithm_version"] >= FIRST_SIGNATURE_VERSION:
            # signed neighbours whose signatures agree with their base's on 10..14 and all 32 slots: the default
            # min_similarity of the old field decides which of them match, so a changed default shows up here
            for i in range(30):
                base = self.rng.getrandbits(64)
                signature = bytes(self.rng.getrandbits(8) for _ in range(SIGNATURE_SLOTS))
                for agreeing in (10, 11, 12, 13, 14, SIGNATURE_SLOTS):
                    fp = base
                    for bit in self.rng.sample(range(64), self.rng.randint(0, 3)):
                        fp ^= 1 << bit
                    differing = set(self.rng.sample(range(SIGNATURE_SLOTS), SIGNATURE_SLOTS - agreeing))
                    slots = bytes((b ^ self.rng.randint(1, 255)) if s in differing else b for s, b in enumerate(signature))
                    lines += [json.dumps({"index": {"_index": INDEX, "_id": f"g{i}-{agreeing}"}}),
                              json.dumps({"fp": {"fingerprint": f"{fp:016x}", "signature": slots.hex()}})]
                signed_likes.append(f"g{i}-{SIGNATURE_SLOTS}")
        bulk(lines)
        self.fingerprint_probes = self.rng.sample(probes, 20) + [f"{self.rng.getrandbits(64):016x}" for _ in range(4)]
        self.likes = [page_id for page_id, _ in demo_pages()][:10] + ["s0-3", "s1-6"] + signed_likes
        self.before = self.snapshot()
        # every planted probe finds its neighbours and every text probe its page: nothing compared is empty
        per_probe = len(self.ks())
        if not all(self.before["minhash_answers"]) or not all(
                total for total, _ in self.before["answers"][:20 * per_probe]):
            fail(f"{self.version}'s answers are empty where a hit was planted; nothing to compare")
        if signed_likes:
            self.log_signed_matches(signed_likes)
        log(f"recorded {self.before['count']} documents, {len(self.before['answers'])} answers, "
            f"{len(self.before['groups'])} groups")

    def log_signed_matches(self, signed_likes):
        """Which signed neighbours the release's default min_similarity lets match (all are within k = 8): the
        threshold must fall inside the planted range, or these probes could not notice a changed default."""
        matched = {}
        for like in signed_likes:
            hits = call("POST", f"/{INDEX}/_search", {"size": 50, "_source": False, "query": {"near_duplicate": {
                "field": "fp", "max_distance": 8, "like": {"_index": INDEX, "_id": like}}}})["hits"]["hits"]
            group = like.split("-")[0] + "-"
            for h in hits:
                if h["_id"].startswith(group):
                    agreeing = int(h["_id"].split("-")[1])
                    matched[agreeing] = matched.get(agreeing, 0) + 1
        levels = sorted(matched)
        if not levels or levels[0] <= 10 or levels[0] > 14:
            fail(f"{self.version}: the signed neighbours matched by agreeing slots {matched}: the default threshold is "
                 "not inside the planted range 11..14")
        log(f"{self.version}'s default min_similarity: signed neighbours match from {levels[0]} agreeing slots of "
            f"{SIGNATURE_SLOTS} on ({matched})")

    def check_larger_k_names_reindex(self):
        """k above the mapping's max_distance: before the column scan a 400 that named the reindex; now the node's
        column cache (on by default) answers it without allow_scan, with the same hits as allow_scan."""
        k = self.max_distance + 1
        answers = []
        for extra in ({}, {"allow_scan": True}):
            status, answer = request("POST", f"/{INDEX}/_search?size=100", {"track_total_hits": True, "query": {
                "near_duplicate": {"field": "fp", "fingerprint": "0123456789abcdef", "max_distance": k, **extra}}})
            if status != 200:
                fail(f"k = {k} on the {self.version} index {extra}: expected an answer, got HTTP {status}: "
                     f"{json.dumps(answer)[:500]}")
            answers.append(sorted((h["_id"], h["_score"]) for h in answer["hits"]["hits"]))
        if answers[0] != answers[1]:
            fail(f"k = {k} on the {self.version} index: the column scan and allow_scan differ")
        log(f"k = {k} on the {self.version} index: answered without allow_scan, {len(answers[0])} hits as with it")

    def check_old_pipelines(self):
        """The old pipelines have no version. SimHash: if the release's default algorithm is no longer today's, the
        pipeline now makes the new default; a field of a version that does not cross with it refuses that with the fix
        in the message, and with the version the message names the pipeline fingerprints exactly as the release did. A
        field of a crossing version (simhash-v6 of 0.8.0 and today's simhash-v7) takes the new values as they are: same
        fingerprint and signature as the release wrote, keys left out of the index. If the default is still the
        release's, the unversioned pipeline itself must write exactly what the release wrote. MinHash and I-Match the
        same with their own default version (no crossing versions)."""
        old_version = self.release["algorithm_version"]
        changed = old_version != DEFAULT_SIMHASH_VERSION
        crossing = changed and {old_version, DEFAULT_SIMHASH_VERSION} <= CROSSING_SIMHASH_VERSIONS
        page_id, content = next(iter(demo_pages()))
        if crossing:
            self.check_crossing_pipeline(old_version)
        elif changed:
            status, answer = request("PUT", f"/{INDEX}/_doc/again?pipeline={PIPELINE}&refresh=true", {"content": content})
            reason = json.dumps(answer.get("error", {}))
            if status != 400 or f"Set [version] to {old_version}" not in reason or "reindex" not in reason:
                fail(f"a page through the unversioned old pipeline into the {self.version} index: expected a 400 that "
                     f"names [version] {old_version} and the reindex, got HTTP {status}: {reason[:600]}")
            log(f"the unversioned old pipeline into the old index: HTTP 400: {answer['error']['caused_by']['reason']}")
            call("PUT", f"/_ingest/pipeline/{PIPELINE}",
                 {"processors": [{"simhash": {"field": "content", "target_field": "fp", "version": old_version}}]})
        lines = []
        for page_id, content in demo_pages():
            lines += [json.dumps({"index": {"_index": INDEX, "_id": f"again-{page_id}", "pipeline": PIPELINE}}),
                      json.dumps({"content": content}, ensure_ascii=False)]
        bulk(lines)
        now = fingerprints(INDEX)
        for page_id, _ in demo_pages():
            if now[f"again-{page_id}"] != self.before["fingerprints"][page_id]:
                fail(f"page {page_id}: the pipeline (version {old_version}) fingerprints differently from {self.version}: "
                     f"{self.before['fingerprints'][page_id]} -> {now[f'again-{page_id}']}")
            hits = call("POST", f"/{INDEX}/_search", {"size": 200, "_source": False, "query": {"near_duplicate": {
                "field": "fp", "max_distance": 0, "like": {"_index": INDEX, "_id": page_id}}}})["hits"]["hits"]
            if f"again-{page_id}" not in {h["_id"] for h in hits}:
                fail(f"page {page_id}: the re-indexed copy is not found at distance 0")
        call("POST", f"/{INDEX}/_delete_by_query?refresh=true",
             {"query": {"ids": {"values": [f"again-{page_id}" for page_id, _ in demo_pages()]}}})
        simhash_how = (f"with [version] {old_version}" if changed else
                       "as it is (its default is still today's)")
        minhash_changed = old_version != DEFAULT_MINHASH_VERSION
        if minhash_changed:
            status, answer = request("PUT", f"/{MINHASH_INDEX}/_doc/again?pipeline={MINHASH_PIPELINE}&refresh=true",
                                     {"content": content})
            reason = json.dumps(answer.get("error", {}))
            if status != 400 or f"Set [version] to {old_version}" not in reason or "reindex" not in reason:
                fail(f"a page through the unversioned old MinHash pipeline into the {self.version} index: expected a "
                     f"400 that names [version] {old_version} and the reindex, got HTTP {status}: {reason[:600]}")
            log("the unversioned old MinHash pipeline into the old index: HTTP 400: "
                f"{answer['error']['caused_by']['reason']}")
            call("PUT", f"/_ingest/pipeline/{MINHASH_PIPELINE}", {"processors": [
                {"minhash": {"field": "content", "target_field": "mh", "version": old_version}},
                {"imatch": {"field": "content", "target_field": "exact", "version": old_version}}]})
        lines = []
        for page_id, content in demo_pages():
            lines += [json.dumps({"index": {"_index": MINHASH_INDEX, "_id": f"again-{page_id}",
                                            "pipeline": MINHASH_PIPELINE}}),
                      json.dumps({"content": content}, ensure_ascii=False)]
        bulk(lines)
        now = scroll(MINHASH_INDEX, {})
        for page_id, _ in demo_pages():
            if now[f"again-{page_id}"] != self.before["minhash_sources"][page_id]:
                fail(f"page {page_id}: MinHash/I-Match values through the pipeline (version {old_version}) differ "
                     f"from {self.version}'s")
        call("POST", f"/{MINHASH_INDEX}/_delete_by_query?refresh=true",
             {"query": {"ids": {"values": [f"again-{page_id}" for page_id, _ in demo_pages()]}}})
        minhash_how = (f"with [version] {old_version}" if minhash_changed else
                       "as they are (their default is still today's)")
        log(f"the old SimHash pipeline, {simhash_how}, writes what the release wrote (new pages found at distance 0); "
            f"the old MinHash and I-Match pipelines, {minhash_how}, too")

    def check_crossing_pipeline(self, old_version):
        """The release's field (simhash-v6) and today's default (simhash-v7) make the same sketch: the unversioned old
        pipeline now writes v7 values, which the old field indexes without their keys, no 400. Every page must be
        stored with exactly the fingerprint and signature the release wrote (plus v7's keys and id), be found at
        distance 0 by the release's copy and find it; then the pipeline is pinned to the old version, which writes
        exactly what the release wrote."""
        lines = []
        for page_id, content in demo_pages():
            lines += [json.dumps({"index": {"_index": INDEX, "_id": f"v{DEFAULT_SIMHASH_VERSION}-{page_id}",
                                            "pipeline": PIPELINE}}),
                      json.dumps({"content": content}, ensure_ascii=False)]
        bulk(lines)  # fails on any refused document
        now = fingerprints(INDEX)
        new_prefix = f"simhash-v{DEFAULT_SIMHASH_VERSION}:"
        for page_id, _ in demo_pages():
            old, new = self.before["fingerprints"][page_id], now[f"v{DEFAULT_SIMHASH_VERSION}-{page_id}"]
            if not isinstance(new, dict) or not new.get("algorithm", "").startswith(new_prefix) or not new.get("keys"):
                fail(f"page {page_id}: the unversioned old pipeline was expected to write a {new_prefix[:-1]} value "
                     f"with keys, wrote {json.dumps(new)[:300]}")
            if (new["fingerprint"], new["signature"]) != (old["fingerprint"], old["signature"]):
                fail(f"page {page_id}: the unversioned old pipeline's {new_prefix[:-1]} value differs from "
                     f"{self.version}'s: {old['fingerprint']}/{old['signature']} -> "
                     f"{new['fingerprint']}/{new['signature']}")
            for probe, wanted in ((page_id, f"v{DEFAULT_SIMHASH_VERSION}-{page_id}"),
                                  (f"v{DEFAULT_SIMHASH_VERSION}-{page_id}", page_id)):
                hits = call("POST", f"/{INDEX}/_search", {"size": 200, "_source": False, "query": {"near_duplicate": {
                    "field": "fp", "max_distance": 0, "like": {"_index": INDEX, "_id": probe}}}})["hits"]["hits"]
                if wanted not in {h["_id"] for h in hits}:
                    fail(f"page {page_id}: like [{probe}] does not find [{wanted}] at distance 0 in the "
                         f"{self.version} index")
        call("POST", f"/{INDEX}/_delete_by_query?refresh=true", {"query": {"ids": {"values": [
            f"v{DEFAULT_SIMHASH_VERSION}-{page_id}" for page_id, _ in demo_pages()]}}})
        log(f"the unversioned old pipeline into the old simhash-v{old_version} index: accepted (no 400), "
            f"{new_prefix[:-1]} values with {self.version}'s fingerprints and signatures, found at distance 0 both ways")
        call("PUT", f"/_ingest/pipeline/{PIPELINE}",
             {"processors": [{"simhash": {"field": "content", "target_field": "fp", "version": old_version}}]})

    def check_reindex(self):
        # today's layout, the old algorithm: the fingerprint objects are copied as they are
        same = INDEX + "-layout"
        call("PUT", f"/{same}", {"settings": {"number_of_shards": 2, "number_of_replicas": 0}, "mappings": {
            "properties": {"fp": {"type": "simhash", "algorithm": self.mapping["algorithm"]}}}})
        call("POST", "/_reindex?refresh=true", {"source": {"index": INDEX}, "dest": {"index": same}})
        max_distance = call("GET", f"/{same}/_mapping")[same]["mappings"]["properties"]["fp"]["max_distance"]
        if fingerprints(same) != self.before["fingerprints"]:
            fail("the fingerprints reindexed into today's layout differ")
        if self.answers(same, self.probes()) != self.before["answers"]:
            fail(f"the index reindexed into today's layout answers k in {self.ks()} differently")
        wide = call("POST", f"/{same}/_search", {"size": 0, "track_total_hits": True, "query": {"near_duplicate": {
            "field": "fp", "fingerprint": self.fingerprint_probes[0], "max_distance": 16}}})
        call("DELETE", f"/{same}")
        # today's defaults: new fingerprints, made from the source text by today's default pipeline
        fresh = INDEX + "-v2"
        call("PUT", "/_ingest/pipeline/upgrade-check-v2",
             {"processors": [{"simhash": {"field": "content", "target_field": "fp"}}]})
        call("PUT", f"/{fresh}", {"settings": {"number_of_shards": 1, "number_of_replicas": 0},
                                  "mappings": {"properties": {"fp": {"type": "simhash"}}}})
        call("POST", "/_reindex?refresh=true", {"source": {"index": MINHASH_INDEX, "_source": ["content"]},
                                                "dest": {"index": fresh, "pipeline": "upgrade-check-v2"}})
        algorithm = call("GET", f"/{fresh}/_mapping")[fresh]["mappings"]["properties"]["fp"]["algorithm"]
        if not algorithm.startswith(f"simhash-v{DEFAULT_SIMHASH_VERSION}:"):
            fail(f"today's default mapping is {algorithm}, expected simhash-v{DEFAULT_SIMHASH_VERSION}")
        segments_before = candidate_keys_segments()
        pages = 0
        for page_id, _ in demo_pages():
            answer = call("POST", f"/{fresh}/_search", {"size": 100, "_source": False, "profile": True, "query": {
                "near_duplicate": {"field": "fp", "max_distance": 0, "like": {"_index": fresh, "_id": page_id}}}})
            if page_id not in {h["_id"] for h in answer["hits"]["hits"]}:
                fail(f"page {page_id} reindexed through today's default pipeline is not found by itself")
            descriptions = [q["description"] for shard in answer["profile"]["shards"]
                            for search in shard["searches"] for q in search["query"]]
            if not any("candidate_keys" in d for d in descriptions):
                fail(f"page {page_id}: the query on the reindexed {algorithm.split(':')[0]} index did not take the "
                     f"candidate keys: profile {descriptions}")
            pages += 1
        segments = candidate_keys_segments() - segments_before
        if segments < pages:
            fail(f"{pages} like queries on the reindexed {algorithm.split(':')[0]} index answered only {segments} "
                 "segments from the candidate keys (queries.candidate_keys.segments); expected at least one each")
        call("DELETE", f"/{fresh}")
        call("DELETE", "/_ingest/pipeline/upgrade-check-v2")
        log(f"reindexed into today's layout with {self.version}'s algorithm (max_distance {max_distance}): same "
            f"fingerprints and answers, k = 16 served ({wide['hits']['total']['value']} hits for a probe); through "
            f"today's default pipeline ({algorithm.split(':')[0]}): every page found by itself through the candidate "
            f"keys (profile; {segments} segments in queries.candidate_keys.segments for {pages} queries)")

    def run(self):
        old_os = self.release["opensearch"]
        old_zip = release_zip(self.version)
        new_zip = current_zip(old_os)
        later_zip = current_zip(self.then_opensearch) if self.then_opensearch else None
        log(f"node with near-duplicate {self.version} on OpenSearch {old_os}")
        node("start", old_os, old_zip)
        try:
            self.fill()
            log(f"upgrading the plugin to {os.path.basename(new_zip)} on the same data")
            node("upgrade", old_os, new_zip)
            log(f"running: {[(p['component'], p['version']) for p in call('GET', '/_cat/plugins?format=json')]}")
            self.compare(self.snapshot(), f"after the plugin upgrade {self.version} -> {os.path.basename(new_zip)}")
            self.check_larger_k_names_reindex()
            self.check_old_pipelines()
            self.check_reindex()
            if later_zip:
                log(f"upgrading OpenSearch to {self.then_opensearch} with {os.path.basename(later_zip)} on the same data")
                node("upgrade", self.then_opensearch, later_zip)
                self.compare(self.snapshot(), f"after the OpenSearch upgrade to {self.then_opensearch}")
                self.check_larger_k_names_reindex()
        finally:
            node("stop", self.then_opensearch or old_os)
        log(f"{self.version} -> this build: passed")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--from", dest="releases", action="append", choices=sorted(RELEASES),
                        help="the previous release to upgrade from (repeatable; default: all)")
    parser.add_argument("--then-opensearch", metavar="VERSION",
                        help="afterwards also upgrade OpenSearch to VERSION (e.g. 3.8.0) on the same data")
    args = parser.parse_args()
    for version in args.releases or sorted(RELEASES):
        Upgrade(version, args.then_opensearch).run()
    log("passed")


if __name__ == "__main__":
    main()
