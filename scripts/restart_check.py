#!/usr/bin/env python3
"""Real-node restart check (issue: nothing lost): index pages through the simhash pipeline and synthetic
fingerprints, record every stored fingerprint and the answers of near_duplicate queries and of the groups API,
restart the node with scripts/node.sh (same data directory, recovery from the translog: nothing is flushed by
hand), and require everything to be identical afterwards. Exit code 1 on any difference."""
import json
import os
import random
import subprocess
import sys

from nd_http import call

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
URL = f"http://127.0.0.1:{os.environ.get('NODE_PORT', '9200')}"
INDEX = "restart-check"


def node(command):
    subprocess.run([os.path.join(ROOT, "scripts", "node.sh"), command], check=True)


def snapshot(probes):
    fingerprints = {}
    response = call(URL, "POST", f"/{INDEX}/_search?scroll=1m",
                    {"size": 1000, "_source": ["fp"], "sort": ["_doc"]})
    while response["hits"]["hits"]:
        for hit in response["hits"]["hits"]:
            fp = hit["_source"]["fp"]
            fingerprints[hit["_id"]] = fp["fingerprint"] if isinstance(fp, dict) else fp
        response = call(URL, "POST", "/_search/scroll", {"scroll": "1m", "scroll_id": response["_scroll_id"]})
    answers = []
    for probe in probes:
        result = call(URL, "POST", f"/{INDEX}/_search", {
            "size": 100, "track_total_hits": True, "_source": False,
            "query": {"near_duplicate": {"field": "fp", "fingerprint": probe, "max_distance": 3}}})
        answers.append((result["hits"]["total"]["value"],
                        sorted((h["_id"], h["fields"]["_near_duplicate_distance"][0]) for h in result["hits"]["hits"])))
    groups = call(URL, "POST", f"/{INDEX}/_near_duplicates", {"field": "fp", "max_distance": 3, "size": 1000})
    return {"count": call(URL, "GET", f"/{INDEX}/_count")["count"], "fingerprints": fingerprints,
            "answers": answers, "groups": groups["groups"], "group_counts": groups["counts"]}


def main():
    rng = random.Random(11)
    node("start")
    try:
        call(URL, "PUT", "/_ingest/pipeline/restart-check",
             {"processors": [{"simhash": {"field": "content", "target_field": "fp"}}]})
        call(URL, "PUT", f"/{INDEX}", {"settings": {"number_of_shards": 2, "number_of_replicas": 0},
                                       "mappings": {"properties": {"fp": {"type": "simhash"}}}})
        with open(os.path.join(ROOT, "demo", "pages.json"), encoding="utf-8") as f:
            pages = json.load(f)
        lines = []
        for page in pages:
            with open(os.path.join(ROOT, "demo", "pages", page["file"]), encoding="utf-8") as f:
                lines += [json.dumps({"index": {"_index": INDEX, "_id": page["id"], "pipeline": "restart-check"}}),
                          json.dumps({"content": f.read()}, ensure_ascii=False)]
        probes = []
        for i in range(300):
            base = rng.getrandbits(64)
            probes.append(f"{base:016x}")
            for j in range(5):  # planted neighbours at distances 0..4
                fp = base
                for bit in rng.sample(range(64), j):
                    fp ^= 1 << bit
                lines += [json.dumps({"index": {"_index": INDEX, "_id": f"s{i}-{j}"}}), json.dumps({"fp": f"{fp:016x}"})]
        result = call(URL, "POST", "/_bulk?refresh=true", "\n".join(lines) + "\n", ndjson=True)
        if result["errors"]:
            sys.exit("restart check: bulk errors: " + json.dumps([i for i in result["items"] if i["index"].get("error")][:3]))
        probes = rng.sample(probes, 40) + [f"{rng.getrandbits(64):016x}" for _ in range(10)]
        before = snapshot(probes)
        print(f"[restart-check] {before['count']} documents, {len(probes)} probes, "
              f"{before['group_counts']['groups']} groups recorded; restarting the node", flush=True)
        node("restart")
        after = snapshot(probes)
        for key in ("count", "fingerprints", "answers", "groups"):
            if before[key] != after[key]:
                sys.exit(f"restart check FAILED: {key} differ after the restart")
        print(f"[restart-check] identical after the restart: {after['count']} documents, every fingerprint, "
              f"{len(probes)} near_duplicate answers and {after['group_counts']['groups']} groups", flush=True)
    finally:
        node("stop")


if __name__ == "__main__":
    main()
