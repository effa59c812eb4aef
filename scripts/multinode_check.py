#!/usr/bin/env python3
"""Real multi-node check (issue 39 item 5): three OpenSearch node processes of one cluster on this machine, the freshly
built plugin in each, an index of 3 primaries and 1 replica, and README's check-on-ingest pipeline (`simhash` +
`near_duplicate_check`, k 3, on_unavailable: tag). Three client threads, each with its own node as entry point,
send bulks of generated texts (random word sequences from a seeded vocabulary) and planted copies (exact, or one word
changed): a copy goes through another node than its original, most of them after the original's bulk was acknowledged
(recorded per copy), some while it is still in flight. Clients retry failed bulks and items on the next node (idempotent
by _id). One node is killed (kill -9) during the ingest and restarted (the last 30% of the originals wait for it: the
clients write while it recovers); another is killed during a throttled `_near_duplicates/_write` run (the coordinating
node: the run's `running` marker stays), restarted, and `_write` is re-run until a run writes nothing. Asserted:

- no acknowledged document lost (by _id);
- no wrong `duplicate` tag: its matched document exists, at the reported distance, and matches by the documented rule
  (Hamming distance <= k and, both signed, at least min_similarity's agreeing signature slots), computed here from the
  stored fingerprints and signatures; for a sample also through the `near_duplicate` query of another node; an exact
  copy has its original's fingerprint and signature;
- no `unique` tag for a copy whose original was acknowledged before the copy's bulk was sent and which matches it;
- the same `near_duplicate` answers (hits and distances) and `_near_duplicates` groups through every node, equal to a
  brute-force evaluation of the documented rules (query: docs/query.md; groups: docs/workflows.md section 2);
- `_write` converges after the killed run, and the written groups are those of the rule;
- the `near_duplicate` breaker of every node back at its value of the cluster's start once the index is deleted.

    scripts/multinode_check.py [--docs 5000] [--seed 39]

Builds nothing: it installs the newest target/near-duplicate-*-os<version>.zip (mvn package first; PLUGIN_ZIP for
another) into one OpenSearch installation in target/multinode (MULTINODE_DIR) that the three nodes share, each with its
own config, data and logs, HTTP ports 9230-9232 and transport 9330-9332 (MULTINODE_PORT moves both), heap 512m
(MULTINODE_HEAP). As root the nodes run as the user 'opensearch' (as scripts/node.sh does). The nodes are stopped at
exit (also on an error, SIGINT or SIGTERM). About 3-4 minutes on 2 cores. Exit code 1 on any failure."""
import argparse
import atexit
import collections
import http.client
import json
import os
import pwd
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
import zipfile

import nd_http

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
BASE_DIR = os.environ.get("MULTINODE_DIR", os.path.join(ROOT, "target", "multinode"))
HTTP_PORT = int(os.environ.get("MULTINODE_PORT", "9230"))
HEAP = os.environ.get("MULTINODE_HEAP", "512m")
USER = os.environ.get("NODE_USER", "opensearch")
NODE_COUNT = 3
INDEX = "multinode-check"
PIPELINE = "dedup"
K = 3  # the README pipeline's max_distance
BULK_SIZE = 50
COPY_SHARE = 0.25  # of the acknowledged originals, copied after their acknowledgement
EARLY_COPY_SHARE = 0.05  # of the originals, copied while their bulk is in flight
# docs/engine.md "Verified match": min_similarity per algorithm (fields with signatures)
MIN_SIMILARITY = {"simhash-v6": 0.40, "simhash-v5": 0.35, "simhash-v4": 0.35}
# README "Crawler workflows": the check-on-ingest pipeline, verbatim
PIPELINE_BODY = {"processors": [
    {"simhash": {"field": "content", "target_field": "simhash"}},
    {"near_duplicate_check": {"field": "simhash", "max_distance": 3, "on_duplicate": "tag",
                              "result_field": "near_duplicate", "group_field": "dup_group", "timeout": "5s",
                              "on_unavailable": "tag"}}]}

STARTED = time.time()
failures = []


def log(message):
    print(f"[multinode-check {time.time() - STARTED:6.1f}s] {message}", flush=True)


def fail(message):
    failures.append(message)
    log("FAILED: " + message)


def http(node, method, path, body=None, ndjson=False, timeout=120):
    """(status, parsed body); anything that is not an HTTP answer (refused, reset, timed out) is status 0."""
    try:
        return nd_http.request(url(node), method, path, body, ndjson, timeout, unreachable=True)
    except (OSError, http.client.HTTPException, ValueError) as e:
        return 0, {"error": repr(e)}


def ok(node, method, path, body=None, timeout=120):
    status, answer = http(node, method, path, body, timeout=timeout)
    if not 200 <= status < 300:
        raise CheckError(f"{method} {path} through node {node} -> HTTP {status}: {json.dumps(answer)[:600]}")
    return answer


class CheckError(Exception):
    pass


def url(node):
    return f"http://127.0.0.1:{HTTP_PORT + node}"


# ---------------------------------------------------------------------------------------------------------- the nodes

def shell_env(expression):
    """A value that scripts/env.sh computes (the JDK, the pom's OpenSearch version)."""
    return subprocess.run(["bash", "-c", f"source '{ROOT}/scripts/env.sh' >/dev/null && {expression}"],
                          check=True, capture_output=True, text=True).stdout.strip()


