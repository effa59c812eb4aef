#!/usr/bin/env python3
"""Offline replay of the corpus part of bench/scale_quality.py (issue 25 item 3 and its scale test), without a node.

Reads the default's sketches of the public corpus as ResidualStudy --dump writes them (docs.tsv: id, fingerprint,
signature; pairs.tsv: every pair within k = 16 with its agreeing slots) and the corpus labels (docs.jsonl.gz), and
replays what the node computed on the corpus documents (the 100,000 fillers of the node run matched nothing, so they
are left out):

  (a) `_near_duplicates` in the default mode (representative: a component of the verified graph, its documents in
      _id order, the first unassigned one a representative that takes every unassigned document of the component that
      matches it; then every other document joins the representative it matches most closely), in `mode: components`
      and in the default mode without that second step (the default until 2026-11-28); the largest groups with the labels of their members;
  (b) `near_duplicate` queries `like` each corpus document (k 16, the default's agreeing slots): every hit of another labelled
      base, classified: a heavy-edit negative of the probe's base (or the probe one of the hit's base, or both heavy
      edits of one base), else unrelated; with the 300 probes of the node run (seed 25) and with every document.

usage: bench/scale_offline.py DUMP_DIR [--corpus DIR] [--out FILE] [--min-agreeing N]
  DUMP_DIR: DIR/default (or DIR/repeated-groups-3, ...) after scripts/residual.sh --dump DIR
"""
import argparse
import collections
import gzip
import json
import os
import random
import sys

K = 16
# simhash-v5's default min_similarity 0.4 (SimHashSettings.V5_MIN_SIMILARITY) is 13 of 32 slots; simhash-v4's 0.35 is 12
MIN_AGREEING = 13


