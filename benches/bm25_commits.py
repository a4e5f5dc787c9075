#!/usr/bin/env python3
"""BM25 over every file of a commit's tree: the baseline a task question is measured
against (docs/tuning.md). For each case of `findbench corpus commits` corpora (a commit's
subject or message asked over the tree before it; the files it changed expected), every
file of the tree at the case's revision is ranked by Okapi BM25 (k1 1.2, b 0.75) of the
question's words, and hit@1, hit@5 and MRR are printed per corpus and pooled. With
`--findbench RUN_DIR` (a `findbench run` of the same corpora), findbench's figures from
its `cases.jsonl` are printed beside them.

Usage: python3 benches/bm25_commits.py CORPUS.yaml... [--findbench RUN_DIR]
Needs PyYAML and git. Words: runs of letters and digits, lower-cased, identifiers also cut
at CamelCase humps and underscores; a file's words are its path's and its text's (files
over 1 MiB or holding a NUL byte are left out, as binary).
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
from collections import Counter

import yaml

K1, B = 1.2, 0.75
MAX_BYTES = 1 << 20
WORD = re.compile(r"[A-Za-z0-9]+")
HUMP = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def words(text):
    out = []
    for w in WORD.findall(text):
        low = w.lower()
        out.append(low)
        parts = HUMP.findall(w)
        if len(parts) > 1:
            out.extend(p.lower() for p in parts)
    return [w for w in out if len(w) > 1]


def tree_at(git_dir, rev):
    """Every text file of the tree at `rev`: path -> its words."""
    names = subprocess.run(["git", "-C", git_dir, "ls-tree", "-r", "-z", "--name-only", rev],
                           capture_output=True, check=True).stdout.split(b"\0")
    names = [n.decode("utf-8", "replace") for n in names if n]
    batch = subprocess.run(["git", "-C", git_dir, "cat-file", "--batch"],
                           input="".join(f"{rev}:{n}\n" for n in names).encode(),
                           capture_output=True, check=True).stdout
    files, at = {}, 0
    for name in names:
        end = batch.index(b"\n", at)
        header = batch[at:end].split()
        at = end + 1
        if len(header) < 3 or header[1] != b"blob":
            continue
        size = int(header[2])
        body = batch[at:at + size]
        at += size + 1
        if size > MAX_BYTES or b"\0" in body:
            continue
        files[name] = Counter(words(name) + words(body.decode("utf-8", "replace")))
    return files


def bm25_ranking(files, question):
    n = len(files)
    lengths = {p: sum(c.values()) for p, c in files.items()}
    avg = sum(lengths.values()) / max(n, 1)
    terms = set(words(question))
    df = {t: sum(1 for c in files.values() if t in c) for t in terms}
    scores = {}
    for path, counts in files.items():
        s = 0.0
        for t in terms:
            tf = counts.get(t, 0)
            if tf:
                idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
                s += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * lengths[path] / avg))
        if s > 0:
            scores[path] = s
    return sorted(scores, key=lambda p: (-scores[p], p))


def first_hit(ranked, expected):
    for i, path in enumerate(ranked):
        if path in expected:
            return i + 1
    return None


def figures(ranks):
    n = len(ranks)
    return (100 * sum(1 for r in ranks if r == 1) / n, 100 * sum(1 for r in ranks if r and r <= 5) / n,
            sum(1 / r for r in ranks if r) / n)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpora", nargs="+")
    ap.add_argument("--findbench", help="a `findbench run` directory of the same corpora")
    args = ap.parse_args()
    ours = {}
    if args.findbench:
        with open(os.path.join(args.findbench, "cases.jsonl")) as h:
            for line in h:
                c = json.loads(line)
                ours[(c["suite"], c["id"])] = c.get("rank")
    trees = {}
    rows, pooled_bm25, pooled_ours = [], [], []
    for corpus in args.corpora:
        with open(corpus) as h:
            doc = yaml.safe_load(h)
        base = os.path.dirname(os.path.abspath(corpus))
        suite, ranks, theirs = doc["suite"], [], []
        for case in doc["cases"]:
            fixture = case.get("fixture") or doc["fixture"]
            git_dir = os.path.normpath(os.path.join(base, fixture["git"]))
            key = (git_dir, fixture["rev"])
            if key not in trees:
                trees[key] = tree_at(*key)
            expected = set(case["expect"].get("contains") or [case["expect"]["top"]])
            ranks.append(first_hit(bm25_ranking(trees[key], case["query"]), expected))
            if (suite, case["id"]) in ours:
                theirs.append(ours[(suite, case["id"])])
        pooled_bm25 += ranks
        pooled_ours += theirs
        rows.append((suite, len(ranks), figures(ranks), figures(theirs) if theirs else None))
    rows.append(("pooled", len(pooled_bm25), figures(pooled_bm25),
                 figures(pooled_ours) if pooled_ours else None))
    print("| corpus | cases | BM25 hit@1 | BM25 hit@5 | BM25 MRR | findbench hit@1 | findbench hit@5 | findbench MRR |")
    print("|---|---|---|---|---|---|---|---|")
    for suite, n, (h1, h5, mrr), fb in rows:
        fb_cells = f"{fb[0]:.0f} % | {fb[1]:.0f} % | {fb[2]:.3f}" if fb else "– | – | –"
        print(f"| {suite} | {n} | {h1:.0f} % | {h5:.0f} % | {mrr:.3f} | {fb_cells} |")


if __name__ == "__main__":
    sys.exit(main())
