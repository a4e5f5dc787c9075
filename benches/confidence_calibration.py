#!/usr/bin/env python3
"""How well `ask`'s confidence is calibrated: of the answers given at confidence c, how
many select a right file. Reads the work directory `benches/peer_commits.sh` kept
(WORK=dir): its corpora (each case's question, `{git, rev}` fixture and the files the commit
changed) and the trees it extracted; asks every question again with `findbench ask` and
buckets the answers by their confidence, whatever their outcome.

Usage: benches/confidence_calibration.py WORK_DIR [--findbench BIN]
"""
import json
import os
import re
import subprocess
import sys


def cases(work):
    """(question, rev, expected files) of every case of the corpora."""
    out = []
    for name in sorted(os.listdir(os.path.join(work, "corpora"))):
        case = None
        for line in open(os.path.join(work, "corpora", name), encoding="utf-8"):
            m = re.match(r"  - id: (\S+)", line)
            if m:
                case = {"expected": []}
                out.append(case)
            m = re.match(r"    query: (.*)", line)
            if m and case is not None:
                case["query"] = json.loads(m.group(1)) if m.group(1).startswith('"') else m.group(1)
            m = re.match(r'    fixture: \{git: "(.*)", rev: (\w+)\}', line)
            if m and case is not None:
                case["rev"] = m.group(2)
            m = re.match(r"      contains: \[(.*)\]", line)
            if m and case is not None:
                case["expected"] = [json.loads(x.strip()) for x in m.group(1).split(",") if x.strip()]
    return [c for c in out if "query" in c and "rev" in c]


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    work = args[0]
    fb = "target/release/findbench"
    if "--findbench" in args:
        fb = args[args.index("--findbench") + 1]
    env = dict(os.environ, FINDBENCH_CACHE=os.path.join(work, "cache"), FINDBENCH_NO_BACKGROUND_INDEX="1")
    edges = [0.0, 0.25, 0.5, 0.75, 1.0001]
    buckets = [[0, 0, 0] for _ in edges[:-1]]  # answers, right, success outcome
    for c in cases(work):
        tree = os.path.join(work, "trees", c["rev"])
        if not os.path.isdir(tree):
            continue
        run = subprocess.run([fb, "ask", c["query"], "--root", tree], capture_output=True, text=True, env=env)
        try:
            answer = json.loads(run.stdout)
        except json.JSONDecodeError:
            continue
        confidence = answer.get("confidence", 0.0)
        top = (answer.get("matches") or [{}])[0].get("path")
        right = top in c["expected"]
        for i in range(len(edges) - 1):
            if edges[i] <= confidence < edges[i + 1]:
                buckets[i][0] += 1
                buckets[i][1] += int(right)
                buckets[i][2] += int(answer.get("outcome") == "success")
    print("| confidence | answers | top file right | share right | outcome success |")
    print("|---|---|---|---|---|")
    for i, (n, right, success) in enumerate(buckets):
        share = f"{100 * right / n:.0f} %" if n else "-"
        hi = min(edges[i + 1], 1.0)
        print(f"| {edges[i]:.2f}–{hi:.2f} | {n} | {right} | {share} | {success} |")


if __name__ == "__main__":
    main()