def load_labels(corpus):
    meta, order = {}, []
    with gzip.open(os.path.join(corpus, "docs.jsonl.gz"), "rt", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            params = d.get("params") or {}
            meta[d["id"]] = {"lang": d["lang"], "format": d["format"], "base": d.get("group") or d["id"],
                             "derived_from": d.get("derived_from"), "transform": d.get("transform"),
                             "source": d.get("source"), "site": params.get("site") if isinstance(params, dict) else None}
            order.append(d["id"])
    # labelled translations (the English and the Chinese versions of one page), between families: a hard negative
    for m in meta.values():
        m["family"] = m["derived_from"] or m["base"]
    translations = set()
    with gzip.open(os.path.join(corpus, "pairs.tsv.gz"), "rt", encoding="utf-8") as f:
        next(f)
        for line in f:
            cells = line.rstrip("\n").split("\t")
            if len(cells) > 3 and cells[3] == "translation" and cells[0] in meta and cells[1] in meta:
                translations.add(frozenset((meta[cells[0]]["family"], meta[cells[1]]["family"])))
    for m in meta.values():
        m["translations"] = translations
    return meta, order


def load_dump(directory):
    valid, features = set(), {}
    with open(os.path.join(directory, "docs.tsv"), encoding="utf-8") as f:
        next(f)
        for line in f:
            cells = line.rstrip("\n").split("\t")
            if cells[1]:
                valid.add(cells[0])
                features[cells[0]] = int(cells[3])
    edges = collections.defaultdict(set)
    closeness = {}
    with open(os.path.join(directory, "pairs.tsv"), encoding="utf-8") as f:
        next(f)
        for line in f:
            a, b, d, agreeing = line.rstrip("\n").split("\t")
            if int(d) <= K and int(agreeing) >= MIN_AGREEING:
                edges[a].add(b)
                edges[b].add(a)
                closeness[(a, b)] = closeness[(b, a)] = (-int(agreeing), int(d))
    return valid, edges, features, closeness


def components(ids, edges):
    parent = {i: i for i in ids}

    def root(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, bs in edges.items():
        for b in bs:
            ra, rb = root(a), root(b)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)
    comps = collections.defaultdict(list)
    for i in ids:
        comps[root(i)].append(i)
    return [sorted(c) for c in comps.values() if len(c) > 1]


def first_taker_groups(comps, edges):
    """The default mode until 2026-11-28: in _id order, the first unassigned document takes every unassigned one it matches."""
    groups = []
    for comp in comps:
        assigned = set()
        for r in comp:
            if r in assigned:
                continue
            assigned.add(r)
            members = [r] + [m for m in comp if m not in assigned and m in edges[r]]
            assigned.update(members)
            if len(members) > 1:
                groups.append(members)
    return groups


def representative_groups(comps, edges, closeness):
    """The default mode (GroupMembers.Mode.REPRESENTATIVE): the representatives of first_taker_groups, then every other
    document joins the representative it matches most closely (most agreeing slots, smallest distance, earliest)."""
    groups = []
    for comp in comps:
        assigned, reps = set(), []
        for r in comp:
            if r in assigned:
                continue
            assigned.add(r)
            reps.append(r)
            assigned.update(m for m in comp if m in edges[r])
        members = {r: [r] for r in reps}
        rep_set = set(reps)
        for m in comp:
            if m not in rep_set:
                closest = min((closeness[(m, r)], i) for i, r in enumerate(reps) if r in edges[m])[1]
                members[reps[closest]].append(m)
        groups.extend(g for g in members.values() if len(g) > 1)
    return groups


def kind(meta, probe, hit):
    p, h = meta[probe], meta[hit]
    if h["derived_from"] == p["base"]:
        return "heavy edit of the probe's base"
    if p["derived_from"] is not None and p["derived_from"] == h["base"]:
        return "probe is a heavy edit of the hit's base"
    if p["derived_from"] is not None and p["derived_from"] == h["derived_from"]:
        return "two heavy edits of one base"
    if frozenset((p["family"], h["family"])) in p["translations"]:
        return "translation of the probe's page"
    if p["site"] and p["site"] == h["site"]:
        return "unrelated, same synthetic site"
    return "unrelated, other"


def describe(meta, i):
    m = meta[i]
    return (f"`{i}` base `{m['base']}`" + (f" (heavy edit of `{m['derived_from']}`)" if m["derived_from"] else "")
            + f", {m['lang']} {m['format']}, {m['transform']}, {m['source']}" + (f", site {m['site']}" if m["site"] else ""))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dump")
    parser.add_argument("--corpus", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "eval", "public"))
    parser.add_argument("--out")
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--algorithm", default="simhash-v5", help="the algorithm the dump was made with (the header names it)")
    parser.add_argument("--min-agreeing", type=int, default=MIN_AGREEING,
                        help="signature slots a match needs (default 13: simhash-v5's min_similarity 0.4; 12 is 0.35)")
    args = parser.parse_args()
    globals()["MIN_AGREEING"] = args.min_agreeing
    meta, order = load_labels(args.corpus)
    valid, edges, features, closeness = load_dump(args.dump)
    indexed = [i for i in order if i in valid]
    lines = []
    w = lines.append
    w("# Offline replay of the scale test's corpus part (%s defaults, k = 16, %d of 32 slots)\n" % (args.algorithm, MIN_AGREEING))
    w("Generated by `bench/scale_offline.py` from `scripts/residual.sh --dump DIR` (ResidualStudy; no node); do not edit "
      "by hand.\n")
    w("```sh\nscripts/residual.sh --dump DIR\nbench/scale_offline.py " + " ".join(
        "DIR/" + os.path.basename(os.path.normpath(a)) if a == args.dump else a for a in sys.argv[1:]) + "\n```\n")
    w(f"Corpus: {len(order):,} documents, {len(indexed):,} with a fingerprint (the others are not indexed by the "
      f"pipeline either); verified pairs among them: {sum(len(v) for v in edges.values()) // 2:,}.\n")
    comps = components(indexed, edges)
    reps = representative_groups(comps, edges, closeness)
    first_taker = first_taker_groups(comps, edges)
    labelled = collections.Counter(meta[i]["base"] for i in indexed)
    w("## Labelled positive pairs\n")
    found, total = collections.Counter(), collections.Counter()
    with gzip.open(os.path.join(args.corpus, "pairs.tsv.gz"), "rt", encoding="utf-8") as f:
        next(f)
        for line in f:
            a, b, label = line.rstrip("\n").split("\t")[:3]
            if label != "1":
                continue
            lang = meta[a]["lang"] if meta[a]["lang"] == meta[b]["lang"] else "cross"
            for key in ("all", lang):
                total[key] += 1
                found[key] += b in edges.get(a, ())
    w("| slice | recall (pairs matched / labelled) |")
    w("| --- | --- |")
    for key in sorted(total):
        w(f"| {key} | {found[key] / total[key]:.4f} ({found[key]:,} / {total[key]:,}) |")
    w("")
    w("## (a) Groups\n")
    w("| mode | groups | documents in groups | largest | largest labelled group |")
    w("| --- | --- | --- | --- | --- |")
    for name, gs in (("default (representative)", reps), ("components", comps),
                     ("representative without the second step (the default until 2026-11-28)", first_taker)):
        w(f"| {name} | {len(gs):,} | {sum(map(len, gs)):,} | {max(map(len, gs))} (`{max(gs, key=len)[0]}`) | "
          f"{labelled.most_common(1)[0][1]} |")
    w("")
    big = sorted((g for g in reps if len(g) > labelled.most_common(1)[0][1]), key=len, reverse=True)
    w(f"Default-mode groups larger than the largest labelled group: {len(big)}.\n")
    for g in big[:5]:
        bases = collections.Counter(meta[m]["derived_from"] or meta[m]["base"] for m in g)
        labels = collections.Counter(meta[m]["base"] for m in g)
        w(f"Group of {len(g)}, representative `{g[0]}`: {len(labels)} labelled bases "
          f"({', '.join(f'`{b}` x {c}' for b, c in labels.most_common())}); counting a heavy edit with the base it was "
          f"made from: {len(bases)} ({', '.join(f'`{b}` x {c}' for b, c in bases.most_common())}).\n")
        for m in g:
            w(f"- {describe(meta, m)}")
        w("")
    for name, gs in (("Default-mode", reps), ("Without the second step, default-mode", first_taker)):
        oversize = collections.Counter()
        for g in gs:
            labels = {meta[m]["base"] for m in g}
            roots = {meta[m]["derived_from"] or meta[m]["base"] for m in g}
            if len(labels) > 1:
                oversize["mixed labelled bases"] += 1
                oversize["of them one base once heavy edits count with their base" if len(roots) == 1 else
                         "of them two or more bases even so"] += 1
        w(f"{name} groups mixing labelled bases: " + ", ".join(f"{k} {v}" for k, v in oversize.items()) + ".\n")
    w("## (b) False hits of `near_duplicate` queries\n")
    w("Every hit of another labelled base (`group`), as bench/scale_quality.py counted false hits before 2026-11-25, "
      "classified: heavy-edit negatives made from the same base and labelled translations of the probe's page (the "
      "other language's version of the same page; labelled hard negatives, not unrelated documents), and "
      "the rest: unrelated (another base document even when heavy edits count with their base: the false hits by the "
      "offline tools' and now scale_quality.py's definition).\n")
    rng = random.Random(f"{args.seed}:probes")
    probes300 = rng.sample(indexed, min(args.queries, len(indexed)))
    w("| probes | probes | false hits | per query | heavy-edit related or translation | unrelated | unrelated per query | probes with an unrelated hit |")
    w("| --- | --- | --- | --- | --- | --- | --- | --- |")
    details = []
    for name, probes in ((f"the node run's {len(probes300)} (seed {args.seed})", probes300), ("every corpus document", indexed)):
        kinds = collections.Counter()
        with_unrelated = 0
        for p in probes:
            false = [h for h in sorted(edges.get(p, ())) if meta[h]["base"] != meta[p]["base"]]
            ks = [kind(meta, p, h) for h in false]
            kinds.update(ks)
            with_unrelated += any(k.startswith("unrelated") for k in ks)
            if probes is probes300:
                details.extend((p, h, kind(meta, p, h)) for h in false)
        total = sum(kinds.values())
        unrelated = sum(v for k, v in kinds.items() if k.startswith("unrelated"))
        w(f"| {name} | {len(probes):,} | {total} | {total / len(probes):.3f} | {total - unrelated} | {unrelated} | "
          f"{unrelated / len(probes):.4f} | {with_unrelated} |")
        details_kinds = ", ".join(f"{k}: {v}" for k, v in sorted(kinds.items()))
        w(f"|  | kinds | {details_kinds} | | | | | |")
    w("")
    w(f"The false hits of the node run's probes, one by one:\n")
    for p, h, k in details:
        w(f"- {k}: probe {describe(meta, p)}; hit {describe(meta, h)}")
    w("")
    w("## (c) The residual: unrelated pairs that match\n")
    w("Pairs of documents of different families (another base document; a heavy-edit negative counts with its base) "
      "that match, by what their documents share.\n")
    pairs = set()
    for a, bs in edges.items():
        for b in bs:
            if a < b and (meta[a]["derived_from"] or meta[a]["base"]) != (meta[b]["derived_from"] or meta[b]["base"]):
                pairs.add((a, b))
    same_lang = [p for p in pairs if meta[p[0]]["lang"] == meta[p[1]]["lang"]]
    by = collections.Counter()
    for a, b in same_lang:
        ma, mb = meta[a], meta[b]
        src = ma["source"] if ma["source"] == mb["source"] else f"{ma['source']} / {mb['source']}"
        site = "same synthetic site" if ma["site"] and ma["site"] == mb["site"] else (
            "different sites" if ma["site"] and mb["site"] else "no synthetic site on one side or both")
        by[(ma["lang"], src, site)] += 1
    w(f"{len(pairs)} pairs, {len(same_lang)} of the same language "
      f"({len({tuple(sorted((meta[a]['derived_from'] or meta[a]['base'], meta[b]['derived_from'] or meta[b]['base']))) for a, b in same_lang})} base pairs).\n")
    formats = collections.Counter(" and ".join(sorted((meta[a]["format"], meta[b]["format"]))) for a, b in same_lang)
    counts = sorted(features[x] for p in same_lang for x in p)
    if counts:
        w("Formats: " + ", ".join(f"{k} {v}" for k, v in sorted(formats.items())) + f". Distinct features of their "
          f"documents: {counts[0]} to {counts[-1]}, median {counts[len(counts) // 2]}.\n")
    w("| language | source | template | pairs |")
    w("| --- | --- | --- | --- |")
    for (lang, src, site), n in sorted(by.items(), key=lambda kv: (-kv[1], kv[0])):
        w(f"| {lang} | {src} | {site} | {n} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    main()
