#!/usr/bin/env python3
"""Fits `ask`'s confidence calibration (`planner.calibration` of the profile,
engine/src/profile/calibration.rs) on questions with known answers from training projects,
and reports how well it holds on held-out projects.

Questions: each project's commit subjects (the work directory `benches/peer_commits.sh`
kept with WORK=dir: its corpora and the trees before each commit; the answer must name a
file the commit changed) and its symbol questions (`findbench corpus symbols` over one of
those trees, asked in its three phrasings; the answer must name the defining file).

Each question is asked with `findbench ask`; an answer is right when its file (the selected
file, else its first candidate) is an expected one. Answers are split by how their file was
found (`ranked`: by the `rank` tool from a task's words; `named`: by `find` or `grep` from
the question's term), and for each kind an isotonic (pool-adjacent-violators) fit maps the
answer's `held_share` to the share right, with at least MIN_BLOCK answers a step.

Prints the fitted maps as the profile's JSON, and for the training and the held-out
answers a reliability table (answers by confidence, share right), the expected calibration
error (ECE: the answers' mean gap between confidence and share right, by bucket) and the
Brier score, for three confidences: the raw held share, the new fit, and the `confidence`
the binary answered with (the profile it ships).

Usage: benches/fit_calibration.py [--findbench BIN] [--symbols N] [--min-block K]
                                  --train WORK... --held WORK...
"""
import json
import os
import re
import subprocess
import sys

BUCKETS = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0001]


def commit_cases(work):
    """(project, question, tree, expected files, phrasing) of each commit case."""
    out = []
    for name in sorted(os.listdir(os.path.join(work, "corpora"))):
        case = None
        for line in open(os.path.join(work, "corpora", name), encoding="utf-8"):
            m = re.match(r"  - id: (\S+)", line)
            if m:
                case = {"expected": [], "project": name[: -len(".yaml")], "phrasing": "commit"}
                out.append(case)
            m = re.match(r"    query: (.*)", line)
            if m and case is not None:
                q = m.group(1)
                case["query"] = json.loads(q) if q.startswith('"') else q
            m = re.match(r'    fixture: \{git: "(.*)", rev: (\w+)\}', line)
            if m and case is not None:
                case["tree"] = os.path.join(work, "trees", m.group(2))
            m = re.match(r"      contains: \[(.*)\]", line)
            if m and case is not None:
                case["expected"] = [json.loads(x.strip()) for x in m.group(1).split(",") if x.strip()]
    return [c for c in out if "query" in c and "tree" in c and os.path.isdir(c["tree"])]


def symbol_cases(work, fb, per_tree, env):
    """The `ask` cases of a symbols corpus over the first tree of each project."""
    out = []
    first_tree = {}
    for c in commit_cases(work):
        first_tree.setdefault(c["project"], c["tree"])
    os.makedirs(os.path.join(work, "symbols"), exist_ok=True)
    for project, tree in sorted(first_tree.items()):
        corpus = os.path.join(work, "symbols", f"{project}.yaml")
        if not os.path.exists(corpus):
            subprocess.run([fb, "corpus", "symbols", "--root", tree, "--out", corpus,
                            "--per-tree", str(per_tree)], check=True, env=env,
                           stdout=subprocess.DEVNULL)
        for line in open(corpus, encoding="utf-8"):
            line = line.strip()
            if not line.startswith("- {"):
                continue
            case = json.loads(line[2:])
            if case.get("mode") != "ask":
                continue
            out.append({"project": project, "query": case["query"], "tree": tree,
                        "expected": case["expect"].get("contains") or [case["expect"]["top"]],
                        "phrasing": "symbol"})
    return out


def answers(work, fb, per_tree):
    """Every question of the work directory asked, with what the answer says (kept in
    WORK/answers.jsonl for the binary it was asked with, so a refit asks nothing)."""
    env = dict(os.environ, FINDBENCH_CACHE=os.path.join(work, "cache"),
               FINDBENCH_NO_BACKGROUND_INDEX="1")
    kept = os.path.join(work, "answers.jsonl")
    stamp = f"{os.path.realpath(fb)}:{os.path.getmtime(fb)}:{per_tree}"
    if os.path.exists(kept):
        lines = open(kept, encoding="utf-8").read().splitlines()
        if lines and json.loads(lines[0]).get("stamp") == stamp:
            return [json.loads(x) for x in lines[1:]]
    rows = []
    for c in commit_cases(work) + symbol_cases(work, fb, per_tree, env):
        run = subprocess.run([fb, "ask", c["query"], "--root", c["tree"], "--format", "json"],
                             capture_output=True, text=True, env=env)
        try:
            a = json.loads(run.stdout)
        except json.JSONDecodeError:
            print(f"no answer to {c['query']!r}: {run.stderr.strip()[:200]}", file=sys.stderr)
            continue
        matches = a.get("matches") or []
        file = a.get("selected") or (matches[0]["path"] if matches else None)
        rows.append({
            "project": c["project"], "phrasing": c["phrasing"], "query": c["query"],
            "kind": "ranked" if matches and matches[0]["reason"].startswith("rank:") else "named",
            "held_share": a.get("held_share", a.get("confidence", 0.0)),
            "confidence": a.get("confidence", 0.0),
            "outcome": a.get("outcome"),
            "scores": [m["score"] for m in matches[:2]],
            "right": file in c["expected"],
        })
    tmp = kept + ".partial"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(json.dumps({"stamp": stamp}) + "\n")
        for r in rows:
            f.write(json.dumps(r) + "\n")
    os.replace(tmp, kept)
    return rows