def plugin_zip():
    """The plugin zip and its OpenSearch version: PLUGIN_ZIP, else the newest target/near-duplicate-*-os<version>.zip
    (OPENSEARCH_VERSION selects the version, as in scripts/node.sh)."""
    zip_path = os.environ.get("PLUGIN_ZIP")
    if not zip_path:
        wanted = os.environ.get("OPENSEARCH_VERSION")
        target = os.path.join(ROOT, "target")
        zips = [os.path.join(target, f) for f in os.listdir(target) if f.startswith("near-duplicate-")
                and f.endswith(".zip") and "-os" in f and (not wanted or f.endswith(f"-os{wanted}.zip"))] \
            if os.path.isdir(target) else []
        if not zips:
            sys.exit("multinode check: no plugin zip in target/; build it first: mvn -B -q -ntp package -DskipTests")
        zip_path = max(zips, key=os.path.getmtime)
    with zipfile.ZipFile(zip_path) as z:
        descriptor = z.read("plugin-descriptor.properties").decode("utf-8")
    versions = [line.split("=", 1)[1].strip() for line in descriptor.splitlines() if line.startswith("opensearch.version=")]
    if not versions:
        sys.exit(f"multinode check: {zip_path} is not an OpenSearch plugin zip")
    return zip_path, versions[0]


class Cluster:
    """Three node processes sharing one installation in BASE_DIR; each has its own config, data and logs."""

    def __init__(self, java_home, version, zip_path):
        self.java_home = java_home
        self.version = version
        self.zip_path = zip_path
        self.home = os.path.join(BASE_DIR, f"opensearch-{version}")
        self.processes = {}  # node -> its process (the JVM)
        self.as_user = os.geteuid() == 0

    def node_dir(self, node):
        return os.path.join(BASE_DIR, f"node-{node}")

    def install(self):
        dist = os.path.join(ROOT, "target", "distribution", f"opensearch-{self.version}.zip")
        if not os.path.exists(dist):
            log(f"fetching the OpenSearch {self.version} distribution from Maven Central")
            subprocess.run(["bash", "-c", f"source '{ROOT}/scripts/env.sh' && $MVN -q dependency:copy "
                            f"-Dartifact=org.opensearch.distribution.integ-test-zip:opensearch:{self.version}:zip "
                            f"-DoutputDirectory='{ROOT}/target/distribution' -Dmdep.stripVersion=false"], check=True)
        for port in range(HTTP_PORT, HTTP_PORT + NODE_COUNT):
            if http(port - HTTP_PORT, "GET", "/", timeout=2)[0] != 0:
                sys.exit(f"multinode check: something already listens on port {port}; stop it or set MULTINODE_PORT")
        if self.as_user:
            if subprocess.run(["id", "-u", USER], capture_output=True).returncode != 0:
                log(f"creating unprivileged user '{USER}' (OpenSearch refuses to run as root)")
                subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER],
                               check=True)
        shutil.rmtree(BASE_DIR, ignore_errors=True)
        os.makedirs(BASE_DIR)
        subprocess.run(["unzip", "-q", dist, "-d", BASE_DIR], check=True)
        install = subprocess.run([os.path.join(self.home, "bin", "opensearch-plugin"), "install", "--batch",
                                  "file://" + os.path.realpath(self.zip_path)],
                                 env=dict(os.environ, OPENSEARCH_JAVA_HOME=self.java_home, JAVA_HOME=self.java_home),
                                 capture_output=True, text=True)
        if install.returncode != 0:
            sys.exit(f"multinode check: installing the plugin failed:\n{install.stdout}{install.stderr}")
        seeds = json.dumps([f"127.0.0.1:{HTTP_PORT + 100 + n}" for n in range(NODE_COUNT)])
        managers = json.dumps([f"mn-{n}" for n in range(NODE_COUNT)])
        for node in range(NODE_COUNT):
            directory = self.node_dir(node)
            shutil.copytree(os.path.join(self.home, "config"), os.path.join(directory, "config"))
            os.makedirs(os.path.join(directory, "data"))
            os.makedirs(os.path.join(directory, "logs"))
            with open(os.path.join(directory, "config", "opensearch.yml"), "a", encoding="utf-8") as f:
                f.write(f"\ncluster.name: near-duplicate-multinode\nnode.name: mn-{node}\nnetwork.host: 127.0.0.1\n"
                        f"http.port: {HTTP_PORT + node}\ntransport.port: {HTTP_PORT + 100 + node}\n"
                        f"discovery.seed_hosts: {seeds}\ncluster.initial_cluster_manager_nodes: {managers}\n"
                        f"path.data: {directory}/data\npath.logs: {directory}/logs\n"
                        # a full disk of a shared machine must not keep replicas unassigned
                        "cluster.routing.allocation.disk.threshold_enabled: false\n"
                        "action.destructive_requires_name: false\n")
        if self.as_user:
            subprocess.run(["chown", "-R", USER, BASE_DIR], check=True)

    def launch(self, nodes):
        """Starts the nodes in the foreground (bin/opensearch execs the JVM: the child is the node's process, killed by
        its pid) and waits until each answers HTTP."""
        for node in nodes:
            directory = self.node_dir(node)
            env = dict(os.environ, OPENSEARCH_PATH_CONF=f"{directory}/config", OPENSEARCH_JAVA_HOME=self.java_home,
                       JAVA_HOME=self.java_home, OPENSEARCH_JAVA_OPTS=f"-Xms{HEAP} -Xmx{HEAP}")
            user = {"user": USER, "group": pwd.getpwnam(USER).pw_gid, "extra_groups": []} if self.as_user else {}
            with open(os.path.join(directory, "logs", "console.log"), "ab") as console:
                self.processes[node] = subprocess.Popen([os.path.join(self.home, "bin", "opensearch")], env=env,
                                                        cwd=self.home, stdin=subprocess.DEVNULL, stdout=console,
                                                        stderr=subprocess.STDOUT, start_new_session=True, **user)
        for node in nodes:
            deadline = time.time() + 300
            while http(node, "GET", "/", timeout=5)[0] != 200:
                if time.time() > deadline or not self.alive(node):
                    raise CheckError(f"node mn-{node} did not answer; see {self.node_dir(node)}/logs")
                time.sleep(0.5)

    def pid(self, node):
        return self.processes[node].pid

    def alive(self, node):
        return node in self.processes and self.processes[node].poll() is None

    def kill(self, node, sig=signal.SIGKILL):
        """kill -9 (or a SIGTERM that turns into a SIGKILL after 60 s) of the node's process, and waits for its end."""
        process = self.processes.pop(node, None)
        if process is None or process.poll() is not None:
            return
        process.send_signal(sig)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def stop_all(self):
        for process in self.processes.values():
            if process.poll() is None:
                process.terminate()
        for node in list(self.processes):
            self.kill(node, signal.SIGTERM)

    def wait_green(self, via, nodes=NODE_COUNT, timeout=240):
        deadline = time.time() + timeout
        while True:
            status, health = http(via, "GET", f"/_cluster/health?wait_for_status=green&wait_for_nodes={nodes}"
                                              "&wait_for_no_relocating_shards=true&timeout=5s", timeout=15)
            if status == 200 and health.get("status") == "green" and health.get("number_of_nodes") == nodes:
                return
            if time.time() > deadline:
                raise CheckError(f"the cluster did not become green with {nodes} nodes: {json.dumps(health)[:400]}")
            time.sleep(0.5)

    def manager(self, via):
        answer = ok(via, "GET", "/_cat/cluster_manager?format=json")
        return int(answer[0]["node"].split("-")[1])


