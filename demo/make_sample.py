#!/usr/bin/env python3
"""Builds demo/sample/, the tiny labelled corpus scripts/quality.sh runs on when it is given none, from the demo pages.

docs.jsonl.gz: one {"id", "lang", "format", "content", "group"} per demo page (demo/pages.json, demo/pages/).
pairs.tsv: a header, then id_a<TAB>id_b<TAB>1|0<TAB>kind: every two pages of one story are near-duplicates (kind
dup:<changes>, the changes of the two versions against the original: template = re-posted under another site's
template, format = plain-text copy, edit = small edits), every two pages of different stories in the same language
are not (kind different_story). Too small to choose k from (a few hundred pairs); it shows what the report looks like
and that the tools run. Re-run after changing the demo pages: python3 demo/make_sample.py
"""
import gzip
import io
import itertools
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CHANGE = {"original": None, "repost": "template", "text": "format", "edited": "edit"}


def change(page):
    return CHANGE.get(page["id"].rsplit("-", 1)[-1])


def main():
    with open(os.path.join(HERE, "pages.json"), encoding="utf-8") as f:
        pages = json.load(f)
    out = os.path.join(HERE, "sample")
    os.makedirs(out, exist_ok=True)
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as gz:
        for page in pages:
            with open(os.path.join(HERE, "pages", page["file"]), encoding="utf-8") as f:
                content = f.read()
            doc = {"id": page["id"], "lang": page["lang"], "format": page["format"], "content": content,
                   "group": page["group"]}
            gz.write((json.dumps(doc, ensure_ascii=False) + "\n").encode("utf-8"))
    with open(os.path.join(out, "docs.jsonl.gz"), "wb") as f:
        f.write(buffer.getvalue())
    lines = ["id_a\tid_b\tlabel\tkind"]
    for a, b in itertools.combinations(pages, 2):
        if a["group"] == b["group"]:
            changes = sorted({c for c in (change(a), change(b)) if c})
            lines.append(f"{a['id']}\t{b['id']}\t1\tdup:{'+'.join(changes)}")
        elif a["lang"] == b["lang"]:
            lines.append(f"{a['id']}\t{b['id']}\t0\tdifferent_story")
    with open(os.path.join(out, "pairs.tsv"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    positives = sum(1 for line in lines[1:] if "\t1\t" in line)
    print(f"demo/sample: {len(pages)} documents, {len(lines) - 1} pairs ({positives} near-duplicate)")


if __name__ == "__main__":
    main()
