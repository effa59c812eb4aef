#!/usr/bin/env python3
"""Runs the same near-duplicate flows on two running nodes (an OpenSearch and an Elasticsearch node with the plugin)
and compares their REST answers: fingerprints and signatures of _simhash, the hits and distances of near_duplicate
queries (fingerprint, like, text, html, inside a bool filter), the rescorer, _near_duplicates groups, the values
_near_duplicates/_write writes and the near_duplicate_check outcomes. Exits 1 naming every difference.
Standard library only. Usage: compare_platforms.py --opensearch URL --elasticsearch URL"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nd_http import call  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEMO = os.path.join(HERE, "..", "demo")
INDEX = "compare-pages"
PIPELINE = "compare-fingerprint"
CHECK_PIPELINE = "compare-check"


def load_pages():
    with open(os.path.join(DEMO, "pages.json"), encoding="utf-8") as f:
        pages = json.load(f)
    for page in pages:
        with open(os.path.join(DEMO, "pages", page["file"]), encoding="utf-8") as f:
            page["content"] = f.read()
    return pages


def distance_of(hit):
    for name, values in hit.get("fields", {}).items():
        if name.startswith("_near_duplicate"):
            return values[0]
    return None


def hits(response):
    """The hits as (id, distance, score rounded) sorted as returned; ties ordered by id (shard order may differ)."""
    found = [(h["_id"], distance_of(h), round(h["_score"] or 0.0, 5)) for h in response["hits"]["hits"]]
    return {"total": response["hits"]["total"]["value"], "hits": sorted(found, key=lambda t: (-t[2], t[0]))}


def flows(url, pages):
    """Every answer worth comparing, as plain JSON-able values, keyed by what was asked."""
    answers = {}
    call(url, "PUT", f"/_ingest/pipeline/{PIPELINE}", {
        "processors": [{"simhash": {"field": "content", "target_field": "simhash", "content_type": "auto"}}]})
    call(url, "DELETE", f"/{INDEX}?ignore_unavailable=true")
    call(url, "PUT", f"/{INDEX}", {
        "settings": {"number_of_shards": 2, "number_of_replicas": 0},
        "mappings": {"properties": {"content": {"type": "text", "index": False}, "simhash": {"type": "simhash"},
                                    "group": {"type": "keyword"}, "lang": {"type": "keyword"}}}})
    lines = []
    for page in pages:
        lines.append(json.dumps({"index": {"_index": INDEX, "_id": page["id"]}}))
        lines.append(json.dumps({"content": page["content"], "group": page["group"], "lang": page["lang"]},
                                ensure_ascii=False))
    bulk = call(url, "POST", f"/_bulk?pipeline={PIPELINE}&refresh=true", "\n".join(lines) + "\n", ndjson=True)
    answers["bulk errors"] = sorted(i["index"]["_id"] for i in bulk["items"] if i["index"].get("error"))

    stored = call(url, "POST", f"/{INDEX}/_search", {"size": 100, "_source": ["simhash"]})
    answers["stored fingerprints"] = {h["_id"]: h["_source"]["simhash"] for h in stored["hits"]["hits"]}

    first = pages[0]
    answers["_simhash text"] = call(url, "POST", "/_simhash", {"text": first["content"][:5000]})
    answers["_simhash compare"] = call(url, "POST", f"/{INDEX}/_simhash", {
        "field": "simhash", "html": pages[0]["content"], "compare": {"text": pages[1]["content"]}, "top_features": 5})

    for page in pages:
        body = {"size": 50, "query": {"near_duplicate": {"field": "simhash", "like": {"_index": INDEX, "_id": page["id"]}}}}
        answers[f"like {page['id']}"] = hits(call(url, "POST", f"/{INDEX}/_search", body))
    fingerprint = answers["stored fingerprints"][first["id"]]
    fp = fingerprint["fingerprint"] if isinstance(fingerprint, dict) else fingerprint
    for k in (3, 16, 30):
        body = {"size": 50, "query": {"near_duplicate": {"field": "simhash", "fingerprint": fp, "max_distance": k}}}
        answers[f"fingerprint k={k}"] = hits(call(url, "POST", f"/{INDEX}/_search", body))
    for page in pages[:8]:
        kind = "html" if page["file"].endswith(".html") else "text"
        answers[f"{kind} probe {page['id']}"] = hits(call(url, "POST", f"/{INDEX}/_search", {
            "size": 50, "query": {"near_duplicate": {"field": "simhash", kind: page["content"]}}}))
    answers["bool filter, Discover shape"] = call(url, "POST", f"/{INDEX}/_search", {
        "size": 0, "track_total_hits": True,
        "query": {"bool": {"filter": [{"near_duplicate": {"field": "simhash", "like": {"_index": INDEX, "_id": first["id"]}}},
                                      {"term": {"lang": first["lang"]}}]}},
        "aggs": {"by_group": {"terms": {"field": "group"}}}})["aggregations"]
    answers["rescorer"] = hits(call(url, "POST", f"/{INDEX}/_search", {
        "size": 50, "query": {"match_all": {}},
        "rescore": {"window_size": 50, "near_duplicate": {"field": "simhash", "like": {"_index": INDEX, "_id": first["id"]}}}}))

    groups = call(url, "POST", f"/{INDEX}/_near_duplicates", {"field": "simhash", "size": 100})
    answers["groups"] = {"max_distance": groups["max_distance"], "counts": {
        k: v for k, v in groups["counts"].items() if k != "took"},
        "groups": [{"representative": g["representative"],
                    "members": sorted((m["_id"], m["distance"]) for m in g["members"])} for g in groups["groups"]]}
    task = call(url, "POST", f"/{INDEX}/_near_duplicates/_write?wait_for_completion=false", {"field": "simhash"})["task"]
    done = call(url, "GET", f"/_tasks/{task}?wait_for_completion=true&timeout=120s")
    answers["write"] = {k: v for k, v in done.get("response", {}).items() if k not in ("took", "took_ms")}
    call(url, "POST", f"/{INDEX}/_refresh")
    written = call(url, "POST", f"/{INDEX}/_search", {"size": 100, "_source": ["duplicate_group", "duplicate_distance"]})
    answers["written values"] = {h["_id"]: h["_source"] for h in written["hits"]["hits"]}

    call(url, "PUT", f"/_ingest/pipeline/{CHECK_PIPELINE}", {"processors": [
        {"simhash": {"field": "content", "target_field": "simhash"}},
        {"near_duplicate_check": {"field": "simhash", "index": INDEX, "on_duplicate": "tag",
                                  "result_field": "near_duplicate"}}]})
    docs = [{"_source": {"content": p["content"]}} for p in pages[:6]]
    docs.append({"_source": {"content": "A text that no demo page contains: " + "unrelated words " * 40}})
    simulated = call(url, "POST", f"/_ingest/pipeline/{CHECK_PIPELINE}/_simulate", {"docs": docs})
    answers["check outcomes"] = [d["doc"]["_source"].get("near_duplicate") for d in simulated["docs"]]
    return answers


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--opensearch", required=True)
    parser.add_argument("--elasticsearch", required=True)
    args = parser.parse_args()
    pages = load_pages()
    left = flows(args.opensearch, pages)
    right = flows(args.elasticsearch, pages)
    differences = [key for key in left if left[key] != right.get(key)]
    for key in differences:
        print(f"DIFFERENT: {key}\n  opensearch:    {json.dumps(left[key])[:600]}\n"
              f"  elasticsearch: {json.dumps(right.get(key))[:600]}")
    print(f"compared {len(left)} answers on {len(pages)} pages: {len(left) - len(differences)} identical,"
          f" {len(differences)} different")
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