# ------------------------------------------------------------------------------------------------------- the clients

class Corpus:
    """Generated texts: random word sequences from a fixed vocabulary of made-up words, with a seed."""

    def __init__(self, seed):
        rng = random.Random(seed)
        syllables = [c + v for c in "bcdfghklmnprstvz" for v in "aeiou"] + ["ar", "en", "ol", "ut", "is"]
        words = set()
        while len(words) < 3000:
            words.add("".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))))
        self.vocabulary = sorted(words)

    def text(self, rng):
        return " ".join(rng.choice(self.vocabulary) for _ in range(rng.randint(40, 90)))

    def variant(self, text, rng):
        """One word replaced by another."""
        words = text.split(" ")
        words[rng.randrange(len(words))] = rng.choice(self.vocabulary)
        return " ".join(words)


class Ledger:
    """What the clients sent and what was acknowledged, shared by the client threads."""

    def __init__(self, originals, held):
        self.lock = threading.Lock()
        self.originals_left = originals - held
        self.held = held  # originals released by release(): sent while and after the killed node comes back
        self.in_flight = 0  # bulks sent and not yet done (they may still plant copies)
        self.queues = [collections.deque() for _ in range(NODE_COUNT)]  # copies to send, per client
        self.texts = {}  # _id -> text sent
        self.acked = {}  # _id -> (time, node that acknowledged it)
        self.copies = {}  # copy _id -> {"original", "exact", "acked_before", ...}
        self.bulks = 0
        self.retries = 0
        self.errors = []

    def release(self):
        with self.lock:
            self.originals_left += self.held
            self.held = 0


