#!/usr/bin/env python3
"""The demo's main job against a running node: fingerprint the demo pages through a `simhash` ingest pipeline,
find near-duplicate groups with `near_duplicate` queries, and show one query with its distances.
Standard library only. Usage: demo.py [--url http://127.0.0.1:9200] [--max-distance K]"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from nd_http import call  # noqa: E402  (the scripts' one HTTP helper: an HTTP error exits with its status and body)

INDEX = "demo-pages"
PIPELINE = "near-duplicate-demo"
HERE = os.path.dirname(os.path.abspath(__file__))


def step(message):
    print(f"==> {message}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", default="http://127.0.0.1:9200")
    parser.add_argument("--max-distance", type=int, default=None,
                        help="k; default: the recommended k of the field's algorithm (15 for simhash-v3)")
    args = parser.parse_args()
    url = args.url

    with open(os.path.join(HERE, "pages.json"), encoding="utf-8") as f:
        pages = json.load(f)

    step(f"creating ingest pipeline [{PIPELINE}] with the simhash processor")
    call(url, "PUT", f"/_ingest/pipeline/{PIPELINE}", {
        "description": "fingerprint the page's main content",
        "processors": [{"simhash": {"field": "content", "target_field": "simhash", "content_type": "auto"}}],
    })

    step(f"creating index [{INDEX}] with a default simhash field (exact for any k up to 16; 2 shards)")
    call(url, "DELETE", f"/{INDEX}?ignore_unavailable=true")
    call(url, "PUT", f"/{INDEX}", {
        "settings": {"number_of_shards": 2, "number_of_replicas": 0},
        "mappings": {"properties": {
            "content": {"type": "text", "index": False},
            "simhash": {"type": "simhash"},
            "group": {"type": "keyword"},
            "variant": {"type": "keyword"},
            "lang": {"type": "keyword"},
        }},
    })

    step(f"indexing {len(pages)} demo pages through the pipeline")
    lines = []
    for page in pages:
        with open(os.path.join(HERE, "pages", page["file"]), encoding="utf-8") as f:
            content = f.read()
        lines.append(json.dumps({"index": {"_index": INDEX, "_id": page["id"]}}))
        lines.append(json.dumps({"content": content, "group": page["group"], "variant": page["variant"],
                                 "lang": page["lang"]}, ensure_ascii=False))
    result = call(url, "POST", f"/_bulk?pipeline={PIPELINE}&refresh=true", "\n".join(lines) + "\n", ndjson=True)
    failed = [item["index"] for item in result["items"] if item["index"].get("error")]
    if failed:
        sys.exit(f"error: {len(failed)} pages failed: {json.dumps(failed[:3])}")
    print(f"    indexed {len(result['items'])} pages in {result['took']} ms")

    given = {} if args.max_distance is None else {"max_distance": args.max_distance}
    step("finding near-duplicate groups with the _near_duplicates API"
         + (f" (max_distance {args.max_distance})" if given else " (default max_distance)"))
    by_id = {p["id"]: p for p in pages}
    response = call(url, "POST", f"/{INDEX}/_near_duplicates", {"field": "simhash", "size": 100, **given})
    k = response["max_distance"]
    counts = response["counts"]
    print(f"    scanned {counts['docs_scanned']} pages, {counts['candidate_pairs']} candidate pairs compared,"
          f" {counts['verified_pairs']} verified within {k} bits, {counts['groups']} groups, in {response['took']} ms")
    grouped = set()
    for number, group in enumerate(response["groups"], start=1):
        print(f"    group {number}: {group['size']} pages (representative {group['representative']})")
        for member in group["members"]:
            grouped.add(member["_id"])
            print(f"      {member['_id']:<32} distance {member['distance']:>2}  {by_id[member['_id']]['variant']}")
    # a page whose article has other versions in the demo is a near-duplicate the fingerprints missed at this k;
    # a page that is the only one of its article has none to find
    family_size = {}
    for p in pages:
        family_size[p["group"]] = family_size.get(p["group"], 0) + 1
    singles = sorted(p["id"] for p in pages if p["id"] not in grouped)
    missed = [i for i in singles if family_size[by_id[i]["group"]] > 1]
    unique = [i for i in singles if family_size[by_id[i]["group"]] == 1]
    print(f"    {len(unique)} pages with no other version in the demo (correctly alone): {', '.join(unique) or '-'}")
    print(f"    {len(missed)} versions missed at k = {k} (their article has other versions; a larger k or MinHash finds"
          f" more, see README's quality table): {', '.join(missed) or '-'}")
    mixed = [g["representative"] for g in response["groups"]
             if len({by_id[m["_id"]]["group"] for m in g["members"]}) > 1]
    print(f"    groups mixing different source articles: {len(mixed)}")

    step("writing the groups into the pages (_near_duplicates/_write, a background task), then collapsing on them")
    task = call(url, "POST", f"/{INDEX}/_near_duplicates/_write?wait_for_completion=false",
                {"field": "simhash", **given})["task"]
    done = call(url, "GET", f"/_tasks/{task}?wait_for_completion=true&timeout=120s")
    if "error" in done or not done.get("completed"):
        sys.exit(f"error: the write-back task did not complete: {json.dumps(done)[:500]}")
    written = done["response"]
    print(f"    task {task}: {written['written']} pages written ({written['noops']} unchanged), duplicate_group ="
          f" the group's representative, duplicate_distance = the distance to it")
    call(url, "POST", f"/{INDEX}/_refresh")
    collapsed = call(url, "POST", f"/{INDEX}/_search", {
        "size": 100, "_source": False, "query": {"exists": {"field": "duplicate_group"}},
        "collapse": {"field": "duplicate_group"}})
    shown = len(collapsed["hits"]["hits"])
    alone = len(pages) - written["docs_in_groups"]
    print(f"    collapse on duplicate_group: {shown} pages stand for the {written['docs_in_groups']} grouped ones;"
          f" with the {alone} pages in no group, {shown + alone} distinct articles out of {len(pages)} pages")

    probe = "harbor-bridge-edited"
    step(f"one near_duplicate query: pages within {k} bits of [{probe}], closest first")
    body = {"size": 10, "_source": ["variant"],
            "query": {"near_duplicate": {"field": "simhash", "like": {"_index": INDEX, "_id": probe},
                                         "max_distance": k}}}
    print("    POST /" + INDEX + "/_search " + json.dumps(body))
    response = call(url, "POST", f"/{INDEX}/_search", body)
    print(f"    {response['hits']['total']['value']} hits in {response['took']} ms")
    for hit in response["hits"]["hits"]:
        print(f"      distance {distance_of(hit):>2}  score {hit['_score']:.3f}  {hit['_id']:<28} {hit['_source']['variant']}")


def distance_of(hit):
    for name, values in hit.get("fields", {}).items():
        if name.startswith("_near_duplicate"):
            return values[0]
    return None


if __name__ == "__main__":
    main()