def isotonic(points, min_block):
    """Pool adjacent violators over (x, y) sorted by x, then pool blocks of fewer than
    `min_block` points with a neighbour; returns [x mean, y mean] a block."""
    by_share = {}
    for x, y in points:
        by_share.setdefault(x, []).append(y)
    blocks = []  # [sum x, sum y, n]; answers at one share are one block from the start
    for x in sorted(by_share):
        ys = by_share[x]
        blocks.append([x * len(ys), sum(ys), len(ys)])
        while len(blocks) > 1 and blocks[-2][1] / blocks[-2][2] >= blocks[-1][1] / blocks[-1][2]:
            sx, sy, n = blocks.pop()
            blocks[-1][0] += sx
            blocks[-1][1] += sy
            blocks[-1][2] += n
    i = 0
    while len(blocks) > 1 and i < len(blocks):
        if blocks[i][2] < min_block:
            j = i + 1 if i + 1 < len(blocks) else i - 1
            a, b = min(i, j), max(i, j)
            blocks[a] = [blocks[a][k] + blocks[b][k] for k in range(3)]
            del blocks[b]
            i = 0
        else:
            i += 1
    fitted = []
    for sx, sy, n in blocks:
        x, y = round(sx / n, 3), round(sy / n, 3)
        if fitted and x <= fitted[-1][0]:
            continue
        fitted.append([x, max(y, fitted[-1][1]) if fitted else y])
    return fitted


def read_map(points, x):
    if not points:
        return x
    if x <= points[0][0]:
        return points[0][1]
    if x >= points[-1][0]:
        return points[-1][1]
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        if x0 <= x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return points[-1][1]


def scores(rows, confidence_of):
    """(ECE, Brier, reliability buckets [answers, right, sum of confidence]) of `rows`."""
    buckets = [[0, 0, 0.0] for _ in BUCKETS[:-1]]
    brier = 0.0
    for r in rows:
        c = confidence_of(r)
        brier += (c - float(r["right"])) ** 2
        for i in range(len(BUCKETS) - 1):
            if BUCKETS[i] <= c < BUCKETS[i + 1]:
                buckets[i][0] += 1
                buckets[i][1] += int(r["right"])
                buckets[i][2] += c
    n = max(len(rows), 1)
    ece = sum(abs(s - right) for k, right, s in buckets if k) / n
    return ece, brier / n, buckets


def reliability(title, rows, confidence_of):
    _, _, buckets = scores(rows, confidence_of)
    print(f"\n{title}\n")
    print("| confidence | answers | mean confidence | share right |")
    print("|---|---|---|---|")
    for i, (k, right, s) in enumerate(buckets):
        if k:
            hi = min(BUCKETS[i + 1], 1.0)
            print(f"| {BUCKETS[i]:.1f}–{hi:.1f} | {k} | {s / k:.2f} | {100 * right / k:.0f} % |")


def main():
    args = sys.argv[1:]
    if not args or "--help" in args or "-h" in args:
        print(__doc__, file=sys.stderr)
        sys.exit(2 if not args else 0)
    fb, per_tree, min_block = "target/release/findbench", 10, 20
    train, held, into = [], [], None
    while args:
        a = args.pop(0)
        if a == "--findbench":
            fb = args.pop(0)
        elif a == "--symbols":
            per_tree = int(args.pop(0))
        elif a == "--min-block":
            min_block = int(args.pop(0))
        elif a in ("--train", "--held"):
            into = train if a == "--train" else held
        elif a.startswith("-"):
            print(f"unknown option {a}", file=sys.stderr)
            sys.exit(2)
        elif into is None:
            print("name --train or --held before the work directories", file=sys.stderr)
            sys.exit(2)
        else:
            into.append(a)
    if not train:
        print("no --train work directory", file=sys.stderr)
        sys.exit(2)
    train_rows = [r for w in train for r in answers(w, fb, per_tree)]
    held_rows = [r for w in held for r in answers(w, fb, per_tree)]
    fit = {}
    for kind in ("named", "ranked"):
        pts = [(r["held_share"], float(r["right"])) for r in train_rows if r["kind"] == kind]
        fit[kind] = isotonic(pts, min_block) if pts else []
    print("planner.calibration fitted on", ", ".join(sorted({r["project"] for r in train_rows})))
    print(json.dumps(fit))
    calibrated = lambda r: read_map(fit[r["kind"]], r["held_share"])
    ways = (("held share", lambda r: r["held_share"]), ("new fit", calibrated),
            ("binary's confidence", lambda r: r["confidence"]))
    print("\n| answers | kind | n | right | " + " | ".join(f"ECE, {w}" for w, _ in ways)
          + " | " + " | ".join(f"Brier, {w}" for w, _ in ways) + " |")
    print("|---|---|---|---|" + "---|" * (2 * len(ways)))
    for name, rows in (("train", train_rows), ("held out", held_rows)):
        for kind in ("named", "ranked", None):
            part = [r for r in rows if kind is None or r["kind"] == kind]
            if not part:
                continue
            figures = [scores(part, f)[:2] for _, f in ways]
            print(f"| {name} | {kind or 'all'} | {len(part)} | {sum(r['right'] for r in part)} | "
                  + " | ".join(f"{e:.3f}" for e, _ in figures) + " | "
                  + " | ".join(f"{b:.3f}" for _, b in figures) + " |")
    shown = held_rows or train_rows
    label = "held out" if held_rows else "train"
    reliability(f"{label}, all answers, the new fit:", shown, calibrated)
    reliability(f"{label}, all answers, the binary's confidence:", shown, lambda r: r["confidence"])


if __name__ == "__main__":
    main()