class Client(threading.Thread):
    """Sends bulks through the pipeline, its own node first; a failed bulk or item is sent again (same _id) through the
    next node, as a client with a list of hosts does."""

    def __init__(self, home, ledger, corpus, seed):
        super().__init__(name=f"client-{home}", daemon=True)
        self.home = home
        self.ledger = ledger
        self.corpus = corpus
        self.rng = random.Random(seed * 100 + home)
        self.count = 0

    def run(self):
        try:
            self.loop()
        except Exception as e:  # noqa: BLE001 - reported as a failure of the check
            with self.ledger.lock:
                self.ledger.errors.append(f"client {self.home}: {e!r}")

    def loop(self):
        ledger = self.ledger
        while True:
            with ledger.lock:
                queue = ledger.queues[self.home]
                jobs = [queue.popleft() for _ in range(min(len(queue), BULK_SIZE))]
                new = min(BULK_SIZE - len(jobs), ledger.originals_left)
                ledger.originals_left -= new
                if jobs or new:
                    ledger.in_flight += 1
                elif ledger.originals_left == 0 and ledger.held == 0 and ledger.in_flight == 0 and not any(ledger.queues):
                    return
            if not jobs and not new:
                time.sleep(0.05)
                continue
            docs = []
            with ledger.lock:
                for original, exact in jobs:
                    self.count += 1
                    copy_id = f"c{self.home}-{self.count}"
                    text = ledger.texts[original] if exact else self.corpus.variant(ledger.texts[original], self.rng)
                    ledger.copies[copy_id] = {"original": original, "exact": exact,
                                              "acked_before": original in ledger.acked,
                                              "original_node": ledger.acked.get(original, (None, None))[1]}
                    ledger.texts[copy_id] = text
                    docs.append(copy_id)
                for _ in range(new):
                    self.count += 1
                    doc_id = f"o{self.home}-{self.count}"
                    ledger.texts[doc_id] = self.corpus.text(self.rng)
                    docs.append(doc_id)
                    if self.rng.random() < EARLY_COPY_SHARE:  # a copy while this bulk is in flight
                        ledger.queues[(self.home + 2) % NODE_COUNT].append((doc_id, self.rng.random() < 0.7))
            acked = self.send(docs)
            with ledger.lock:
                for doc_id, node in acked.items():
                    ledger.acked[doc_id] = (time.time(), node)
                for doc_id in docs:
                    if doc_id.startswith("o") and self.rng.random() < COPY_SHARE:
                        # after the acknowledgement, through another node
                        ledger.queues[(self.home + 1) % NODE_COUNT].append((doc_id, self.rng.random() < 0.7))
                ledger.bulks += 1
                ledger.in_flight -= 1

    def send(self, docs):
        """Sends until every document is acknowledged; returns {_id: node that acknowledged it}."""
        acked = {}
        pending = list(docs)
        attempt = 0
        deadline = time.time() + 240
        while pending:
            node = (self.home + attempt) % NODE_COUNT
            lines = []
            for doc_id in pending:
                lines.append(json.dumps({"index": {"_index": INDEX, "_id": doc_id}}))
                lines.append(json.dumps({"content": self.ledger.texts[doc_id]}))
            status, answer = http(node, "POST", f"/_bulk?pipeline={PIPELINE}", "\n".join(lines) + "\n", ndjson=True,
                                  timeout=90)
            retry = pending
            if status == 200:
                retry = []
                for doc_id, item in zip(pending, answer["items"]):
                    item_status = item["index"]["status"]
                    if 200 <= item_status < 300:
                        acked[doc_id] = node
                    elif item_status == 429 or item_status >= 500:
                        retry.append(doc_id)
                    else:
                        raise CheckError(f"document {doc_id} refused through node {node}: {json.dumps(item)[:400]}")
            elif status not in (0, 429) and status < 500:
                raise CheckError(f"bulk through node {node} -> HTTP {status}: {json.dumps(answer)[:400]}")
            pending = retry
            if pending:
                attempt += 1
                with self.ledger.lock:
                    self.ledger.retries += 1
                if time.time() > deadline:
                    raise CheckError(f"{len(pending)} documents still not acknowledged after 240 s of retries")
                time.sleep(min(2.0, 0.25 * attempt))
        return acked


# --------------------------------------------------------------------------------------------------------- the rules

class Rule:
    """The documented match: Hamming distance <= k and, when both sides carry a signature, at least min_agreeing
    equal signature slots (docs/engine.md "Verified match": similarity = (agreeing/32 - 1/256) / (1 - 1/256))."""

    def __init__(self, min_similarity):
        self.min_similarity = min_similarity
        self.min_agreeing = next((a for a in range(33) if self.similarity(a) >= min_similarity), 33)

    @staticmethod
    def similarity(agreeing):
        return max(0.0, min(1.0, (agreeing / 32 - 1 / 256) / (1 - 1 / 256)))

    @staticmethod
    def agreeing(a, b):
        return sum(1 for x, y in zip(a, b) if x == y)

    def matches(self, a, b, k, signatures=True):
        if (a["fp"] ^ b["fp"]).bit_count() > k:
            return False
        if signatures and a["sig"] is not None and b["sig"] is not None:
            return self.agreeing(a["sig"], b["sig"]) >= self.min_agreeing
        return True


def read_documents(node):
    """Every document: {_id: {"fp", "sig", "check", "group"}} from _source (scrolled)."""
    docs = {}
    answer = ok(node, "POST", f"/{INDEX}/_search?scroll=2m",
                {"size": 2000, "sort": ["_doc"], "_source": ["simhash", "near_duplicate", "dup_group",
                                                             "duplicate_group", "duplicate_distance"]})
    while answer["hits"]["hits"]:
        for hit in answer["hits"]["hits"]:
            source = hit["_source"]
            fp = source.get("simhash") or {}
            docs[hit["_id"]] = {"fp": int(fp["fingerprint"], 16) if fp else None,
                                "sig": bytes.fromhex(fp["signature"]) if fp.get("signature") else None,
                                "algorithm": fp.get("algorithm"), "check": source.get("near_duplicate") or {},
                                "dup_group": source.get("dup_group"), "duplicate_group": source.get("duplicate_group"),
                                "duplicate_distance": source.get("duplicate_distance")}
        answer = ok(node, "POST", "/_search/scroll", {"scroll": "2m", "scroll_id": answer["_scroll_id"]})
    http(node, "DELETE", "/_search/scroll", {"scroll_id": answer["_scroll_id"]})
    return docs


def brute_force_groups(docs, rule, k):
    """docs/workflows.md section 2, mode representative: connected components of the match graph; in each, in _id
    order, the first document not yet placed is a representative and takes every unplaced document that matches it;
    then every non-representative joins the representative it matches most closely (most agreeing signature slots,
    then smallest distance, then the earlier representative); a representative without members is in no group.
    Returns {representative: {_id: distance}} (the representative included, at 0)."""
    ids = sorted(d for d in docs if docs[d]["fp"] is not None)
    parent = {d: d for d in ids}

    def find(d):
        while parent[d] != d:
            parent[d] = parent[parent[d]]
            d = parent[d]
        return d

    # pigeonhole candidates: within k <= 3 two fingerprints share one of 4 16-bit blocks
    assert k <= 3
    neighbours = collections.defaultdict(set)
    for block in range(4):
        buckets = collections.defaultdict(list)
        for d in ids:
            buckets[(docs[d]["fp"] >> (16 * block)) & 0xFFFF].append(d)
        for bucket in buckets.values():
            for i, a in enumerate(bucket):
                for b in bucket[i + 1:]:
                    if b not in neighbours[a] and rule.matches(docs[a], docs[b], k):
                        neighbours[a].add(b)
                        neighbours[b].add(a)
                        parent[find(a)] = find(b)
    components = collections.defaultdict(list)
    for d in ids:
        if neighbours[d]:
            components[find(d)].append(d)
    groups = {}
    for members in components.values():
        placed, representatives, taken_by = set(), [], {}
        for d in members:  # members are in _id order
            if d in placed:
                continue
            representatives.append(d)
            placed.add(d)
            for other in members:
                if other not in placed and other in neighbours[d]:
                    placed.add(other)
                    taken_by[other] = d
        rep_set = set(representatives)
        assignment = {}
        for d in members:
            if d in rep_set:
                continue
            best = None
            for order, rep in enumerate(representatives):
                if rep in neighbours[d]:
                    agreeing = Rule.agreeing(docs[d]["sig"], docs[rep]["sig"]) if docs[d]["sig"] and docs[rep]["sig"] else 0
                    distance = (docs[d]["fp"] ^ docs[rep]["fp"]).bit_count()
                    key = (-agreeing, distance, order)
                    if best is None or key < best[0]:
                        best = (key, rep, distance)
            assignment[d] = best
        for rep in representatives:
            group = {d: best[2] for d, best in assignment.items() if best[1] == rep}
            if group:
                group[rep] = 0
                groups[rep] = group
    return groups


def brute_force_query(docs, probe, k, rule, signatures):
    return sorted((d, (doc["fp"] ^ probe["fp"]).bit_count()) for d, doc in docs.items()
                  if doc["fp"] is not None and rule.matches(probe, doc, k, signatures))


# ---------------------------------------------------------------------------------------------------------- the check

def groups_through(node, k):
    """Every group of _near_duplicates (paged), and the counts."""
    groups, after = [], None
    while True:
        body = {"field": "simhash", "max_distance": k, "size": 10000}
        if after:
            body["after"] = after
        answer = ok(node, "POST", f"/{INDEX}/_near_duplicates", body, timeout=300)
        groups += answer["groups"]
        after = answer.get("next_after")
        if not after:
            answer.pop("took", None)
            answer["groups"] = groups
            answer.pop("next_after", None)
            return answer


def run_write(node, body):
    return ok(node, "POST", f"/{INDEX}/_near_duplicates/_write", body, timeout=600)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--docs", type=int, default=5000,
                        help="original documents (copies come on top, about 30%%); the last 30%% are sent once the node "
                             "killed during the ingest is back")
    parser.add_argument("--seed", type=int, default=39)
    parser.add_argument("--serve", metavar="COMMAND",
                        help="no checks: start the cluster, run COMMAND (a shell command) with $MULTINODE_URLS set to "
                             "the three nodes' URLs, comma-separated, then stop it (benchmarks on a real cluster, e.g. "
                             "bench/check_wait.py --url $MULTINODE_URLS)")
    args = parser.parse_args()
    zip_path, version = plugin_zip()
    java_home = shell_env("echo $JAVA_HOME")
    cluster = Cluster(java_home, version, zip_path)
    atexit.register(cluster.stop_all)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda *_: sys.exit("multinode check: interrupted"))
    timings = {}
    if args.serve:
        cluster.install()
        cluster.launch(range(NODE_COUNT))
        cluster.wait_green(0)
        urls = ",".join(url(n) for n in range(NODE_COUNT))
        log(f"cluster green at {urls}; running: {args.serve}")
        code = subprocess.run(args.serve, shell=True, env=dict(os.environ, MULTINODE_URLS=urls)).returncode
        cluster.stop_all()
        sys.exit(code)
    try:
        check(cluster, args, timings)
    except CheckError as e:
        fail(str(e))
    finally:
        started = time.time()
        cluster.stop_all()
        timings["stop"] = time.time() - started
    log("timings: " + ", ".join(f"{name} {seconds:.1f} s" for name, seconds in timings.items())
        + f"; total {time.time() - STARTED:.1f} s")
    if failures:
        print("multinode check FAILED:\n  " + "\n  ".join(failures), flush=True)
        sys.exit(1)
    log("passed")


def phase(timings, name, started):
    timings[name] = time.time() - started
    return time.time()


def check(cluster, args, timings):
    t = time.time()
    log(f"installing OpenSearch {cluster.version} and {os.path.basename(cluster.zip_path)} into "
        f"{os.path.relpath(BASE_DIR, ROOT)}")
    cluster.install()
    t = phase(timings, "install", t)
    cluster.launch(range(NODE_COUNT))
    cluster.wait_green(0)
    t = phase(timings, "start 3 nodes", t)
    nodes_info = ok(0, "GET", "/_nodes/plugins")["nodes"]
    for info in nodes_info.values():
        if "near-duplicate" not in {p["name"] for p in info["plugins"]}:
            raise CheckError(f"node {info['name']} has no near-duplicate plugin")
    baseline = breakers(0)
    log(f"cluster of {len(nodes_info)} nodes green (heap {HEAP} each), cluster manager mn-{cluster.manager(0)}; "
        f"near_duplicate breaker bytes {baseline}")

    ok(0, "PUT", f"/_ingest/pipeline/{PIPELINE}", PIPELINE_BODY)
    ok(1, "PUT", f"/{INDEX}", {"settings": {"number_of_shards": 3, "number_of_replicas": 1},
                               "mappings": {"properties": {"simhash": {"type": "simhash"},
                                                           "dup_group": {"type": "keyword"}}}})
    cluster.wait_green(2)
    algorithm = ok(2, "GET", f"/{INDEX}/_mapping")[INDEX]["mappings"]["properties"]["simhash"]["algorithm"]
    min_similarity = MIN_SIMILARITY.get(algorithm.split(":")[0])
    rule = Rule(min_similarity if min_similarity is not None else 0.0)
    log(f"index [{INDEX}]: 3 primaries, 1 replica, field algorithm {algorithm.split(':')[0]}, "
        f"rule: distance <= k and >= {rule.min_agreeing} of 32 signature slots (min_similarity {min_similarity})")

    # ------------------------------------------------------------------ ingest, a node killed and restarted during it
    corpus = Corpus(args.seed)
    ledger = Ledger(args.docs, held=int(args.docs * 0.3))
    clients = [Client(n, ledger, corpus, args.seed) for n in range(NODE_COUNT)]
    for client in clients:
        client.start()
    manager = cluster.manager(0)
    victim = next(n for n in range(NODE_COUNT) if n != manager)
    while sum(1 for d in list(ledger.acked) if d.startswith("o")) < args.docs * 0.2 and any(c.is_alive() for c in clients):
        time.sleep(0.1)
    acked_at_kill = len(ledger.acked)
    log(f"{acked_at_kill} documents acknowledged; kill -9 of mn-{victim} (pid {cluster.pid(victim)}) during the ingest")
    cluster.kill(victim)
    killed_at = time.time()
    time.sleep(2)
    cluster.launch([victim])
    acked_at_restart = len(ledger.acked)
    log(f"mn-{victim} restarted after {time.time() - killed_at:.1f} s ({acked_at_restart} documents acknowledged); "
        f"the last {ledger.held} originals go now, while it recovers")
    ledger.release()
    for client in clients:
        client.join()
    if ledger.errors:
        raise CheckError("client errors: " + "; ".join(ledger.errors))
    t = phase(timings, "ingest", t)
    same_node = sum(1 for c, copy in ledger.copies.items() if ledger.acked[c][1] == copy["original_node"])
    log(f"ingest done: {len(ledger.texts)} documents ({len(ledger.copies)} copies, {same_node} of them acknowledged "
        f"through their original's node after a fail-over) in {ledger.bulks} bulks, {ledger.retries} bulks/items "
        f"sent again, {len(ledger.texts) - acked_at_restart} acknowledged after the restart, {timings['ingest']:.1f} s")
    cluster.wait_green(0)
    t = phase(timings, "green after the restart", t)
    ok(0, "POST", f"/{INDEX}/_refresh")

    # ------------------------------------------------------------------------------------------- what was stored
    docs = read_documents(1)
    lost = sorted(set(ledger.acked) - set(docs))
    unknown = sorted(set(docs) - set(ledger.texts))
    count = ok(2, "GET", f"/{INDEX}/_count")["count"]
    log(f"stored: {len(docs)} documents (_count {count}); acknowledged {len(ledger.acked)}; lost {len(lost)}")
    if lost:
        fail(f"{len(lost)} acknowledged documents lost, e.g. {lost[:5]}")
    if unknown or count != len(docs):
        fail(f"unexpected documents {unknown[:5]} or _count {count} != {len(docs)} read")
    missing_fp = [d for d, doc in docs.items() if doc["fp"] is None]
    if missing_fp:
        fail(f"{len(missing_fp)} documents without a fingerprint, e.g. {missing_fp[:5]}")

    statuses = collections.Counter(doc["check"].get("status") for doc in docs.values())
    reasons = collections.Counter(doc["check"].get("reason", "")[:90] for doc in docs.values()
                                  if doc["check"].get("status") == "unchecked")
    log(f"check-on-ingest tags: {dict(statuses)}" + (f"; unchecked reasons: {dict(reasons.most_common(3))}" if reasons else ""))

    # no wrong duplicate tag: the match exists, at the reported distance, and matches by the rule
    wrong = []
    for doc_id, doc in docs.items():
        result = doc["check"]
        if result.get("status") != "duplicate":
            continue
        match = docs.get(result.get("_id"))
        if match is None or result.get("_index") not in (None, INDEX):
            wrong.append(f"{doc_id}: matched {result.get('_index')}/{result.get('_id')}, not in the index")
        elif (doc["fp"] ^ match["fp"]).bit_count() != result.get("distance"):
            wrong.append(f"{doc_id}: distance {result.get('distance')} to {result['_id']}, "
                         f"stored fingerprints {(doc['fp'] ^ match['fp']).bit_count()}")
        elif not rule.matches(doc, match, K):
            wrong.append(f"{doc_id}: {result['_id']} does not match by the rule")
    if wrong:
        fail(f"{len(wrong)} wrong duplicate tags, e.g. {wrong[:5]}")
    # an exact copy, fingerprinted by another node than its original, has the same fingerprint and signature
    differing = [c for c, copy in ledger.copies.items() if copy["exact"] and c in docs and copy["original"] in docs
                 and (docs[c]["fp"], docs[c]["sig"]) != (docs[copy["original"]]["fp"], docs[copy["original"]]["sig"])]
    if differing:
        fail(f"{len(differing)} exact copies with another fingerprint or signature than their original, e.g. {differing[:5]}")

    # the copies whose original was acknowledged before the copy was sent: never unique
    table = collections.Counter()
    unique_examples = []
    for copy_id, copy in ledger.copies.items():
        doc, original = docs.get(copy_id), docs.get(copy["original"])
        if doc is None or original is None:
            continue
        within = rule.matches(doc, original, K)
        status = doc["check"].get("status")
        table[(copy["acked_before"], within, status)] += 1
        if copy["acked_before"] and within and status == "unique":
            unique_examples.append(f"{copy_id} (copy of {copy['original']}, acked via mn-{copy['original_node']}, "
                                   f"copy acked via mn-{ledger.acked.get(copy_id, (0, '?'))[1]})")
    for acked_before in (True, False):
        row = {status: sum(n for (a, w, s), n in table.items() if a == acked_before and w and s == status)
               for status in ("duplicate", "unchecked", "unique")}
        outside = sum(n for (a, w, s), n in table.items() if a == acked_before and not w)
        log(f"copies {'acked-before' if acked_before else 'sent before the ack'}: "
            f"{sum(row.values())} within the rule of their original: found (duplicate) {row['duplicate']}, "
            f"unchecked {row['unchecked']}, unique {row['unique']}; {outside} outside the rule (a changed word)")
    if unique_examples:
        fail(f"{len(unique_examples)} copies tagged unique although their original was acknowledged before they were "
             f"sent (the check must wait until acknowledged writes are searchable), e.g. {unique_examples[:3]}")

    # a sample of duplicate tags through the near_duplicate query of another node than the one that acknowledged it
    rng = random.Random(args.seed)
    tagged = sorted(d for d, doc in docs.items() if doc["check"].get("status") == "duplicate")
    missed = []
    for doc_id in rng.sample(tagged, min(60, len(tagged))):
        node = ((ledger.acked.get(doc_id, (0, 0))[1]) + 1) % NODE_COUNT
        answer = ok(node, "POST", f"/{INDEX}/_search", {"size": 1000, "_source": False, "query": {"near_duplicate": {
            "field": "simhash", "like": {"_index": INDEX, "_id": doc_id}, "max_distance": K}}})
        if docs[doc_id]["check"]["_id"] not in {h["_id"] for h in answer["hits"]["hits"]}:
            missed.append(doc_id)
    if missed:
        fail(f"{len(missed)} duplicate tags whose match the near_duplicate query does not find, e.g. {missed[:5]}")
    t = phase(timings, "tag checks", t)

    # ------------------------------------------------- near_duplicate answers: equal through every node and to the rule
    probes = rng.sample(sorted(docs), 25) + [c for c in rng.sample(sorted(ledger.copies), 15)]
    differ, wrong_answers, hits_seen = [], [], 0
    for doc_id in probes:
        probe = docs[doc_id]
        variants = [("fingerprint+signature k=3", {"fingerprint": f"{probe['fp']:016x}", "signature": probe["sig"].hex(),
                                                   "max_distance": K}, K, True),
                    ("fingerprint k=16", {"fingerprint": f"{probe['fp']:016x}", "max_distance": 16}, 16, False),
                    ("like k=8", {"like": {"_index": INDEX, "_id": doc_id}, "max_distance": 8}, 8, True)]
        for label, query, k, signatures in variants:
            answers = []
            for node in range(NODE_COUNT):
                answer = ok(node, "POST", f"/{INDEX}/_search", {
                    "size": 1000, "track_total_hits": True, "_source": False,
                    "query": {"near_duplicate": dict(field="simhash", **query)}})
                answers.append((answer["hits"]["total"]["value"],
                                sorted((h["_id"], h["fields"]["_near_duplicate_distance"][0]) for h in answer["hits"]["hits"])))
            if any(a != answers[0] for a in answers):
                differ.append(f"{label} of {doc_id}: totals {[a[0] for a in answers]}")
            expected = brute_force_query(docs, probe, k, rule, signatures)
            hits_seen += len(expected)
            if answers[0] != (len(expected), expected):
                wrong_answers.append(f"{label} of {doc_id}: {answers[0][0]} hits, the rule {len(expected)}")
    log(f"near_duplicate: {len(probes)} probes x 3 kinds x {NODE_COUNT} nodes, {hits_seen} expected hits in all: "
        f"{len(differ)} differ between nodes, {len(wrong_answers)} differ from the brute force")
    if differ:
        fail(f"near_duplicate answers differ between nodes: {differ[:3]}")
    if wrong_answers:
        fail(f"near_duplicate answers differ from the rule's brute force: {wrong_answers[:3]}")

    # ------------------------------------------------- _near_duplicates: equal through every node and to the rule
    expected_groups = brute_force_groups(docs, rule, K)
    answers = [groups_through(node, K) for node in range(NODE_COUNT)]
    if any(a != answers[0] for a in answers):
        fail("_near_duplicates answers differ between nodes: groups " + str([a["counts"]["groups"] for a in answers]))
    got = {g["representative"]: {m["_id"]: m["distance"] for m in g["members"]} for g in answers[0]["groups"]}
    log(f"_near_duplicates k={K}: {answers[0]['counts']['groups']} groups, {answers[0]['counts']['docs_in_groups']} "
        f"documents in groups through each node; brute force {len(expected_groups)} groups, "
        f"{sum(len(g) for g in expected_groups.values())} documents")
    if got != expected_groups:
        diff = sorted(r for r in set(got) | set(expected_groups) if got.get(r) != expected_groups.get(r))
        fail(f"_near_duplicates groups differ from the rule's brute force for {len(diff)} representatives, e.g. "
             + "; ".join(f"{r}: got {got.get(r)}, rule {expected_groups.get(r)}" for r in diff[:3]))
    t = phase(timings, "query and groups checks", t)

    # ---------------------------------------- _write: the coordinating node killed during a run, re-run to convergence
    cluster.wait_green(0)
    writer = next(n for n in range(NODE_COUNT) if n != cluster.manager(0) and n != victim)
    task = ok(writer, "POST", f"/{INDEX}/_near_duplicates/_write?wait_for_completion=false",
              {"field": "simhash", "max_distance": K, "requests_per_second": max(200, len(docs) // 20),
               "batch_size": 100})["task"]
    deadline = time.time() + 120
    progress = {}
    while time.time() < deadline:
        status, answer = http(writer, "GET", f"/_tasks/{task}", timeout=10)
        progress = answer.get("task", {}).get("status", {}) if status == 200 else {}
        if answer.get("completed"):
            raise CheckError(f"the throttled _write run completed before it could be killed: {json.dumps(answer)[:300]}")
        if progress.get("written", 0) + progress.get("singletons", 0) >= len(docs) // 10:
            break
        time.sleep(0.1)
    log(f"_write task {task} on mn-{writer}: {progress.get('phase')}, written {progress.get('written')}, "
        f"singletons {progress.get('singletons')}; kill -9 of mn-{writer}")
    cluster.kill(writer)
    other = (writer + 1) % NODE_COUNT
    time.sleep(2)
    marker = ok(other, "GET", f"/{INDEX}/_mapping")[INDEX]["mappings"].get("_meta", {}).get("near_duplicate_write", {})
    task_status = http(other, "GET", f"/_tasks/{task}", timeout=10)[0]
    log(f"marker after the kill: {marker.get('status')} (task {marker.get('task')}; GET _tasks/<task> -> HTTP {task_status})")
    if marker.get("status") != "running":
        fail(f"the killed _write run left marker {marker}, not 'running'")
    cluster.launch([writer])
    cluster.wait_green(other)
    t = phase(timings, "_write killed and node restarted", t)
    runs = []
    for _ in range(4):
        answer = run_write(other, {"field": "simhash", "max_distance": K})
        runs.append({key: answer.get(key) for key in ("groups", "written", "noops", "cleared", "singletons", "failed")})
        if answer.get("failed"):
            fail(f"_write re-run failed documents: {json.dumps(answer.get('failures'))[:400]}")
        if not answer.get("written") and not answer.get("singletons") and not answer.get("cleared"):
            break
    log(f"_write re-runs through mn-{other}: {runs}")
    last = runs[-1]
    if last.get("written") or last.get("singletons") or last.get("cleared"):
        fail(f"_write did not converge in {len(runs)} re-runs: {runs}")
    marker = ok(writer, "GET", f"/{INDEX}/_mapping")[INDEX]["mappings"].get("_meta", {}).get("near_duplicate_write", {})
    if marker.get("status") != "completed":
        fail(f"the marker after the re-runs is {marker}, not 'completed'")
    ok(0, "POST", f"/{INDEX}/_refresh")
    written = read_documents(2)
    wrong_writes = []
    group_of = {d: (rep, dist) for rep, members in expected_groups.items() for d, dist in members.items()}
    for doc_id, doc in written.items():
        expected = group_of.get(doc_id, (doc_id, 0))
        if (doc["duplicate_group"], doc["duplicate_distance"]) != expected:
            wrong_writes.append(f"{doc_id}: {doc['duplicate_group']}/{doc['duplicate_distance']}, rule {expected}")
    log(f"_write result: {len(written)} documents read, {len(wrong_writes)} with another group than the rule's")
    if wrong_writes:
        fail(f"{len(wrong_writes)} documents written with a wrong group, e.g. {wrong_writes[:5]}")
    if len(written) != len(docs):
        fail(f"{len(docs)} documents before _write, {len(written)} after")
    t = phase(timings, "_write re-runs and checks", t)

    # ------------------------------------------------------------- the breaker back at its baseline on every node
    log(f"near_duplicate breaker bytes with the index: {breakers(0)}; deleting the index")
    ok(0, "DELETE", f"/{INDEX}")
    deadline = time.time() + 60
    while True:
        now = breakers(0)
        if now == baseline or time.time() > deadline:
            break
        time.sleep(1)
    log(f"near_duplicate breaker bytes: {now} (at the start {baseline})")
    if now != baseline:
        fail(f"the near_duplicate breaker did not return to its baseline within 60 s: {now}, at the start {baseline}")
    phase(timings, "breaker", t)


def breakers(node):
    stats = ok(node, "GET", "/_nodes/stats/breaker")["nodes"]
    return {s["name"]: s["breakers"]["near_duplicate"]["estimated_size_in_bytes"] for s in sorted(
        stats.values(), key=lambda s: s["name"])}


if __name__ == "__main__":
    main()
